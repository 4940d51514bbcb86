import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import type { JournalRecord } from '@usher/orchestrator';
import { type Conversation, HostRunEngine } from '@usher/runtime';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';
import { Samples } from './lib/stats.ts';
import type { Suite, SuiteOptions, Table } from './lib/suite.ts';
import { num } from './lib/table.ts';
import { sleep, withTimeout } from './lib/waits.ts';

const FULL = { warmup: 3, measured: 40 };
const QUICK = { warmup: 1, measured: 5 };
const TOKEN = 'bench-sync-token';
const INSTRUCTION = ORBITAL_IMAX_PAIR.text;
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

/** Milliseconds from an instruction to the first line of its answer and to its end. */
interface Timings {
  first: Samples;
  done: Samples;
}

export interface SyncBenchResults {
  runs: number;
  sync: Timings;
  direct: Timings;
}

/**
 * One booking instruction at a time, from `chat_message` to the first `message_added` and to
 * `message_completed`, through the real orchestrator process and a real `usher runtime
 * --sync-url` process on a relay with a headless host; then the same instruction run directly on
 * a {@link HostRunEngine} in this process against the same relay: the cost of the sync hop
 * (HTTP, the journal's fsyncs, two WebSocket legs, a process boundary) is the ratio.
 */
export async function runSyncBench(options: SuiteOptions): Promise<SyncBenchResults> {
  const plan = options.quick ? QUICK : FULL;
  const tmp = mkdtempSync(join(tmpdir(), 'usher-bench-sync-'));
  const removeTmp = () => rmSync(tmp, { recursive: true, force: true });
  const forgetTmp = atExit(removeTmp);
  const children: RunningChild[] = [];
  const usher = (name: string, args: string[], portPattern = LISTENING) =>
    startNodeChild({ name, args: ['packages/cli/bin/usher.js', ...args], cwd: options.root, portPattern });
  try {
    const relay = await usher('usher relay', ['serve', '--headless-host', '--port', '0', '--logs', join(tmp, 'study')]);
    children.push(relay);
    const orchestrator = await usher('usher orchestrator', [
      'orchestrator',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--data',
      join(tmp, 'orchestrator'),
    ]);
    children.push(orchestrator);
    const base = `http://127.0.0.1:${orchestrator.port}`;
    // The runtime listens on nothing; it is ready once it says whom it dials.
    const runtime = await usher(
      'usher runtime',
      [
        'runtime',
        '--sync-url',
        `ws://127.0.0.1:${orchestrator.port}/api/v1/external-agents/sync`,
        '--sync-token',
        TOKEN,
        '--url',
        `ws://127.0.0.1:${relay.port}`,
        '--episodes',
        join(tmp, 'episodes'),
      ],
      /dialing ws:\/\/127\.0\.0\.1:(\d+)/,
    );
    children.push(runtime);
    await withTimeout(agentConnected(base), 20_000, 'the runtime did not connect to the orchestrator');

    options.progress(`sync: ${plan.warmup} + ${plan.measured} instructions through the orchestrator`);
    const requests: string[] = [];
    for (let i = 0; i < plan.warmup + plan.measured; i++) {
      const request = await instructThroughOrchestrator(base);
      if (i >= plan.warmup) requests.push(request);
    }
    const sync = timingsFromJournal(join(tmp, 'orchestrator', 'journal.jsonl'), requests);
    await runtime.stop();
    children.splice(children.indexOf(runtime), 1);

    options.progress(`direct: ${plan.warmup} + ${plan.measured} instructions on a RunEngine in this process`);
    const direct = await runDirect(`ws://127.0.0.1:${relay.port}`, join(tmp, 'episodes'), plan);
    return { runs: plan.measured, sync, direct };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    removeTmp();
    forgetTmp();
  }
}

async function json(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${TOKEN}`);
  const response = await fetch(url, { ...init, headers });
  if (!response.ok && response.status !== 202)
    throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function agentConnected(base: string): Promise<void> {
  while (((await json(`${base}/healthz`)).agents as unknown[]).length === 0) await sleep(50);
}

/** A new session, one instruction, and a wait for its end; returns the request id. */
async function instructThroughOrchestrator(base: string): Promise<string> {
  const { session_id } = (await json(`${base}/api/sessions`, { method: 'POST' })) as { session_id: string };
  const sent = await json(`${base}/api/sessions/${session_id}/messages`, {
    method: 'POST',
    body: JSON.stringify({ message: INSTRUCTION }),
  });
  const request = sent.request_id as string;
  return withTimeout(
    (async () => {
      for (;;) {
        // Polled slowly so the reads do not load the orchestrator during the answer; the timings come from its journal.
        await sleep(20);
        const session = (await json(`${base}/api/sessions/${session_id}`)) as {
          interactions: Array<{ request_id: string; state: string; error: string | null }>;
        };
        const interaction = session.interactions.find((i) => i.request_id === request);
        if (interaction?.state === 'complete') return request;
        if (interaction?.state === 'error') throw new Error(`the instruction failed: ${interaction.error}`);
      }
    })(),
    30_000,
    `no answer to ${request} within 30 s`,
  );
}

/**
 * The orchestrator stamps each journal record as it happens: `interaction` when the
 * `chat_message` leaves, the first `response` when the first `message_added` arrives, `complete`
 * on `message_completed` (millisecond clock of one process).
 */
function timingsFromJournal(path: string, requests: string[]): Timings {
  const records = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalRecord);
  const at = (op: JournalRecord['op'], request: string) => {
    const record = records.find((r) => r.op === op && 'request_id' in r && r.request_id === request);
    if (!record) throw new Error(`no ${op} record for ${request}`);
    return Date.parse(record.at);
  };
  const timings: Timings = { first: new Samples(), done: new Samples() };
  for (const request of requests) {
    const sent = at('interaction', request);
    timings.first.push(at('response', request) - sent);
    timings.done.push(at('complete', request) - sent);
  }
  return timings;
}

async function runDirect(
  relayUrl: string,
  episodesDir: string,
  plan: { warmup: number; measured: number },
): Promise<Timings> {
  const engine = new HostRunEngine({ url: relayUrl, room: 'default', study: 'bench', participant: 'B01', episodesDir });
  const timings: Timings = { first: new Samples(), done: new Samples() };
  try {
    for (let i = 0; i < plan.warmup + plan.measured; i++) {
      const conversation: Conversation = { id: `bench-${i}`, model: { hard: [], soft: [] } };
      const started = performance.now();
      let first = Number.NaN;
      const outcome = await engine.run({
        text: INSTRUCTION,
        conversation,
        signal: new AbortController().signal,
        emit: (event) => {
          if (Number.isNaN(first) && (event.type === 'text' || event.type === 'final')) first = performance.now();
        },
      });
      const done = performance.now();
      if (outcome.status !== 'completed' || !outcome.booked) throw new Error(`direct run: ${outcome.message}`);
      if (i < plan.warmup) continue;
      timings.first.push(first - started);
      timings.done.push(done - started);
    }
  } finally {
    await engine.close();
  }
  return timings;
}

function syncTable(r: SyncBenchResults): Table {
  const [syncFirst50, syncFirst99] = r.sync.first.percentiles([50, 99]) as [number, number];
  const [syncDone50, syncDone99] = r.sync.done.percentiles([50, 99]) as [number, number];
  const [directFirst50, directFirst99] = r.direct.first.percentiles([50, 99]) as [number, number];
  const [directDone50, directDone99] = r.direct.done.percentiles([50, 99]) as [number, number];
  const ratio = (a: number, b: number) => `${num(a / b, 2)}×`;
  return {
    title: `Booking instruction → answer, ${r.runs} instructions one at a time (ms)`,
    columns: ['', 'first answer p50', 'p99', 'complete p50', 'p99'],
    rows: [
      [
        'through the orchestrator (chat_message → message_added / message_completed)',
        num(syncFirst50, 1),
        num(syncFirst99, 1),
        num(syncDone50, 1),
        num(syncDone99, 1),
      ],
      [
        'RunEngine direct, same relay (run → first text / settled)',
        num(directFirst50, 1),
        num(directFirst99, 1),
        num(directDone50, 1),
        num(directDone99, 1),
      ],
      [
        '  sync/direct',
        ratio(syncFirst50, directFirst50),
        ratio(syncFirst99, directFirst99),
        ratio(syncDone50, directDone50),
        ratio(syncDone99, directDone99),
      ],
    ],
    notes: [
      'sync timings are the orchestrator journal’s stamps (1 ms resolution), each a new session: context_created included',
      'each instruction books two IMAX seats for Orbital Drift on the headless host, then the study session ends',
    ],
  };
}

export const syncSuite: Suite = {
  name: 'External sync: chat_message → message_added / message_completed through usher orchestrator and usher runtime',
  run: async (options) => [syncTable(await runSyncBench(options))],
};
