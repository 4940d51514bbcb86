import { MAX_SYNC_FRAME_BYTES } from '@usher/protocol/sync';
import WebSocket from 'ws';

export interface SyncConnectionOptions {
  /** The orchestrator's endpoint, whole: `ws://host:port/api/v1/external-agents/sync`. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Called on every (re)connection, before anything else is sent on it. */
  onOpen(): void;
  /** One text frame from the orchestrator. */
  onFrame(text: string): void;
  log(line: string): void;
  /** Reconnection delays double from the first to the last (DESIGN.md: 1, 2, 4 … 30 s). */
  backoffMs?: { first: number; max: number };
  /**
   * Interval of ping/pong liveness checks (default 15 s): a connection whose orchestrator has not
   * answered the previous ping is dropped and redialed, so a peer gone without closing the TCP
   * connection is noticed.
   */
  heartbeatMs?: number;
}

/**
 * The agent's side of the socket: dials the orchestrator with a bearer token and redials after
 * every failure or close, waiting 1, 2, 4 … 30 s (reset once a connection opens). A refused token
 * (HTTP 401) is reported and retried at the same pace: the orchestrator may be given the token later.
 * A connection whose orchestrator stops answering pings is dropped and redialed the same way.
 */
export class SyncConnection {
  private ws: WebSocket | null = null;
  private delayMs: number;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: SyncConnectionOptions) {
    this.delayMs = options.backoffMs?.first ?? 1000;
  }

  /** True while a connection is open. */
  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (this.stopped || this.ws) return;
    const ws = new WebSocket(this.options.url, {
      headers: { Authorization: `Bearer ${this.options.token}` },
      maxPayload: MAX_SYNC_FRAME_BYTES,
    });
    this.ws = ws;
    let refused: number | null = null;
    ws.on('unexpected-response', (_request, response) => {
      refused = response.statusCode ?? 0;
      response.resume();
      ws.terminate();
    });
    let answered = true;
    let heartbeat: NodeJS.Timeout | undefined;
    ws.on('pong', () => {
      answered = true;
    });
    ws.on('open', () => {
      this.delayMs = this.options.backoffMs?.first ?? 1000;
      this.options.log(`sync: connected to ${this.options.url}`);
      heartbeat = setInterval(() => {
        if (!answered) {
          this.options.log('sync: the orchestrator stopped answering pings; dropping the connection');
          ws.terminate();
          return;
        }
        answered = false;
        ws.ping();
      }, this.options.heartbeatMs ?? 15_000);
      this.options.onOpen();
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return this.options.log('sync: ignored a binary frame from the orchestrator');
      this.options.onFrame(String(data));
    });
    ws.on('error', (err) => {
      if (refused === null) this.options.log(`sync: ${err.message}`);
    });
    ws.on('close', (code, reason) => {
      clearInterval(heartbeat);
      this.ws = null;
      if (this.stopped) return;
      const wait = `retrying in ${Math.round(this.delayMs / 1000)} s`;
      if (refused === 401) {
        this.options.log(`sync: the orchestrator refused the token (HTTP 401); check --sync-token; ${wait}`);
      } else if (refused !== null) {
        this.options.log(`sync: the orchestrator answered HTTP ${refused} instead of a WebSocket; ${wait}`);
      } else {
        this.options.log(`sync: connection closed (${code}${reason.length ? ` ${reason}` : ''}); ${wait}`);
      }
      this.schedule();
    });
  }

  /**
   * Sends a frame if a connection is open; false when it could not. `written` is told, later,
   * whether the frame left for the network (handed to the operating system) or was lost with the
   * socket.
   */
  send(text: string, written?: (ok: boolean) => void): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(text, (err) => written?.(err === undefined || err === null));
    return true;
  }

  /** Stops redialing and closes the connection once what was sent has left. */
  close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1001, 'agent stopping');
      setTimeout(() => ws.terminate(), 2000).unref();
    });
  }

  private schedule(): void {
    const delay = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.options.backoffMs?.max ?? 30_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start();
    }, delay);
  }
}
