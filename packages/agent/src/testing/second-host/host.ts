import WebSocket from 'ws';
import type { CinemaCatalog } from './catalog.ts';
import { CinemaFlow, type Outcome } from './flow.ts';

/*
 * The second host on the wire: an mvp-0.2 host written from the protocol's text, not from Usher's
 * code (no `@usher/protocol`, no `@usher/booking`). It joins a relay room as the host and answers
 * the agent's requests with its own frames: its own session ids, chat entries shaped
 * `{id, type, text, timestamp: <ms>, stage}`, tool results that carry its page, and `state.updated`
 * without Usher's `action` tag or `meta.today`.
 */

const V = 'mvp-0.2';
const AGENT_PATH = '/agent/ws';

interface Entry {
  id: string;
  type: 'system' | 'participant' | 'agent';
  text: string;
  timestamp?: number;
  stage?: string;
}

export interface SecondHostOptions {
  /** The relay's base URL (`http://` or `ws://`). */
  url: string;
  room?: string;
  catalog: CinemaCatalog;
  /** The site's clock, for its chat's timestamps. */
  now: () => Date;
  /** Leave the time out of chat entries (some sites keep none), so nothing on the wire says which day it is before the day step. */
  undatedChat?: boolean;
  /** Send the update after the Nth tool call (1-based) with a step no booking flow has, for a test of what the agent does with it. */
  garbleUpdateAfterCall?: number;
  /** Name steps otherwise on the wire (`{ movie: 'catalogue' }`), for a test of a step the agent does not know. */
  stageNames?: Record<string, string>;
  /**
   * Send every update as the site's own (`source: "host"`, as the prototype does), never naming the
   * call behind it, and answer `next` and `prev` without the page.
   */
  updatesFromHost?: boolean;
  /** Leave cinemas' features (IMAX, 3D, …) off the cinema step: formats show only on the showtimes. */
  noFeatures?: boolean;
  /** List every film, also those with no session (as the prototype does): the film step shows no days or sessions. */
  everyFilm?: boolean;
  /**
   * Show films as display stubs (`visibleItems` of `{id, value}`, the records in `items`), as the
   * prototype does: the film step's visible list shows titles only.
   */
  stubFilms?: boolean;
  /** Name tools otherwise on the wire (`{ select: 'pickOne' }`), for a test of a tool the agent cannot map. */
  toolNames?: Record<string, string>;
}

export class SecondHost {
  readonly flow: CinemaFlow;
  /** What the relay refused of this host's frames (`error` frames sent to it): none is expected. */
  readonly refused: string[] = [];
  private readonly history: Entry[] = [];
  private ws: WebSocket | null = null;
  private sessions = 0;
  private calls = 0;
  /** How many times the agent read the whole state (`snapshot.get`). */
  snapshots = 0;
  private sessionId: string | null = null;

  private constructor(private readonly options: SecondHostOptions) {
    this.flow = new CinemaFlow(options.catalog, { noFeatures: options.noFeatures, everyFilm: options.everyFilm });
    this.note('system', 'Welcome! Pick a film to start your order.');
  }

  static async join(options: SecondHostOptions): Promise<SecondHost> {
    const host = new SecondHost(options);
    await host.connect();
    return host;
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(new URL(AGENT_PATH, this.options.url.replace(/^http/, 'ws')));
      this.ws = ws;
      ws.on('open', () =>
        this.send({
          type: 'relay.join',
          id: 'hello',
          payload: { role: 'host', sessionId: this.options.room ?? 'default' },
        }),
      );
      ws.on('error', reject);
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as {
          type: string;
          id?: string;
          replyTo?: string;
          payload: Record<string, unknown>;
        };
        if (frame.type === 'relay.joined' && frame.replyTo === 'hello') resolve();
        else this.receive(frame);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  private send(frame: { type: string; id?: string; replyTo?: string; payload: unknown }): void {
    this.ws?.send(JSON.stringify({ v: V, ...frame }));
  }

  /** What the agent wrote in the chat, in order. */
  agentSaid(): string[] {
    return this.history.flatMap((e) => (e.type === 'agent' ? [e.text] : []));
  }

  private note(type: Entry['type'], text: string): void {
    const stage = this.flow.step ?? undefined;
    const id = `msg-${this.history.length + 1}`;
    const timestamp = this.options.undatedChat ? {} : { timestamp: this.options.now().getTime() };
    this.history.push({ id, type, text, ...timestamp, ...(stage && { stage }) });
  }

  private view() {
    return { uiSpec: this.page(), messageHistory: this.history.slice(-50), toolSchema: this.tools() };
  }

  /** The page as sent: its step under the name the options give it. */
  private page() {
    let page = this.flow.page();
    if (page && this.options.stubFilms && page.stage === 'movie' && Array.isArray(page.items)) {
      const films = page.items as Array<{ filmId: string; name: string }>;
      page = { ...page, visibleItems: films.map((f) => ({ id: f.filmId, value: f.name })) };
    }
    const renamed = page && this.options.stageNames?.[String(page.stage)];
    return page && renamed ? { ...page, stage: renamed } : page;
  }

  private tools() {
    const names = this.options.toolNames ?? {};
    return this.flow.tools().map((t) => ({ ...t, name: names[String(t.name)] ?? t.name }));
  }

  private changed(source: 'agent' | 'user' | 'host'): void {
    const from = this.options.updatesFromHost ? 'host' : source;
    this.send({ type: 'state.updated', payload: { source: from, ...this.view() } });
  }

  private receive(frame: { type: string; id?: string; payload: Record<string, unknown> }): void {
    const { type, id, payload } = frame;
    const reply = (replyType: string, body: unknown) => this.send({ type: replyType, replyTo: id, payload: body });
    switch (type) {
      case 'session.start':
        this.sessionId = `web-${++this.sessions}`;
        return reply('session.started', { sessionId: this.sessionId });
      case 'snapshot.get':
        this.snapshots += 1;
        return reply('snapshot.state', { sessionId: this.sessionId, ...this.view() });
      case 'tool.call': {
        const sent = String(payload.toolName);
        const toolName =
          Object.entries(this.options.toolNames ?? {}).find(([, name]) => name === sent)?.[0] ??
          (Object.hasOwn(this.options.toolNames ?? {}, sent) ? `(${sent})` : sent);
        const wasConfirm = this.flow.step === 'confirm';
        const outcome: Outcome = this.flow.apply(toolName, (payload.params ?? {}) as Record<string, unknown>);
        if (!outcome.ok) return reply('error', { code: outcome.code, message: outcome.message });
        const placed = wasConfirm && this.flow.step === null ? this.flow.orders.at(-1) : undefined;
        if (placed)
          this.note(
            'system',
            `Order ${placed.orderId} placed: seats ${placed.seats.join(', ')}, total ${placed.total.toFixed(2)} ${this.options.catalog.currency}.`,
          );
        // A site whose updates are all its own answers a step's `next` or `prev` without the page (as
        // the prototype does): the page comes with the update.
        const withPage = !this.options.updatesFromHost || (toolName !== 'next' && toolName !== 'prev');
        reply('tool.result', { ok: true, toolName: sent, ...(withPage && { uiSpec: this.page() }) });
        if (++this.calls === this.options.garbleUpdateAfterCall) {
          const view = this.view();
          return this.send({
            type: 'state.updated',
            payload: { source: 'agent', ...view, uiSpec: { ...view.uiSpec, stage: 'payment' } },
          });
        }
        return this.changed('agent');
      }
      case 'agent.message':
        this.note('agent', String(payload.text));
        return this.changed('agent');
      case 'session.end':
        this.flow.reset();
        reply('session.ended', { sessionId: this.sessionId ?? '', logFile: '', stateReset: true });
        this.sessionId = null;
        return;
      case 'error':
        this.refused.push(String(payload.message));
        return;
      default:
        // agent.status, relay notices: nothing this site shows.
        return;
    }
  }
}
