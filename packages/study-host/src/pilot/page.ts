import { BookingEngine, HostProtocol, type Scenario } from '@usher/booking';
import { AGENT_WS_PATH, createMessage, decodeFrame, type HostView, type Message } from '@usher/protocol';
import WebSocket from 'ws';

/**
 * A simulated participant's page: the booking host of their room, over a real WebSocket to the
 * relay, answering with {@link HostProtocol} on the task's scenario as the study page does. The
 * participant writes in the chat ({@link say}) and acts on the page ({@link act}); every change is
 * announced to whoever waits ({@link until}).
 */
export class PilotPage {
  readonly protocol: HostProtocol;
  /** Frames that did not decode, and errors the relay sent: the pilot reports them. */
  readonly problems: string[] = [];
  /** The agent's tool calls this page received, with the stage it showed when each came. */
  readonly agentCalls: Array<{ toolName: string; itemId: unknown; stage: string | null }> = [];
  /**
   * The participant's decision on a step the agent proposes (`agent.proposal`, guard `each-step`),
   * taken as the proposal arrives: approve, or reject with their words. None: the proposal waits.
   */
  onProposal:
    | ((proposal: { proposalId: string; tool: string }) => { decision: 'approve' | 'reject'; comment?: string } | null)
    | null = null;
  /** The chat entries in which the agent asks about the step it just proposed (answered by the decision). */
  readonly proposalPrompts = new Set<string>();
  private lastFromAgent: string | null = null;
  private ws: WebSocket | null = null;
  private readonly watchers = new Set<() => void>();

  private constructor(
    private readonly url: string,
    private readonly room: string,
    scenario: Scenario,
    now: () => Date,
    private readonly token?: string,
  ) {
    this.protocol = new HostProtocol(new BookingEngine(scenario, { now }), (err) =>
      this.problems.push(`the page failed: ${(err as Error).message}`),
    );
  }

  /** Opens the page: joins the room as its host and announces its state. */
  static async open(options: {
    url: string;
    room: string;
    scenario: Scenario;
    /** The clock of the chat's timestamps (the system's by default). */
    now?: () => Date;
    token?: string;
  }): Promise<PilotPage> {
    const now = options.now ?? (() => new Date());
    const page = new PilotPage(options.url, options.room, options.scenario, now, options.token);
    await page.connect();
    return page;
  }

  view(): HostView {
    return this.protocol.view();
  }

  /** The participant writes in the chat. */
  say(text: string): void {
    this.send(this.protocol.participantMessage(text));
  }

  /** The participant acts on the page; false when the page refuses it (as a button that does nothing). */
  act(toolName: string, params: Record<string, unknown> = {}): boolean {
    try {
      this.send(this.protocol.participantAction(toolName, params));
      return true;
    } catch {
      return false;
    }
  }

  /** Resolves once `check` holds (checked now and at each frame), or with false after `timeoutMs`. */
  until(check: () => boolean, timeoutMs: number): Promise<boolean> {
    if (check()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.watchers.delete(watch);
        resolve(ok);
      };
      const watch = () => {
        if (check()) done(true);
      };
      const timer = setTimeout(() => done(check()), timeoutMs);
      this.watchers.add(watch);
    });
  }

  close(): void {
    this.ws?.close(1000, 'page closed');
    this.ws = null;
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = new URL(AGENT_WS_PATH, this.url.replace(/^http/, 'ws'));
      if (this.token) url.searchParams.set('token', this.token);
      const ws = new WebSocket(url);
      this.ws = ws;
      let joined = false;
      ws.on('open', () => {
        ws.send(JSON.stringify(createMessage('relay.join', { role: 'host', sessionId: this.room }, { id: 'join' })));
      });
      ws.on('message', (data) => {
        const decoded = decodeFrame(String(data));
        if (!decoded.ok) {
          this.problems.push(`an unreadable frame: ${decoded.message}`);
          return;
        }
        const message: Message = decoded.message;
        if (message.type === 'tool.call') {
          this.agentCalls.push({
            toolName: message.payload.toolName,
            itemId: message.payload.params?.itemId,
            stage: this.view().uiSpec?.stage ?? null,
          });
        }
        if (message.type === 'error')
          this.problems.push(`the relay said ${message.payload.code}: ${message.payload.message}`);
        const replies = this.protocol.handle(message);
        // Marked before anyone waiting looks at the chat (the replies wake them).
        if (message.type === 'agent.message' && this.lastFromAgent === 'agent.proposal') {
          const entry = this.view().messageHistory.at(-1);
          if (entry) this.proposalPrompts.add(entry.id);
        }
        this.send(replies);
        if (['agent.message', 'agent.proposal', 'tool.call'].includes(message.type)) this.lastFromAgent = message.type;
        if (message.type === 'agent.proposal' && this.onProposal) {
          const decided = this.onProposal(message.payload);
          if (decided) {
            this.send(this.protocol.participantDecision(message.payload.proposalId, decided.decision, decided.comment));
          }
        }
        if (!joined && message.type === 'relay.joined' && message.replyTo === 'join') {
          joined = true;
          this.send([this.protocol.announce()]);
          resolve();
        }
        for (const watch of [...this.watchers]) watch();
      });
      ws.on('error', (err) => {
        if (!joined) reject(err);
        else this.problems.push(`the page's socket failed: ${err.message}`);
      });
      ws.on('close', (code) => {
        if (!joined) reject(new Error(`the relay closed the page's connection (${code})`));
      });
    });
  }

  private send(messages: Message[]): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    for (const message of messages) ws.send(JSON.stringify(message));
    for (const watch of [...this.watchers]) watch();
  }
}
