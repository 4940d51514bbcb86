import {
  AGENT_WS_PATH,
  createMessage,
  type ErrorCode,
  type Message,
  type MessageOf,
  type MessageType,
  type PayloadInputOf,
} from '@usher/protocol';
import WebSocket from 'ws';
import { FrameReader } from '../perception/read/frame.ts';

/**
 * Failures that happen on this side and are never sent (the runtime-level codes of spec §7): no
 * reply in time, no connection, closed by us, or a reply the agent could not read.
 */
export type LocalErrorCode = 'TIMEOUT_RESULT' | 'DISCONNECTED' | 'CLOSED' | 'UNREADABLE_REPLY';

/** A request that failed: with the relay's or the host's code (`wire`), or a local one. */
export class RelayRequestError extends Error {
  override readonly name = 'RelayRequestError';
  constructor(
    readonly code: ErrorCode | LocalErrorCode,
    message: string,
    readonly wire: boolean,
  ) {
    super(message);
  }
}

/** How long {@link RelayClient.close} waits for the relay to answer the closing handshake. */
const CLOSE_GRACE_MS = 1000;

/** The requests an agent makes, and the reply each one resolves with. */
type RequestType = 'session.start' | 'snapshot.get' | 'tool.call' | 'session.end';
type ReplyOf<T extends RequestType> = MessageOf<
  T extends 'session.start'
    ? 'session.started'
    : T extends 'snapshot.get'
      ? 'snapshot.state'
      : T extends 'tool.call'
        ? 'tool.result'
        : 'session.ended'
>;

/** What the client reports besides replies. */
export type RelayEvent =
  /** Pushed by the relay or the host: `state.updated`, `user.message`, notices. */
  | { kind: 'message'; message: Message }
  /** Joined (again, after a drop): the runtime resyncs with `session.start` and `snapshot.get`. */
  | { kind: 'joined'; reconnect: boolean }
  | { kind: 'disconnected'; code: number }
  /** A pushed frame the agent could not use (said on the log): the runtime resyncs, since it may have missed a change. */
  | { kind: 'unreadable'; why: string };

/** How many distinct "left out" or "skipped" lines the client says, so a chatty host cannot flood the log. */
const MAX_NOTICES = 50;

export interface RelayClientOptions {
  /** The relay's base URL, `ws://127.0.0.1:8787` (an `http://` URL works too). */
  url: string;
  room: string;
  role?: 'agent' | 'observer';
  /** The credential for a relay with access control (an agent's or an experimenter's), sent as `Authorization: Bearer`. */
  token?: string;
  /** How long a request may wait for its reply. */
  requestTimeoutMs?: number;
  /** Reconnect delays after a drop: the first, doubled up to the last. */
  backoff?: { initialMs: number; maxMs: number };
  onEvent?: (event: RelayEvent) => void;
  /** Where the client says what it could not use (stderr for the CLI). */
  log?: (line: string) => void;
}

interface Pending {
  type: RequestType;
  resolve: (message: Message) => void;
  reject: (err: RelayRequestError) => void;
  timer: NodeJS.Timeout;
}

/**
 * The agent's connection to the relay (spec §8 `runtime/relayClient.ts`): joins a room, correlates
 * each request with its one reply (or error) by id, times requests out, and reconnects with
 * backoff after a drop, reporting it so the runtime can resync.
 */
export class RelayClient {
  private ws: WebSocket | null = null;
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  private closed = false;
  private everJoined = false;
  private backoffMs: number;
  private retry: NodeJS.Timeout | null = null;
  /** What was already said about frames read in part or skipped (each said once). */
  private readonly noticed = new Set<string>();
  /** Reads the relay's frames; a state's members it read before are not read again (kept across reconnects: they are text and its value). */
  private readonly reader = new FrameReader();

  constructor(private readonly options: RelayClientOptions) {
    this.backoffMs = options.backoff?.initialMs ?? 1000;
  }

  /** Connects and joins; resolves once joined, rejects when the first attempt fails. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const base = this.options.url.replace(/^http/, 'ws');
      const ws = new WebSocket(
        new URL(AGENT_WS_PATH, base),
        this.options.token ? { headers: { Authorization: `Bearer ${this.options.token}` } } : {},
      );
      this.ws = ws;
      let joined = false;
      // A refused credential is answered with an HTTP status and a sentence before any WebSocket exists.
      ws.on('unexpected-response', (_request, response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < 500) body += chunk;
        });
        response.on('end', () => {
          const why = `the relay refused the connection (HTTP ${response.statusCode}): ${body.trim().slice(0, 300)}`;
          if (!joined && !this.everJoined) reject(new RelayRequestError('DISCONNECTED', why, false));
          ws.terminate();
        });
      });
      ws.on('open', () => {
        const join = createMessage(
          'relay.join',
          { role: this.options.role ?? 'agent', sessionId: this.options.room },
          { id: 'join' },
        );
        ws.send(JSON.stringify(join));
      });
      ws.on('message', (data) => {
        const text = String(data);
        const read = this.reader.read(text);
        if (read.ok === 'skipped')
          return this.notice(`relay client: ignoring ${read.type} frames (nothing the agent acts on)`);
        if (!read.ok) return this.unusable(text, read.why, read.replyTo);
        const message = read.message;
        for (const note of read.notes) this.notice(`relay client: read a ${message.type} in part: ${note}`);
        if (!joined && message.type === 'relay.joined' && message.replyTo === 'join') {
          joined = true;
          const reconnect = this.everJoined;
          this.everJoined = true;
          this.backoffMs = this.options.backoff?.initialMs ?? 1000;
          resolve();
          this.options.onEvent?.({ kind: 'joined', reconnect });
          return;
        }
        this.receive(message);
      });
      // An error is followed by a close, which decides what happens next.
      ws.on('error', (err) => {
        if (!joined) reject(new RelayRequestError('DISCONNECTED', `cannot reach the relay: ${err.message}`, false));
      });
      ws.on('close', (code) => {
        if (this.ws !== ws) return;
        this.ws = null;
        this.failPending(this.closed ? 'CLOSED' : 'DISCONNECTED', 'the connection to the relay closed');
        if (!joined && !this.everJoined) {
          return reject(new RelayRequestError('DISCONNECTED', `the relay closed the connection (${code})`, false));
        }
        if (joined) this.options.onEvent?.({ kind: 'disconnected', code });
        // Every drop, and every failed attempt to come back, ends here: one retry is scheduled.
        this.scheduleReconnect();
      });
    });
  }

  /** Sends a request and resolves with its reply; rejects with the error that answered it instead. */
  request<T extends RequestType>(
    type: T,
    payload: PayloadInputOf<T>,
    timeoutMs = this.options.requestTimeoutMs ?? 10_000,
  ): Promise<ReplyOf<T>> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(
        new RelayRequestError(this.closed ? 'CLOSED' : 'DISCONNECTED', 'not connected to the relay', false),
      );
    }
    const id = `a${++this.seq}`;
    const message = createMessage(type as MessageType, payload as never, { id });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RelayRequestError('TIMEOUT_RESULT', `no reply to ${type} within ${timeoutMs} ms`, false));
      }, timeoutMs);
      this.pending.set(id, { type, resolve: resolve as (m: Message) => void, reject, timer });
      ws.send(JSON.stringify(message));
    });
  }

  /** Posts to the host's chat (`agent.message`); a valid one gets no reply. */
  say(text: string): void {
    this.ws?.send(JSON.stringify(createMessage('agent.message', { text }, { id: `a${++this.seq}` })));
  }

  /** Proposes a step for the participant's approval (`agent.proposal`, no reply; step approval). */
  propose(payload: PayloadInputOf<'agent.proposal'>): void {
    this.ws?.send(JSON.stringify(createMessage('agent.proposal', payload)));
  }

  /** Tells the page whether the agent is acting or waiting (`agent.status`, no reply). */
  status(state: 'working' | 'idle'): void {
    this.ws?.send(JSON.stringify(createMessage('agent.status', { state })));
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const ws = this.ws;
    ws?.close(1000, 'agent stopped');
    // A relay that does not answer the closing handshake (stopped, or cut off) must not keep the
    // process alive for the socket library's 30 s: after a moment, the socket is dropped.
    if (ws) setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    this.failPending('CLOSED', 'the client was closed');
    // A closed client may outlive its agent a while (a handle, a timer): what it kept goes now.
    this.reader.members.clear();
  }

  /**
   * A frame the agent cannot use even read liberally (no stage it knows, no text, broken JSON):
   * said on the log, never dropped in silence; when it answers one of our requests, that request
   * fails at once with the reason, rather than waiting for its timeout; otherwise the runtime is
   * told, and reads the whole state again.
   */
  private unusable(text: string, why: string, replyTo: string | undefined): void {
    this.options.log?.(`relay client: could not use a frame from the relay (${why}): ${text.slice(0, 200)}`);
    const pending = replyTo === undefined ? undefined : this.pending.get(replyTo);
    if (!pending || replyTo === undefined) {
      this.options.onEvent?.({ kind: 'unreadable', why });
      return;
    }
    this.pending.delete(replyTo);
    clearTimeout(pending.timer);
    pending.reject(
      new RelayRequestError('UNREADABLE_REPLY', `${pending.type}: the reply could not be read (${why})`, false),
    );
  }

  /**
   * Says a line once (bounded): what the reader left out or skipped is not an error, but never
   * silent. Past {@link MAX_NOTICES} distinct lines it says, once, that the rest go unsaid.
   */
  private notice(line: string): void {
    if (this.noticed.has(line) || this.noticed.size > MAX_NOTICES) return;
    this.noticed.add(line);
    this.options.log?.(
      this.noticed.size > MAX_NOTICES
        ? `relay client: more than ${MAX_NOTICES} kinds of frames read in part or skipped; the rest are not said`
        : line,
    );
  }

  private receive(message: Message): void {
    const pending = message.replyTo === undefined ? undefined : this.pending.get(message.replyTo);
    if (!pending || message.replyTo === undefined) {
      this.options.onEvent?.({ kind: 'message', message });
      return;
    }
    this.pending.delete(message.replyTo);
    clearTimeout(pending.timer);
    if (message.type === 'error')
      pending.reject(new RelayRequestError(message.payload.code, message.payload.message, true));
    else pending.resolve(message);
  }

  private failPending(code: LocalErrorCode, why: string): void {
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(new RelayRequestError(code, `${pending.type}: ${why}`, false));
    }
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.backoff?.maxMs ?? 30_000);
    this.retry = setTimeout(() => {
      // A failed attempt closes its socket, and the close handler schedules the next one.
      this.connect().catch(() => {});
    }, delay);
    this.retry.unref();
  }
}
