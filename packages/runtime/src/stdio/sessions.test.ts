import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import { checkBooking, defaultScenario } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RuntimeProcess, spawnRuntime, tempDir } from './testing/runtime-process.ts';

/* Sessions: persisted as JSONL, listed, replayed with limits, resumed after a restart of the runtime. */

let runtimes: RuntimeProcess[] = [];
function start(args: string[], cwd?: string): RuntimeProcess {
  const runtime = spawnRuntime(args, cwd ? { cwd } : {});
  runtimes.push(runtime);
  return runtime;
}

afterEach(() => {
  for (const runtime of runtimes) expect(runtime.impure, 'stdout lines that are not JSON-RPC').toEqual([]);
  runtimes = [];
});

const replayed = (runtime: RuntimeProcess, after: number) =>
  runtime.lines
    .slice(after)
    .filter((l) => l.method === 'agent.event')
    .map((l) => l.params);

describe('sessions across a restart', () => {
  it('lists, replays and resumes a session after the runtime restarts, keeping the wishes', async () => {
    const scenario = defaultScenario();
    const server = await startTestRelay({ headlessHost: true, scenario });
    const cwd = tempDir();
    const sessions = join(cwd, 'sessions');

    const first = start(['--url', server.url, '--sessions', sessions], cwd);
    await first.initialize();
    const started = await first.request('run.start', { input: { type: 'text', text: ORBITAL_IMAX_PAIR.text } });
    const runId = String(started.result?.run_id);
    const sessionId = String(started.result?.session_id);
    expect((await first.runEnd(runId)).params?.status).toBe('completed');
    const live = first
      .notificationsOf(runId)
      .filter((l) => l.method === 'agent.event')
      .map((l) => l.params);
    expect(await first.close()).toBe(0);

    // The file holds the run's input, every event, its end and the wishes, one record a line.
    const records = readFileSync(join(sessions, `${sessionId}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(records.map((r) => r.type)).toEqual(['session', 'run', ...live.map(() => 'event'), 'model', 'status']);

    const second = start(['--url', server.url, '--sessions', sessions], cwd);
    await second.initialize();
    const list = await second.request('session.list', {});
    expect(list.result?.sessions).toEqual([
      {
        session_id: sessionId,
        updated_at: expect.any(String),
        run_id: runId,
        message_count: 1,
        last_user_message: ORBITAL_IMAX_PAIR.text,
      },
    ]);

    const mark = second.lines.length;
    const history = await second.request('session.history', { session_id: sessionId });
    expect(history.result).toEqual({ runs: 1, events_sent: live.length + 1 });
    expect(replayed(second, mark)).toEqual([
      { run_id: runId, seq: -1, event: { type: 'hidden_user_message', content: ORBITAL_IMAX_PAIR.text } },
      ...live,
    ]);
    // The replay is sent before the answer.
    expect(second.lines.at(-1)).toBe(history);

    // "Again" names no wish: only the session's stored wishes make it a booking.
    const resumed = await second.request('run.start', {
      input: { type: 'text', text: 'the same again please' },
      session_id: sessionId,
    });
    expect(resumed.result?.session_id).toBe(sessionId);
    expect((await second.runEnd(String(resumed.result?.run_id))).params?.status).toBe('completed');
    const bookings = server.headlessHost?.bookings ?? [];
    expect(bookings).toHaveLength(2);
    expect(checkBooking(scenario, bookings[1] as never, ORBITAL_IMAX_PAIR).hard.every((h) => h.ok)).toBe(true);

    // The same words in a new session know no wishes, and book nothing.
    const fresh = await second.request('run.start', { input: { type: 'text', text: 'the same again please' } });
    const freshEnd = await second.runEnd(String(fresh.result?.run_id));
    expect(freshEnd.params?.message).toMatch(/could not tell what to book/);
    expect(server.headlessHost?.bookings).toHaveLength(2);
    expect((await second.request('session.list', { limit: 1 })).result?.sessions).toHaveLength(1);
    expect((await second.request('session.list', {})).result?.sessions).toHaveLength(2);
  }, 90_000);
});

/** A session file written as the runtime writes them: `runs` runs of `events` events each. */
function writeSession(dir: string, id: string, runs: number, events: number, extraLines: string[] = []): void {
  mkdirSync(dir, { recursive: true });
  const at = '2026-11-21T10:00:00.000Z';
  const lines: unknown[] = [{ type: 'session', session_id: id, created_at: at, format: 1 }];
  for (let r = 0; r < runs; r++) {
    lines.push({ type: 'run', run_id: `r${r}`, input: { type: 'text', text: `instruction ${r}` }, at });
    for (let seq = 0; seq < events; seq++) {
      lines.push({
        type: 'event',
        run_id: `r${r}`,
        seq,
        event: { type: 'text', content: `r${r} e${seq}`, timestamp: 1 },
      });
    }
    lines.push({ type: 'status', run_id: `r${r}`, status: 'completed', message: 'done', at });
  }
  writeFileSync(join(dir, `${id}.jsonl`), `${[...lines.map((l) => JSON.stringify(l)), ...extraLines].join('\n')}\n`);
}

describe('session.history', () => {
  async function history(params: Record<string, unknown>) {
    const cwd = tempDir();
    writeSession(join(cwd, 'logs/runtime'), 'sess-a', 3, 5, ['{"type":"event","run_id":"r2","seq":', 'not json']);
    const runtime = start([], cwd);
    const mark = runtime.lines.length;
    const response = await runtime.request('session.history', { session_id: 'sess-a', ...params });
    const events = replayed(runtime, mark).map((p) => `${p?.run_id}:${p?.seq}`);
    return { result: response.result, error: response.error, events, runtime };
  }

  it('replays every run with its input first when the limits allow, skipping unreadable lines', async () => {
    const { result, events } = await history({});
    expect(result).toEqual({ runs: 3, events_sent: 18 });
    expect(events.slice(0, 7)).toEqual(['r0:-1', 'r0:0', 'r0:1', 'r0:2', 'r0:3', 'r0:4', 'r1:-1']);
    expect(events).toHaveLength(18);
  });

  it('keeps the newest runs within max_runs', async () => {
    const { result, events } = await history({ max_runs: 2 });
    expect(result).toEqual({ runs: 2, events_sent: 12, truncated: true });
    expect(events[0]).toBe('r1:-1');
  });

  it('keeps the newest events within max_events, the oldest run kept keeping its input and latest events', async () => {
    const { result, events } = await history({ max_events: 8 });
    expect(result).toEqual({ runs: 2, events_sent: 8, truncated: true });
    expect(events).toEqual(['r1:-1', 'r1:4', 'r2:-1', 'r2:0', 'r2:1', 'r2:2', 'r2:3', 'r2:4']);
  });

  it('sends nothing for max_runs 0, and refuses an unknown session or a bad limit with -32602', async () => {
    const { result, events, runtime } = await history({ max_runs: 0 });
    expect(result).toEqual({ runs: 0, events_sent: 0, truncated: true });
    expect(events).toEqual([]);
    const unknown = await runtime.request('session.history', { session_id: 'sess-b' });
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/sess-b/) });
    const bad = await runtime.request('session.history', { session_id: 'sess-a', max_events: 1.5 });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/max_events/) });
  });
});

describe('an interrupted run', () => {
  it('is closed as an error when its session is resumed, so every run has one end', async () => {
    const cwd = tempDir();
    const dir = join(cwd, 'logs/runtime');
    writeSession(dir, 'sess-c', 1, 2);
    const at = '2026-11-21T10:00:00.000Z';
    writeFileSync(
      join(dir, 'sess-c.jsonl'),
      `${readFileSync(join(dir, 'sess-c.jsonl'), 'utf8')}${JSON.stringify({ type: 'run', run_id: 'r9', input: { type: 'text', text: 'killed' }, at })}\n`,
    );
    const runtime = start(['--url', 'ws://127.0.0.1:9'], cwd);
    const started = await runtime.request('run.start', { input: { type: 'text', text: 'next' }, session_id: 'sess-c' });
    await runtime.runEnd(String(started.result?.run_id));
    const statuses = readFileSync(join(dir, 'sess-c.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; run_id?: string; status?: string })
      .filter((r) => r.type === 'status');
    expect(statuses.map((r) => [r.run_id, r.status])).toEqual([
      ['r0', 'completed'],
      ['r9', 'error'],
      [String(started.result?.run_id), 'error'],
    ]);
  });

  it('leaves a last line cut short behind, so the next run of the session is kept', async () => {
    const cwd = tempDir();
    const dir = join(cwd, 'logs/runtime');
    writeSession(dir, 'sess-d', 1, 2);
    // The runtime was killed while writing the wishes after run r0: no "\n" at the end.
    writeFileSync(
      join(dir, 'sess-d.jsonl'),
      `${readFileSync(join(dir, 'sess-d.jsonl'), 'utf8')}{"type":"model","model":{"hard":[`,
    );
    const runtime = start(['--url', 'ws://127.0.0.1:9'], cwd);
    const started = await runtime.request('run.start', { input: { type: 'text', text: 'next' }, session_id: 'sess-d' });
    const runId = String(started.result?.run_id);
    await runtime.runEnd(runId);
    const mark = runtime.lines.length;
    const history = await runtime.request('session.history', { session_id: 'sess-d' });
    expect(history.result).toMatchObject({ runs: 2 });
    expect(replayed(runtime, mark).filter((p) => p?.seq === -1)).toEqual([
      { run_id: 'r0', seq: -1, event: { type: 'hidden_user_message', content: 'instruction 0' } },
      { run_id: runId, seq: -1, event: { type: 'hidden_user_message', content: 'next' } },
    ]);
  });
});
