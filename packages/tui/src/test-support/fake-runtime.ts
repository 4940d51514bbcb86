import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';

/** A JSON-RPC message the UI wrote, as parsed from its line. */
export interface Sent {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * The runtime's end of an in-memory stdio pair, for the UI's tests: it reads what the UI writes
 * (one NDJSON line a message, as the real runtime does) and writes lines of its own, good or bad.
 */
export class FakeRuntime {
  /** The UI reads this (the runtime's stdout). */
  readonly stdout = new PassThrough();
  /** The UI writes this (the runtime's stdin). */
  readonly stdin = new PassThrough();
  readonly received: Sent[] = [];
  private waiters: Array<{ match(m: Sent): boolean; resolve(m: Sent): void }> = [];

  constructor() {
    createInterface({ input: this.stdin }).on('line', (line) => {
      const message = JSON.parse(line) as Sent;
      this.received.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  /** The first message (already received or still to come) that matches. */
  next(match: (m: Sent) => boolean): Promise<Sent> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The UI's request for `method` (the first one not yet answered by {@link answer}). */
  request(method: string): Promise<Sent> {
    return this.next((m) => m.method === method && m.id !== undefined && !this.answered.has(m.id));
  }

  /** The UI's response to request `id`. */
  response(id: string | number): Promise<Sent> {
    return this.next((m) => m.id === id && m.method === undefined);
  }

  private readonly answered = new Set<string | number>();

  answer(request: Sent, result: unknown): void {
    if (request.id === undefined) throw new Error('not a request');
    this.answered.add(request.id);
    this.send({ jsonrpc: '2.0', id: request.id, result });
  }

  fail(request: Sent, code: number, message: string): void {
    if (request.id === undefined) throw new Error('not a request');
    this.answered.add(request.id);
    this.send({ jsonrpc: '2.0', id: request.id, error: { code, message } });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Asks the UI something (a runtime→UI request). */
  ask(id: string, method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', id, method, params });
  }

  send(message: unknown): void {
    this.sendLine(JSON.stringify(message));
  }

  sendLine(line: string): void {
    this.stdout.write(`${line}\n`);
  }

  /** Answers `initialize` as the real runtime does. */
  async initialize(capabilities: Record<string, boolean> = {}): Promise<Sent> {
    const hello = await this.request('initialize');
    this.answer(hello, {
      protocol_version: '0',
      server: { name: 'usher-runtime', version: '9.9.9' },
      server_capabilities: {
        supports_run_cancel: true,
        supports_ui_requests: true,
        supports_mcp_list: true,
        supports_skills_list: true,
        ...capabilities,
      },
    });
    return hello;
  }
}
