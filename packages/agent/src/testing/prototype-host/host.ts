import WebSocket from 'ws';
import type { PrototypeCatalog } from './catalog.ts';
import { BookingPage, ToolFailure } from './flow.ts';
import { STAGE_GUIDE } from './page.ts';

/*
 * The prototype host on the wire: an mvp-0.2 host that answers as the research prototype's page
 * does, over a real socket, written from its published behaviour (no `@usher/protocol`, no
 * `@usher/booking`). It joins with a `relay.join` that has no id; `session.start` is answered with
 * the room's id as the session id; every change it renders goes out as `state.updated` with source
 * `host` (never `agent` or `user`, never an `action` tag, never `meta.today`), the whole chat
 * included; a tool result carries the new page only for a selection or a modification; a tool it
 * cannot apply is `TOOL_EXECUTION_FAILED`, one it does not know is an empty success; `session.end`
 * gets no answer.
 */

const V = 'mvp-0.2';
const AGENT_PATH = '/agent/ws';

export interface PrototypeHostOptions {
  /** The relay's base URL (`http://` or `ws://`). */
  url: string;
  room?: string;
  catalog: PrototypeCatalog;
  /** The browser's clock, for the chat's timestamps (the prototype's are the machine's, not the study day). */
  now: () => Date;
  /** The GUI adaptation tools; on by default, as in the prototype. */
  guiAdaptation?: boolean;
  /** How long a stage takes to load after `next`/`prev`; 5 ms by default. */
  loadDelayMs?: number;
  /**
   * Send what the latest prototype adds to its frames beyond the spec's payload: `plannerCpMemoryLimit`
   * and `guiAdaptationEnabled` in `state.updated` and `snapshot.state`, and `stageMeta` in
   * `snapshot.state`, as the prototype does. On by default: Usher's relay drops payload keys the
   * spec does not name (and says so once per room), so the agent never sees them.
   */
  prototypeExtras?: boolean;
}

type Frame = { type: string; id?: string; replyTo?: string; payload?: Record<string, unknown> };

export class PrototypeHost {
  readonly page: BookingPage;
  /** What the relay refused of this host's frames (`error` frames sent to it): none is expected. */
  readonly refused: string[] = [];
  /** How many times the agent read the whole state (`snapshot.get`). */
  snapshots = 0;
  /** The largest frame sent, in bytes. */
  largestFrame = 0;
  private ws: WebSocket | null = null;
  private joined = false;
  /** While a tool call is applied, its render waits for the call's result to go out first. */
  private holding = false;
  private held = false;

  private constructor(private readonly options: PrototypeHostOptions) {
    this.page = new BookingPage(options.catalog, {
      now: options.now,
      seed: options.room ?? 'default',
      ...(options.guiAdaptation !== undefined && { guiAdaptation: options.guiAdaptation }),
      ...(options.loadDelayMs !== undefined && { loadDelayMs: options.loadDelayMs }),
      onRender: () => this.rendered(),
    });
  }

  static async join(options: PrototypeHostOptions): Promise<PrototypeHost> {
    const host = new PrototypeHost(options);
    await host.connect();
    return host;
  }

  private get room(): string {
    return this.options.room ?? 'default';
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(new URL(AGENT_PATH, this.options.url.replace(/^http/, 'ws')));
      this.ws = ws;
      ws.on('open', () => this.send({ type: 'relay.join', payload: { role: 'host', sessionId: this.room } }));
      ws.on('error', reject);
      ws.on('message', (data) => {
        let frame: Frame;
        try {
          frame = JSON.parse(String(data)) as Frame;
        } catch {
          return;
        }
        if (!frame || typeof frame.type !== 'string') return;
        if (frame.type === 'relay.joined') {
          this.joined = true;
          // The page sends its state as soon as it has joined.
          this.rendered();
          resolve();
        } else this.receive(frame);
      });
    });
  }

  close(): Promise<void> {
    this.page.close();
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  private send(frame: Frame): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    const text = JSON.stringify({ v: V, ...frame });
    this.largestFrame = Math.max(this.largestFrame, Buffer.byteLength(text));
    this.ws.send(text);
  }

  private extras(): Record<string, unknown> {
    return this.options.prototypeExtras !== false
      ? { plannerCpMemoryLimit: 10, guiAdaptationEnabled: this.options.guiAdaptation !== false }
      : {};
  }

  private view() {
    return { uiSpec: this.page.active, messageHistory: this.page.chat, toolSchema: this.page.tools() };
  }

  private rendered(): void {
    if (this.holding) {
      this.held = true;
      return;
    }
    if (this.joined)
      this.send({ type: 'state.updated', payload: { source: 'host', ...this.view(), ...this.extras() } });
  }

  private receive(frame: Frame): void {
    const { type, id } = frame;
    const payload = frame.payload ?? {};
    const reply = (replyType: string, body: Record<string, unknown>) =>
      this.send({ type: replyType, ...(id !== undefined && { replyTo: id }), payload: body });
    switch (type) {
      case 'session.start':
        return reply('session.started', { sessionId: this.room });
      case 'snapshot.get':
        this.snapshots += 1;
        return reply('snapshot.state', {
          sessionId: this.room,
          ...this.view(),
          ...this.extras(),
          ...(this.options.prototypeExtras !== false && { stageMeta: STAGE_GUIDE }),
        });
      case 'tool.call': {
        const toolName = payload.toolName;
        if (typeof toolName !== 'string')
          return reply('error', { code: 'INVALID_PARAMS', message: 'tool.call requires payload.toolName' });
        const params = (payload.params ?? {}) as Record<string, unknown>;
        const reason = typeof payload.reason === 'string' && payload.reason.trim() ? payload.reason.trim() : undefined;
        // The page applies the call and renders; its result goes out first, its update after (as a page's effect would).
        this.holding = true;
        this.held = false;
        try {
          const page = this.page.apply(toolName, params, reason);
          reply('tool.result', { ok: true, toolName, ...(page && { uiSpec: page }) });
        } catch (error) {
          const message = error instanceof ToolFailure ? error.message : 'Tool execution failed';
          reply('error', { code: 'TOOL_EXECUTION_FAILED', message });
        } finally {
          this.holding = false;
        }
        if (this.held) this.rendered();
        return;
      }
      case 'agent.message': {
        const text = payload.text;
        if (typeof text !== 'string' || !text.trim())
          return reply('error', { code: 'INVALID_PARAMS', message: 'agent.message requires a non-empty payload.text' });
        this.page.agentSays(text.trim());
        return;
      }
      case 'error':
        this.refused.push(String(payload.message));
        return;
      default:
        // session.end (the prototype ignores it), agent.status, relay notices: nothing this page shows.
        return;
    }
  }
}
