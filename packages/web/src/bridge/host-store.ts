import { BookingEngine, HostProtocol, readDecision, type Scenario, type SubmittedBooking } from '@usher/booking';
import {
  AGENT_WS_PATH,
  createMessage,
  decodeFrame,
  type ErrorCode,
  type HostView,
  type Message,
  type PayloadOf,
  ProtocolError,
} from '@usher/protocol';
import { loadSaved, type SavedHost, save } from './persistence.ts';

/** One frame on the wire, as the developer panel lists it. */
export interface FrameRecord {
  seq: number;
  direction: 'in' | 'out';
  type: string;
  at: string;
  text: string;
}

/** `replaced`: another host joined the room; this page stays out of the way and does not reconnect. */
export type Connection = 'connecting' | 'open' | 'reconnecting' | 'replaced';

/** Everything the page renders, as one immutable snapshot (a new object on every change). */
export interface HostSnapshot {
  connection: Connection;
  room: string;
  /** Study and participant ids from the page's URL, shown to the researcher. */
  study: string | null;
  participant: string | null;
  /** The study session the relay says this room is in. */
  sessionId: string | null;
  view: HostView;
  /** Raw records behind the current stage: for the developer panel only, never sent. */
  backendData: Record<string, unknown> | null;
  submitted: SubmittedBooking | null;
  frames: readonly FrameRecord[];
  /** Why the participant's last action was refused, until the next one succeeds. */
  refusal: { code: ErrorCode; message: string } | null;
  /** The agent said it is acting on the page (`agent.status`), until it says it is idle or leaves. */
  agentWorking: boolean;
  /**
   * The step the agent proposes for the participant's approval (`agent.proposal`, step approval),
   * until they decide, act or write, or the agent proposes another.
   */
  proposal: PayloadOf<'agent.proposal'> | null;
}

export interface HostStoreOptions {
  /** Base URL of the relay, e.g. `ws://127.0.0.1:8787`. */
  relayUrl: string;
  room: string;
  /** The room's host credential from the study link (browsers' WebSockets cannot send headers, so it goes in the URL). */
  token?: string | null;
  study: string | null;
  participant: string | null;
  scenario: Scenario;
  /** Where the booking survives a reload; null keeps nothing. */
  storage: Storage | null;
  /** Under what name the booking is kept in `storage` (the room by default; a study's task keeps its own). */
  saveAs?: string;
  /** The WebSocket constructor (the browser's by default). */
  WebSocketImpl?: typeof WebSocket;
  now?: () => Date;
  /** Reconnect delays: the first, doubled after each failure up to the last. */
  backoff?: { initialMs: number; maxMs: number };
}

const MAX_FRAMES = 300;
/** WebSocket close code of a host that another host replaced (the relay's `CLOSE_REPLACED`). */
const CLOSE_REPLACED = 4001;

/**
 * The web host's side of the wire: the booking engine answering the relay as the room's host,
 * through the same {@link HostProtocol} as the headless host, so both send the same frames for
 * the same inputs. It owns its socket (React only subscribes), so StrictMode's double mount opens
 * no second socket; it reconnects with backoff and keeps the booking in `storage` across reloads.
 */
export class HostStore {
  readonly protocol: HostProtocol;
  private snapshot: HostSnapshot;
  private readonly listeners = new Set<() => void>();
  private ws: WebSocket | null = null;
  private readonly backoff: { initialMs: number; maxMs: number };
  private backoffMs: number;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private frameSeq = 0;
  private disposed = false;
  /** Joined as the room's host: frames can go out. */
  private joined = false;
  /** Chat the participant wrote while the relay was out of reach, in order. */
  private outbox: string[];

  constructor(private readonly options: HostStoreOptions) {
    this.backoff = options.backoff ?? { initialMs: 500, maxMs: 10_000 };
    this.backoffMs = this.backoff.initialMs;
    const engineOptions = options.now ? { now: options.now } : {};
    let saved = loadSaved(options.storage, options.saveAs ?? options.room, options.scenario);
    let engine: BookingEngine;
    try {
      engine = saved
        ? BookingEngine.restore(options.scenario, saved.engine, engineOptions)
        : new BookingEngine(options.scenario, engineOptions);
    } catch (err) {
      console.warn(
        `usher host: starting afresh, the saved booking does not fit the scenario: ${(err as Error).message}`,
      );
      saved = null;
      engine = new BookingEngine(options.scenario, engineOptions);
    }
    this.outbox = saved?.outbox ?? [];
    this.protocol = new HostProtocol(engine, (err) => console.error('usher host: fault while answering', err));
    this.snapshot = {
      connection: 'connecting',
      room: options.room,
      study: options.study,
      participant: options.participant,
      sessionId: saved?.sessionId ?? null,
      view: engine.view(),
      backendData: engine.backendData(),
      submitted: engine.submitted(),
      frames: [],
      refusal: null,
      agentWorking: false,
      proposal: null,
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): HostSnapshot => this.snapshot;

  /** Opens the socket (once) and joins the room as its host. */
  connect(): void {
    if (this.ws || this.disposed) return;
    const Impl = this.options.WebSocketImpl ?? WebSocket;
    const url = new URL(AGENT_WS_PATH, this.options.relayUrl);
    if (this.options.token) url.searchParams.set('token', this.options.token);
    const ws = new Impl(url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.transmit(
        JSON.stringify(createMessage('relay.join', { role: 'host', sessionId: this.options.room }, { id: 'join' })),
      );
    });
    ws.addEventListener('message', (event) => this.receive(String(event.data)));
    // An error is always followed by a close, which schedules the reconnect.
    ws.addEventListener('error', () => {});
    ws.addEventListener('close', (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.joined = false;
      if (this.disposed) return;
      if (event.code === CLOSE_REPLACED) return this.update({ connection: 'replaced' });
      this.update({ connection: 'reconnecting' });
      this.retry = setTimeout(() => this.connect(), this.backoffMs);
      this.backoffMs = Math.min(this.backoffMs * 2, this.backoff.maxMs);
    });
  }

  /** The participant acts in the UI (select, next, filter …). A refused action changes nothing. */
  act(toolName: string, params: Record<string, unknown> = {}): boolean {
    if (this.refuseWhenReplaced()) return false;
    try {
      this.send(this.protocol.participantAction(toolName, params));
      // Acting on the page answers the proposal too: the agent plans again from what they did.
      this.changed({ refusal: null, proposal: null });
      return true;
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      this.update({ refusal: { code: err.code, message: err.message } });
      return false;
    }
  }

  /** The participant writes in the chat; the agent hears it as `user.message`. */
  say(text: string): void {
    const trimmed = text.trim();
    if (trimmed === '' || this.refuseWhenReplaced()) return;
    // A step is proposed: a yes or a no typed in the chat decides it (keyboard users need no button).
    const decision = this.snapshot.proposal && readDecision(trimmed);
    if (decision) return this.decide(decision, trimmed);
    this.send(this.protocol.participantMessage(trimmed));
    // Other words are a new wish: the agent plans again, and proposes anew.
    this.changed({ proposal: null });
  }

  /** The participant approves or rejects the step the agent proposes (with their typed words, if typed). */
  decide(decision: 'approve' | 'reject', typed?: string): void {
    const proposal = this.snapshot.proposal;
    if (!proposal || this.refuseWhenReplaced()) return;
    this.send(this.protocol.participantDecision(proposal.proposalId, decision, typed));
    this.changed({ proposal: null });
  }

  /** Once another host has the room, this page is read-only: acting here would reach nobody. */
  private refuseWhenReplaced(): boolean {
    if (this.snapshot.connection !== 'replaced') return false;
    const message = 'Another window is the host of this room now; this page is read-only. Reload it to take over.';
    this.update({ refusal: { code: 'SESSION_NOT_ACTIVE', message } });
    return true;
  }

  dispose(): void {
    this.disposed = true;
    if (this.retry) clearTimeout(this.retry);
    this.ws?.close(1000, 'page closed');
    this.ws = null;
  }

  private receive(text: string): void {
    this.record('in', text);
    const decoded = decodeFrame(text);
    if (!decoded.ok) {
      console.warn(`usher host: unreadable frame from the relay: ${decoded.message}`);
      return;
    }
    const message = decoded.message;
    if (message.type === 'agent.status') return this.update({ agentWorking: message.payload.state === 'working' });
    if (message.type === 'agent.proposal') return this.update({ proposal: message.payload });
    // The host left or the agent's room changed: nobody is working on the page any more.
    if (message.type === 'error' && message.payload.code === 'SESSION_NOT_ACTIVE') {
      this.update({ agentWorking: false, proposal: null });
    }
    if (message.type === 'relay.joined' && message.replyTo === 'join') {
      this.backoffMs = this.backoff.initialMs;
      this.joined = true;
      this.protocol.handle(message);
      this.update({ connection: 'open' });
      this.send([this.protocol.announce()]);
      const queued = this.outbox;
      this.outbox = [];
      for (const text of queued) this.transmit(text);
      this.changed();
      return;
    }
    this.send(this.protocol.handle(message));
    this.changed();
  }

  /**
   * Sends frames while joined. Offline, `user.message` waits in the outbox; the rest is state,
   * which is announced whole on rejoining.
   */
  private send(messages: Message[]): void {
    for (const message of messages) {
      const text = JSON.stringify(message);
      if (this.joined) this.transmit(text);
      else if (message.type === 'user.message' || message.type === 'participant.proposal') this.outbox.push(text);
    }
  }

  private transmit(text: string): void {
    this.ws?.send(text);
    this.record('out', text);
  }

  private record(direction: 'in' | 'out', text: string): void {
    const type = /"type":"([^"]+)"/.exec(text)?.[1] ?? '?';
    const frame: FrameRecord = { seq: ++this.frameSeq, direction, type, at: new Date().toISOString(), text };
    const frames = [...this.snapshot.frames, frame];
    this.update({ frames: frames.length > MAX_FRAMES ? frames.slice(-MAX_FRAMES) : frames });
  }

  /** Re-reads the engine after anything that may have changed it, and saves it. */
  private changed(extra: Partial<HostSnapshot> = {}): void {
    const engine = this.protocol.engine;
    const saved: SavedHost = {
      scenarioId: this.options.scenario.id,
      sessionId: this.protocol.sessionId,
      engine: engine.toJSON(),
      outbox: this.outbox,
    };
    save(this.options.storage, this.options.saveAs ?? this.options.room, saved);
    this.update({
      sessionId: this.protocol.sessionId,
      view: engine.view(),
      backendData: engine.backendData(),
      submitted: engine.submitted(),
      ...extra,
    });
  }

  private update(patch: Partial<HostSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }
}
