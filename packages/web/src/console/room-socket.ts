import { type HostView, HostViewSchema, PROTOCOL_VERSION } from '@usher/protocol';

export type SocketState = 'connecting' | 'open' | 'closed';

interface Pending {
  resolve: (reply: { type: string; payload: Record<string, unknown> }) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** How long the console waits for the host's answer to a call before saying so (ms). */
const REPLY_TIMEOUT_MS = 15_000;

/**
 * The console's connection to a room through the relay, like any client of mvp-0.2: as an
 * observer to watch (read-only: it sends nothing after joining, so the study log gains only its
 * join and leave), or as an agent when the experimenter steps in. It keeps the room's latest
 * state from the host's `state.updated` broadcasts.
 */
export class RoomSocket {
  state: SocketState = 'connecting';
  view: HostView | null = null;
  private readonly ws: WebSocket;
  private readonly pending = new Map<string, Pending>();
  private seq = 0;

  constructor(
    url: string,
    readonly room: string,
    readonly role: 'observer' | 'agent',
    private readonly onChange: (socket: RoomSocket) => void,
    private readonly onProblem: (message: string) => void,
  ) {
    this.ws = new WebSocket(url);
    this.ws.addEventListener('open', () => {
      this.send('relay.join', { role, sessionId: room }, 'join');
    });
    this.ws.addEventListener('message', (event) => this.receive(String(event.data)));
    this.ws.addEventListener('close', (event) => {
      this.state = 'closed';
      // A call still waiting will never be answered: it ends now, saying why.
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.resolve({
          type: 'error',
          payload: { message: 'the connection to the room closed before the page answered' },
        });
      }
      this.pending.clear();
      if (event.code !== 1000 && event.code !== 1005)
        this.onProblem(`the relay closed the connection (${event.code} ${event.reason})`);
      this.onChange(this);
    });
  }

  /** Calls a page tool as the agent; resolves with the host's answer (`tool.result`, or an error with its message). */
  call(toolName: string, params: Record<string, unknown>, reason: string): Promise<{ ok: boolean; message?: string }> {
    return this.request('tool.call', { toolName, params, reason }).then((reply) =>
      reply.type === 'tool.result'
        ? { ok: true }
        : { ok: false, message: String((reply.payload as { message?: unknown }).message ?? reply.type) },
    );
  }

  /** Writes in the participant's chat as the agent. */
  say(text: string): void {
    this.send('agent.message', { text });
  }

  close(): void {
    this.ws.close(1000, 'console closed');
  }

  private request(type: string, payload: object): Promise<{ type: string; payload: Record<string, unknown> }> {
    if (this.ws.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ type: 'error', payload: { message: 'not connected to the room' } });
    }
    const id = `c${++this.seq}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ type: 'error', payload: { message: `no answer from the page within ${REPLY_TIMEOUT_MS / 1000} s` } });
      }, REPLY_TIMEOUT_MS);
      this.pending.set(id, { resolve, timer });
      this.send(type, payload, id);
    });
  }

  private send(type: string, payload: object, id?: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) {
      this.onProblem('not connected to the room');
      return;
    }
    this.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, type, ...(id && { id }), payload }));
  }

  private receive(text: string): void {
    let frame: { type?: unknown; replyTo?: unknown; payload?: Record<string, unknown> };
    try {
      frame = JSON.parse(text);
    } catch {
      this.onProblem('the relay sent a frame that is not JSON');
      return;
    }
    const payload = frame.payload ?? {};
    if (frame.type === 'relay.joined' && frame.replyTo === 'join') {
      this.state = 'open';
    } else if (frame.type === 'state.updated' && typeof payload === 'object') {
      const view = viewOf(payload);
      if ('problem' in view) this.onProblem(unshown(view.problem));
      else this.view = view;
    } else if (frame.type === 'error' && frame.replyTo === undefined) {
      this.onProblem(String(payload.message ?? 'the relay reported an error'));
    }
    if (typeof frame.replyTo === 'string') {
      const pending = this.pending.get(frame.replyTo);
      if (pending) {
        clearTimeout(pending.timer);
        this.pending.delete(frame.replyTo);
        pending.resolve({ type: String(frame.type), payload });
      } else if (frame.type === 'error' && frame.replyTo === 'join') {
        this.onProblem(String(payload.message ?? 'could not join the room'));
      }
    }
    this.onChange(this);
  }
}

/**
 * A room's state as the console can draw it, or what is wrong with it. The participant's page
 * writes it (and the study log keeps it), and the relay checks only its outline: a state the
 * console's components cannot draw is shown as a note instead of taking the console down.
 */
export function viewOf(payload: unknown): HostView | { problem: string } {
  const { uiSpec = null, messageHistory, toolSchema } = (payload ?? {}) as Partial<HostView>;
  const view = HostViewSchema.safeParse({ uiSpec, messageHistory, toolSchema });
  if (view.success) return view.data;
  const issue = view.error.issues[0];
  return { problem: `${issue?.path.join('.') || 'state'}: ${issue?.message}` };
}

/** Why a room's live state is not shown. */
export const unshown = (problem: string) =>
  `the room’s page sent a state the console cannot show (${problem}); it shows the last one it could`;
