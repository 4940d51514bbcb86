import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from '@usher/agent';
import { feasibleOptions, loadSuite, minimumToolCalls, runSuite, totalsOf } from '@usher/agent/suite';
import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import { defaultScenario } from '@usher/booking';
import { bookThrough, TestClient } from '@usher/server/testing';
import { localHost } from '../packages/harness/src/local-host.ts';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';
import { procCpuSeconds } from './lib/proc.ts';
import { Samples } from './lib/stats.ts';
import type { Suite, SuiteOptions, Table } from './lib/suite.ts';
import { num } from './lib/table.ts';

/*
 * Full booking episodes against the headless host over the real relay: the agent (in this
 * process) books one participant's wish from a fresh study session to `session.end`, against a
 * scripted booking that makes the fewest tool calls, over the same relay in the same run. Then
 * the scenario suite, for how often the agent books what was asked and how many calls it spends.
 */

const FULL = { warmup: 5, episodes: 200 };
const QUICK = { warmup: 2, episodes: 20 };

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
const ROOM = 'default';
/** The wish of every timed episode: a booking the default scenario can meet, 2 seats and 2 adults like the script's. */
const STORY = ORBITAL_IMAX_PAIR;

/** What one kind of episode gave over the measured run. */
export interface EpisodeFigures {
  episodes: number;
  /** Episodes that ended with a booking. */
  booked: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  toolCallsPerEpisode: number;
  /** CPU of this process (the agent or the script, with its socket) per episode, in ms. */
  clientCpuMs: number;
  /** CPU of the relay + headless host process per episode, in ms. */
  serverCpuMs: number;
}

export interface AgentBenchResults {
  agent: EpisodeFigures;
  scripted: EpisodeFigures;
  /** The fewest tool calls that book the story (the suite's optimum). */
  minimumToolCalls: number;
  suite: ReturnType<typeof totalsOf> & { seconds: number; failed: string[] };
}

interface Tally {
  times: Samples;
  booked: number;
  toolCalls: number;
  clientCpu: number;
  serverCpu: number;
  seconds: number;
}

const tally = (): Tally => ({ times: new Samples(), booked: 0, toolCalls: 0, clientCpu: 0, serverCpu: 0, seconds: 0 });

function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** One episode of the agent: joins, starts a study session, books the story's wish, ends the session. */
async function agentEpisode(url: string, n: number): Promise<{ booked: boolean; toolCalls: number }> {
  const agent = new Agent({
    url,
    room: ROOM,
    study: 'bench',
    participant: `P${n}`,
    mode: 'autopilot',
    goal: STORY.text,
    returnWhenBlocked: true,
    endSessionWhenDone: true,
  });
  const result = await agent.run();
  return { booked: result.status === 'done', toolCalls: result.toolCalls };
}

/** One scripted episode: the same study session, booked with the fewest tool calls (`bookThrough`). */
async function scriptedEpisode(url: string, n: number): Promise<{ booked: boolean; toolCalls: number }> {
  const client = await TestClient.join(url, 'agent', ROOM);
  let toolCalls = 0;
  const request = client.request.bind(client);
  client.request = (type, payload, id) => {
    if (type === 'tool.call') toolCalls += 1;
    return request(type, payload, id);
  };
  try {
    await client.request('session.start', { studyId: 'bench', participantId: `P${n}` });
    // bookThrough returns once the confirm stage's next has submitted the booking.
    await bookThrough(client);
    const ended = await client.request('session.end', { reason: 'booking-complete' });
    return { booked: ended.type === 'session.ended', toolCalls };
  } finally {
    client.ws.close();
  }
}

/** Runs `episode` once, adding its time and the CPU both processes spent to `into` when measuring. */
async function timed(
  episode: () => Promise<{ booked: boolean; toolCalls: number }>,
  serverPid: number,
  into: Tally | null,
): Promise<void> {
  const client = cpuSeconds();
  const server = procCpuSeconds(serverPid);
  const started = performance.now();
  const { booked, toolCalls } = await episode();
  const ms = performance.now() - started;
  if (!into) return;
  into.times.push(ms);
  into.seconds += ms / 1000;
  into.booked += booked ? 1 : 0;
  into.toolCalls += toolCalls;
  into.clientCpu += cpuSeconds() - client;
  into.serverCpu += procCpuSeconds(serverPid) - server;
}

function figures(t: Tally, episodes: number): EpisodeFigures {
  const [p50, p99] = t.times.percentiles([50, 99]);
  return {
    episodes,
    booked: t.booked,
    seconds: t.seconds,
    p50Ms: p50 as number,
    p99Ms: p99 as number,
    toolCallsPerEpisode: t.toolCalls / episodes,
    clientCpuMs: (t.clientCpu * 1000) / episodes,
    serverCpuMs: (t.serverCpu * 1000) / episodes,
  };
}

/**
 * `usher serve --headless-host` in its own process; agent and scripted episodes take turns on its
 * room (one at a time: the host serves one study session), then the scenario suite runs.
 */
export async function runAgentBench(options: SuiteOptions): Promise<AgentBenchResults> {
  const plan = options.quick ? QUICK : FULL;
  const logsDir = mkdtempSync(join(tmpdir(), 'usher-bench-agent-'));
  const removeLogs = () => rmSync(logsDir, { recursive: true, force: true });
  const forgetLogs = atExit(removeLogs);
  let child: RunningChild | null = null;
  try {
    child = await startNodeChild({
      name: 'usher serve --headless-host',
      args: ['packages/cli/bin/usher.js', 'serve', '--port', '0', '--headless-host', '--room', ROOM, '--logs', logsDir],
      cwd: options.root,
      portPattern: LISTENING,
    });
    const url = `http://127.0.0.1:${child.port}`;
    const pid = child.pid;
    options.progress(`warming up: ${plan.warmup} episodes of each`);
    for (let n = 0; n < plan.warmup; n++) {
      await timed(() => agentEpisode(url, n), pid, null);
      await timed(() => scriptedEpisode(url, n), pid, null);
    }
    options.progress(`${plan.episodes} agent episodes and ${plan.episodes} scripted ones, taking turns`);
    const agent = tally();
    const scripted = tally();
    for (let n = 0; n < plan.episodes; n++) {
      await timed(() => agentEpisode(url, n), pid, agent);
      await timed(() => scriptedEpisode(url, n), pid, scripted);
    }
    const world = defaultScenario();
    const minimum = Math.min(...feasibleOptions(world, STORY).map((o) => minimumToolCalls(o.booking)));

    options.progress('the scenario suite');
    const suite = await runScenarioSuite(logsDir);
    return {
      agent: figures(agent, plan.episodes),
      scripted: figures(scripted, plan.episodes),
      minimumToolCalls: minimum,
      suite,
    };
  } finally {
    await child?.stop();
    removeLogs();
    forgetLogs();
  }
}

/**
 * Every suite scenario, each on a relay + headless host of its world started in this process: the
 * judge reads the booking the host holds, which never goes on the wire.
 */
async function runScenarioSuite(logsDir: string): Promise<AgentBenchResults['suite']> {
  const startHost = localHost(logsDir);
  const started = performance.now();
  const reports = await runSuite(loadSuite(), startHost);
  return {
    ...totalsOf(reports),
    seconds: (performance.now() - started) / 1000,
    failed: reports.filter((r) => !r.passed).map((r) => r.file),
  };
}

const times = (x: number) => `${num(x, 2)}×`;
const share = (part: number, whole: number) => `${part}/${whole} (${num((100 * part) / whole)} %)`;

export function agentTables(r: AgentBenchResults): Table[] {
  const { agent, scripted } = r;
  const perSecond = (f: EpisodeFigures) => f.episodes / f.seconds;
  const episodes: Table = {
    title: `Full episodes over the relay, 1 room, one at a time: "${STORY.text}"`,
    columns: ['', 'agent', 'scripted', 'agent/scripted'],
    rows: [
      [
        'episodes per second',
        num(perSecond(agent), 1),
        num(perSecond(scripted), 1),
        times(perSecond(agent) / perSecond(scripted)),
      ],
      ['episode p50 (ms)', num(agent.p50Ms, 1), num(scripted.p50Ms, 1), times(agent.p50Ms / scripted.p50Ms)],
      ['episode p99 (ms)', num(agent.p99Ms, 1), num(scripted.p99Ms, 1), times(agent.p99Ms / scripted.p99Ms)],
      [
        'tool calls per episode',
        num(agent.toolCallsPerEpisode, 1),
        num(scripted.toolCallsPerEpisode, 1),
        times(agent.toolCallsPerEpisode / scripted.toolCallsPerEpisode),
      ],
      ['  minimum (suite optimum)', String(r.minimumToolCalls), String(r.minimumToolCalls), ''],
      [
        'CPU per episode, this process (ms)',
        num(agent.clientCpuMs, 1),
        num(scripted.clientCpuMs, 1),
        times(agent.clientCpuMs / scripted.clientCpuMs),
      ],
      [
        'CPU per episode, relay + host (ms)',
        num(agent.serverCpuMs, 1),
        num(scripted.serverCpuMs, 1),
        times(agent.serverCpuMs / scripted.serverCpuMs),
      ],
      ['episodes that booked', `${agent.booked}/${agent.episodes}`, `${scripted.booked}/${scripted.episodes}`, ''],
    ],
    notes: [
      'An episode: join the room, session.start, book, session.end (the log flushed, the host reset).',
      'scripted: bookThrough (@usher/server/testing): the first option on each stage, no planning, the same 14 tool calls (and a snapshot.get after each choice).',
      `tool calls: the agent's against the fewest that book the story (${r.minimumToolCalls}: select + next on four stages, 2 seats + next, 1 ticket type + next, submit).`,
    ],
  };
  const s = r.suite;
  const suite: Table = {
    title: `Scenario suite: the ${s.scenarios} stories of packages/agent/suite (autopilot, a relay + headless host each)`,
    columns: ['', 'figure'],
    rows: [
      ['passed', share(s.passed, s.scenarios)],
      ['book: every hard wish met', share(s.satisfied, s.book)],
      ['book: best by the soft wishes', share(s.best, s.withPreferences)],
      ['blocked: stopped and said why', share(s.blockedOk, s.blocked)],
      [
        'tool calls on bookings / minimum',
        `${s.toolCalls} / ${s.minimumToolCalls} (${times(s.toolCalls / s.minimumToolCalls)})`,
      ],
      ['tool calls spent when blocked', String(s.blockedToolCalls)],
      ['wall time (s)', num(s.seconds, 1)],
    ],
    notes: s.failed.length > 0 ? [`failed: ${s.failed.join(', ')}`] : [],
  };
  return [episodes, suite];
}

export const agentSuite: Suite = {
  name: 'Agent: full booking episodes against the headless host, and the scenario suite',
  run: async (options) => agentTables(await runAgentBench(options)),
};
