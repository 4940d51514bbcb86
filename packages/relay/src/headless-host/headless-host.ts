import { BookingEngine, HostProtocol, type Scenario, type SubmittedBooking } from '@usher/booking';
import { AGENT_WS_PATH, createMessage, decodeFrame, type HostView, type Message, ProtocolError } from '@usher/protocol';
import WebSocket from 'ws';
import { CLOSE_REPLACED } from '../relay/relay.ts';

export interface HeadlessHostOptions {
  /** Base URL of the relay, e.g. `ws://127.0.0.1:8787`. */
  url: string;
  room: string;
  scenario: Scenario;
  warn?: (line: string) => void;
  /** The room's host credential, for a relay with access control. */
  token?: string;
  /** The clock of chat timestamps (the system clock by default). */
  now?: () => Date;
  /** Whether the room has no host now: after another host replaced it, it comes back once this says so. */
  roomIsFree?: () => boolean;
}

const MAX_BACKOFF_MS = 30_000;
/** How often a replaced headless host looks whether its room is free again. */
const FREE_ROOM_POLL_MS = 1000;

/**
 * The booking engine as the host of a relay room, over a real WebSocket like any other host.
 * A participant is played through {@link say} and {@link act} (the server's participant API).
 */
export class HeadlessHost {
  readonly protocol: HostProtocol;
  /** Every booking submitted on this host, oldest first: they outlive the reset that ends each session. */
  readonly bookings: SubmittedBooking[] = [];
  private ws: WebSocket | null = null;
  private stopped = false;
  private backoffMs = 1000;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly warn: (line: string) => void;
  /** How many of its frames the relay refused to forward because it could not log them. */
  private refusals = 0;

  constructor(private readonly options: HeadlessHostOptions) {
    this.warn = options.warn ?? ((line) => console.error(line));
    this.protocol = new HostProtocol(
      new BookingEngine(options.scenario, options.now ? { now: options.now } : {}),
      (err) =>
        this.warn(
          `headless host: fault while answering: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        ),
    );
  }

  get room(): string {
    return this.options.room;
  }

  /** Connects and joins the room; resolves once the relay has answered `relay.joined`. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(
        new URL(AGENT_WS_PATH, this.options.url),
        this.options.token ? { headers: { Authorization: `Bearer ${this.options.token}` } } : {},
      );
      this.ws = ws;
      let joined = false;
      ws.on('open', () => {
        ws.send(
          JSON.stringify(createMessage('relay.join', { role: 'host', sessionId: this.options.room }, { id: 'join' })),
        );
      });
      ws.on('message', (data) => {
        const decoded = decodeFrame(String(data));
        if (!decoded.ok) return this.warn(`headless host: unreadable frame from the relay: ${decoded.message}`);
        if (!joined && decoded.message.type === 'relay.joined' && decoded.message.replyTo === 'join') {
          joined = true;
          this.backoffMs = 1000;
          this.receive(decoded.message);
          this.send([this.protocol.announce()]);
          resolve();
          return;
        }
        this.receive(decoded.message);
      });
      ws.on('error', (err) => {
        if (!joined) reject(err);
        else this.warn(`headless host: ${err.message}`);
      });
      ws.on('close', (code) => {
        if (this.ws === ws) this.ws = null;
        if (!joined) return reject(new Error(`the relay closed the connection (${code})`));
        if (code === CLOSE_REPLACED) {
          this.warn(`headless host: replaced by another host in room ${this.room}; back when the room has none`);
          return this.awaitFreeRoom();
        }
        this.scheduleReconnect();
      });
    });
  }

  /** The participant writes in the chat; throws a ProtocolError while the host is not in its room. */
  say(text: string): void {
    this.mustBeConnected();
    this.send(this.protocol.participantMessage(text));
  }

  /** The participant acts in the UI; throws a ProtocolError when the action is refused or the host is not in its room. */
  /** The participant decides on the agent's proposed step (step approval), with a button or typed words. */
  decide(proposalId: string, decision: 'approve' | 'reject', typed?: string): void {
    this.mustBeConnected();
    this.send(this.protocol.participantDecision(proposalId, decision, typed));
  }

  act(toolName: string, params: Record<string, unknown> = {}): void {
    this.mustBeConnected();
    this.keepingBookings(() => this.send(this.protocol.participantAction(toolName, params)));
  }

  /**
   * Runs `change` (a {@link say} or an {@link act}) and resolves once the relay has read what it
   * sent: true when it was logged and forwarded, false when the relay refused it because the study
   * log could not be written (a full disk). The relay answers a WebSocket ping only after every frame
   * before it, and its refusal comes before the pong.
   */
  async recorded(change: () => void): Promise<boolean> {
    const before = this.refusals;
    change();
    await this.roundTrip();
    return this.refusals === before;
  }

  /** A ping answered by the relay; resolves after at most two seconds whatever happens. */
  private roundTrip(): Promise<void> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        ws.off('pong', done);
        ws.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, 2000);
      ws.on('pong', done);
      ws.on('close', done);
      ws.ping();
    });
  }

  /** What the participant does must reach the room: refused, changing nothing, while the host is out of it. */
  private mustBeConnected(): void {
    if (this.ws?.readyState === WebSocket.OPEN) return;
    throw new ProtocolError(
      'SESSION_NOT_ACTIVE',
      `the headless host is not in room "${this.room}" (another host replaced it, or the relay is out of reach); nothing was done`,
    );
  }

  view(): HostView {
    return this.protocol.view();
  }

  submitted(): SubmittedBooking | null {
    return this.protocol.engine.submitted();
  }

  close(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.ws?.close(1000, 'host stopped');
  }

  private receive(message: Message): void {
    // The relay's refusal of a frame it could not log (a notice: no replyTo), said to the host alone.
    if (message.type === 'error' && message.replyTo === undefined && message.payload.code === 'TOOL_EXECUTION_FAILED')
      this.refusals += 1;
    this.keepingBookings(() => this.send(this.protocol.handle(message)));
  }

  /** Runs `change`, and keeps the booking it submitted, if it did. */
  private keepingBookings(change: () => void): void {
    const before = this.protocol.engine.submitted() !== null;
    change();
    const booking = this.protocol.engine.submitted();
    if (!before && booking) this.bookings.push(booking);
  }

  private send(messages: Message[]): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    for (const message of messages) ws.send(JSON.stringify(message));
  }

  /**
   * Replaced by another host (a page): the room is theirs while they are there, and the headless
   * host comes back once it has no host, so the participant API never stays without one. Without
   * a way to tell (`roomIsFree`), it stays out, as before.
   */
  private awaitFreeRoom(): void {
    const roomIsFree = this.options.roomIsFree;
    if (this.stopped || !roomIsFree) return;
    this.reconnectTimer = setTimeout(() => {
      if (this.stopped) return;
      if (!roomIsFree()) return this.awaitFreeRoom();
      this.start().catch((err: Error) => {
        this.warn(`headless host: rejoining room ${this.room} failed: ${err.message}`);
        this.scheduleReconnect();
      });
    }, FREE_ROOM_POLL_MS);
    this.reconnectTimer.unref();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.reconnectTimer = setTimeout(() => {
      this.start().catch((err: Error) => {
        this.warn(`headless host: reconnect failed: ${err.message}`);
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }
}
