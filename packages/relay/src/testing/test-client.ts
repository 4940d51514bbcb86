import { AGENT_WS_PATH, PROTOCOL_VERSION } from '@usher/protocol';
import WebSocket from 'ws';

/** A frame as a test sees it: parsed JSON, whatever its shape. */
export type Frame = {
  v?: string;
  type: string;
  id?: string;
  replyTo?: string;
  payload: Record<string, unknown>;
} & Record<string, unknown>;

/**
 * A relay client for tests: real socket, every received frame recorded in order, and waits by
 * predicate. Used as a scripted agent, a scripted host, or an observer.
 */
export class TestClient {
  readonly frames: Frame[] = [];
  private waiters: Array<{ match: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  private seq = 0;
  closeCode: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.on('close', (code) => {
      this.closeCode = code;
    });
  }

  /** Connects to the relay at `baseUrl`; `query` goes on the upgrade's URL (e.g. `as=experimenter`). */
  static connect(baseUrl: string, options: WebSocket.ClientOptions = {}, query = ''): Promise<TestClient> {
    const url = new URL(AGENT_WS_PATH, baseUrl);
    url.search = query;
    const ws = new WebSocket(url, options);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TestClient(ws)));
      ws.once('error', reject);
    });
  }

  /** Tries to connect and resolves with the HTTP status of the refusal and its text (or 101 when it was accepted). */
  static refusal(baseUrl: string, options: WebSocket.ClientOptions = {}): Promise<{ status: number; text: string }> {
    const ws = new WebSocket(new URL(AGENT_WS_PATH, baseUrl), options);
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.terminate();
        resolve({ status: 101, text: '' });
      });
      ws.once('unexpected-response', (_request, response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          ws.terminate();
          resolve({ status: response.statusCode ?? 0, text });
        });
      });
      ws.once('error', (err) => {
        if (ws.readyState === WebSocket.CONNECTING) reject(err);
      });
    });
  }

  /** Connects (with `token` as its credential, when given) and joins `room` in `role`. */
  static async join(
    baseUrl: string,
    role: 'host' | 'agent' | 'observer',
    room = 'default',
    token?: string,
  ): Promise<TestClient> {
    const client = await TestClient.connect(baseUrl, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    const reply = await client.request('relay.join', { role, sessionId: room });
    if (reply.type !== 'relay.joined') throw new Error(`join failed: ${JSON.stringify(reply)}`);
    return client;
  }

  /** Sends raw text, or an object as JSON. */
  send(frame: string | object): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends an envelope with a fresh id and resolves with the frame that answers it. */
  request(type: string, payload: object = {}, id = `t${++this.seq}`): Promise<Frame> {
    this.send({ v: PROTOCOL_VERSION, type, id, payload });
    return this.waitFor((f) => f.replyTo === id);
  }

  /** Resolves with the first frame (already received or still to come) that matches. */
  waitFor(match: (f: Frame) => boolean, timeoutMs = 5000): Promise<Frame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return this.nextMatching(match, timeoutMs);
  }

  /** Resolves with the next frame to arrive that matches, ignoring those already received. */
  nextMatching(match: (f: Frame) => boolean, timeoutMs = 5000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  closed(): Promise<number> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve(this.closeCode ?? 1006);
    return new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
  }

  close(): void {
    this.ws.close();
  }
}
