import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';
import { Samples } from './lib/stats.ts';
import type { Suite, SuiteOptions, Table } from './lib/suite.ts';
import { num } from './lib/table.ts';
import { withTimeout } from './lib/waits.ts';

/*
 * The stdio door: round trips per second through the real `usher runtime --stdio` against a bare
 * NDJSON echo process (same Node, same pipes), and the time from `run.start` to the run's first
 * `agent.event` on a headless host through the relay.
 */

const FULL = { warmupMs: 1000, measureMs: 6000, rounds: 6, runs: 20 };
const QUICK = { warmupMs: 200, measureMs: 1000, rounds: 2, runs: 3 };
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
const INIT_PARAMS = { protocol_version: '0', client: { name: 'bench', version: '0' }, ui_capabilities: {} };

type Message = { id?: string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** A child process spoken to in NDJSON: requests by id, and a hook on every notification. */
class NdjsonPeer {
  private buffer = '';
  private nextId = 0;
  private readonly pending = new Map<string, (message: Message) => void>();
  onNotification: (message: Message) => void = () => {};
  readonly exited: Promise<void>;

  constructor(
    private readonly name: string,
    readonly child: ChildProcessWithoutNullStreams,
  ) {
    const forget = atExit(() => child.kill('SIGKILL'));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.exited.then(forget);
    child.stderr.resume();
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let nl = this.buffer.indexOf('\n'); nl !== -1; nl = this.buffer.indexOf('\n')) {
        const message = JSON.parse(this.buffer.slice(0, nl)) as Message;
        this.buffer = this.buffer.slice(nl + 1);
        const waiter = message.id !== undefined && message.method === undefined && this.pending.get(message.id);
        if (waiter) {
          this.pending.delete(message.id as string);
          waiter(message);
        } else if (message.method !== undefined) this.onNotification(message);
      }
    });
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = String(++this.nextId);
    const answered = new Promise<Message>((resolve) => this.pending.set(id, resolve));
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return withTimeout(answered, 30_000, `${this.name} did not answer ${method}`);
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

interface RoundTrips {
  perSecond: number;
  p50Us: number;
  p99Us: number;
}

/**
 * Round trips with one request in flight, through `a` and `b` in turn: `rounds` slices of
 * `measureMs / rounds` each, alternating, so drift in a shared machine's speed hits both alike.
 */
async function alternatedRoundTrips(
  peers: [NdjsonPeer, NdjsonPeer],
  method: string,
  params: unknown,
  plan: typeof FULL,
): Promise<[RoundTrips, RoundTrips]> {
  for (const peer of peers) {
    const warmEnd = performance.now() + plan.warmupMs;
    while (performance.now() < warmEnd) await peer.request(method, params);
  }
  const figures = peers.map(() => ({ samples: new Samples(), seconds: 0 }));
  for (let round = 0; round < plan.rounds; round++) {
    for (const [i, peer] of peers.entries()) {
      const figure = figures[i] as (typeof figures)[number];
      const started = performance.now();
      const end = started + plan.measureMs / plan.rounds;
      for (let now = started; now < end; ) {
        await peer.request(method, params);
        const after = performance.now();
        figure.samples.push((after - now) * 1000);
        now = after;
      }
      figure.seconds += (performance.now() - started) / 1000;
    }
  }
  const [a, b] = figures.map(({ samples, seconds }) => {
    const [p50Us, p99Us] = samples.percentiles([50, 99]) as [number, number];
    return { perSecond: samples.length / seconds, p50Us, p99Us };
  }) as [RoundTrips, RoundTrips];
  return [a, b];
}

function spawnPeer(name: string, args: string[], cwd: string): NdjsonPeer {
  return new NdjsonPeer(name, spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] }));
}

/** `run.start` → first `agent.event` of that run, over `runs` runs that each go to their end. */
async function firstEventTimes(runtime: NdjsonPeer, runs: number, progress: (line: string) => void): Promise<Samples> {
  const samples = new Samples();
  for (let i = 0; i < runs; i++) {
    let sentAt = 0;
    let runId = '';
    let first = 0;
    const ended = new Promise<void>((resolve) => {
      runtime.onNotification = (message) => {
        if (message.params?.run_id !== runId) return;
        if (message.method === 'agent.event' && first === 0) first = performance.now();
        if (
          message.method === 'run.status' &&
          ['completed', 'error', 'cancelled'].includes(String(message.params?.status))
        ) {
          resolve();
        }
      };
    });
    sentAt = performance.now();
    const started = await runtime.request('run.start', {
      input: { type: 'text', text: 'Two adults for Orbital Drift tomorrow evening in IMAX, seats together' },
    });
    runId = String((started.result as { run_id: string }).run_id);
    await withTimeout(ended, 60_000, `run ${i + 1} did not end`);
    if (first === 0) throw new Error(`run ${i + 1} ended without an agent.event`);
    samples.push((first - sentAt) * 1000);
    if ((i + 1) % 5 === 0) progress(`run ${i + 1} of ${runs}`);
  }
  return samples;
}

async function runStdioBench(options: SuiteOptions): Promise<Table[]> {
  const plan = options.quick ? QUICK : FULL;
  const work = mkdtempSync(join(tmpdir(), 'usher-bench-stdio-'));
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  const forgetWork = atExit(removeWork);
  const bin = join(options.root, 'packages/cli/bin/usher.js');
  let relay: RunningChild | null = null;
  const peers: NdjsonPeer[] = [];
  try {
    relay = await startNodeChild({
      name: 'usher relay',
      args: [bin, 'serve', '--port', '0', '--headless-host', '--logs', join(work, 'study')],
      cwd: options.root,
      portPattern: LISTENING,
    });
    const runtime = spawnPeer(
      'usher runtime',
      [bin, 'runtime', '--stdio', '--url', `ws://127.0.0.1:${relay.port}`, '--sessions', join(work, 'sessions')],
      work,
    );
    peers.push(runtime);
    const echo = spawnPeer('echo', ['--import', 'tsx', join(options.root, 'bench/stdio-echo.ts')], options.root);
    peers.push(echo);

    const figures: { label: string; runtime: RoundTrips; echo: RoundTrips }[] = [];
    for (const [label, method, params] of [
      ['initialize', 'initialize', INIT_PARAMS],
      ['ui.context.update (no-op)', 'ui.context.update', { cwd: work }],
    ] as const) {
      options.progress(`${method}: runtime and echo in turn`);
      const [viaRuntime, viaEcho] = await alternatedRoundTrips([runtime, echo], method, params, plan);
      figures.push({ label, runtime: viaRuntime, echo: viaEcho });
    }

    options.progress(`run.start → first agent.event, ${plan.runs} runs`);
    const first = await firstEventTimes(runtime, plan.runs, options.progress);
    const [p50, p99] = first.percentiles([50, 99]) as [number, number];

    const ms = (us: number) => num(us / 1000, 1);
    return [
      {
        title: 'stdio round trips, one request in flight: usher runtime --stdio vs a bare NDJSON echo process',
        columns: ['request', 'runtime /s', 'echo /s', 'ratio', 'runtime p50 / p99 µs', 'echo p50 / p99 µs'],
        rows: figures.map(({ label, runtime: r, echo: e }) => [
          label,
          num(r.perSecond),
          num(e.perSecond),
          `${num(r.perSecond / e.perSecond, 2)}×`,
          `${num(r.p50Us)} / ${num(r.p99Us)}`,
          `${num(e.p50Us)} / ${num(e.p99Us)}`,
        ]),
        notes: [
          'The echo parses each line and answers with its id; the runtime also checks the envelope and params with zod and goes through json-rpc-2.0.',
        ],
      },
      {
        title: `run.start → first agent.event, ${first.length} runs on a headless host through the relay`,
        columns: ['', 'p50 ms', 'p99 ms'],
        rows: [['time to first event', ms(p50), ms(p99)]],
        notes: [
          'Each run books (so the next starts on a fresh host); the first run also joins the room and starts the study session.',
        ],
      },
    ];
  } finally {
    await Promise.all(peers.map((peer) => peer.close()));
    await relay?.stop();
    removeWork();
    forgetWork();
  }
}

export const stdioSuite: Suite = {
  name: 'stdio: the JSON-RPC runtime for terminal UIs',
  run: runStdioBench,
};
