import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RpcMessage, RpcMessageSchema } from '@usher/protocol/stdio';
import { onTestFinished } from 'vitest';

/*
 * Test support: the real `usher runtime --stdio` as a child process, spoken to in NDJSON. Every
 * stdout line is kept; a line that is not a JSON-RPC 2.0 message is kept apart in `impure`, so a
 * test can prove stdout carries protocol lines only.
 */

/** The `usher` command from source, run with the same Node as the tests. */
export const USHER_BIN = new URL('../../../../cli/bin/usher.js', import.meta.url).pathname;

type Json = Record<string, unknown>;
/** A message from the runtime, loosely typed for assertions. */
export type Line = RpcMessage & {
  id?: string | number | null;
  method?: string;
  params?: Json;
  result?: Json;
  error?: Json;
};

/** The AgentEvent an `agent.event` line carries, for assertions. */
export function eventOf(line: Line | undefined): { type?: string; content?: string } {
  return (line?.params?.event ?? {}) as { type?: string; content?: string };
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  /** Default: a fresh temp folder (removed after the test), so no real config or sessions are touched. */
  cwd?: string;
}

/** A temp folder removed when the test ends. */
export function tempDir(prefix = 'usher-runtime-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export class RuntimeProcess {
  /** Every protocol message received, in order. */
  readonly lines: Line[] = [];
  /** stdout lines that are not JSON-RPC 2.0 messages (there must be none). */
  readonly impure: string[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  private buffer = '';
  private waiters: { test: (line: Line) => boolean; resolve: (line: Line) => void; from: number }[] = [];
  private nextId = 0;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.onData(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Writes raw text to stdin (no newline added). */
  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Sends one message as a line. */
  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends a request and resolves with its response. */
  request(method: string, params?: unknown): Promise<Line> {
    const id = `t-${++this.nextId}`;
    this.send({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) });
    return this.response(id);
  }

  /** The response with `id`. */
  response(id: string | number | null): Promise<Line> {
    return this.waitFor((l) => l.id === id && !('method' in l) && ('result' in l || 'error' in l));
  }

  /** `initialize` with the given UI capabilities. */
  initialize(capabilities: Json = {}): Promise<Line> {
    return this.request('initialize', {
      protocol_version: '0',
      client: { name: 'conformance-test', version: '0' },
      ui_capabilities: capabilities,
    });
  }

  /** The first message (already received or still to come, after index `from`) that `test` accepts. */
  waitFor(test: (line: Line) => boolean, from = 0): Promise<Line> {
    const found = this.lines.slice(from).find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve, from }));
  }

  /** The run's terminal `run.status`. */
  runEnd(runId: string): Promise<Line> {
    return this.waitFor(
      (l) =>
        l.method === 'run.status' &&
        l.params?.run_id === runId &&
        ['completed', 'error', 'cancelled'].includes(String(l.params?.status)),
    );
  }

  /** The notifications of one run, in order. */
  notificationsOf(runId: string): Line[] {
    return this.lines.filter((l) => l.method !== undefined && l.params?.run_id === runId && !('id' in l));
  }

  /** Closes stdin and resolves with the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    for (let nl = this.buffer.indexOf('\n'); nl !== -1; nl = this.buffer.indexOf('\n')) {
      const text = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        this.impure.push(text);
        continue;
      }
      if (!RpcMessageSchema.safeParse(json).success) {
        this.impure.push(text);
        continue;
      }
      const line = json as Line;
      this.lines.push(line);
      const index = this.lines.length - 1;
      for (const waiter of [...this.waiters]) {
        if (index >= waiter.from && waiter.test(line)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  }
}

/** Spawns `usher runtime --stdio …args`; killed when the test ends, if still running. */
export function spawnRuntime(args: string[], options: SpawnOptions = {}): RuntimeProcess {
  const cwd = options.cwd ?? tempDir();
  const child = spawn(process.execPath, [USHER_BIN, 'runtime', '--stdio', ...args], {
    cwd,
    env: {
      ...process.env,
      USHER_LLM_BASE_URL: '',
      USHER_LLM_MODEL: '',
      USHER_LLM_API_KEY: '',
      USHER_CONFIG_HOME: join(cwd, 'config-home'),
      ...options.env,
    },
  });
  const runtime = new RuntimeProcess(child);
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return runtime;
}
