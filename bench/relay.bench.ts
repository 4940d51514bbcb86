import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';
import { dirBytes, procCpuSeconds, procMemory } from './lib/proc.ts';
import { Samples } from './lib/stats.ts';
import type { Suite, SuiteOptions } from './lib/suite.ts';
import type { LoadFigures, LoadPlan } from './load.ts';
import { type BenchFrames, buildFrames, frameSizes } from './payloads.ts';
import { relayTables } from './relay.report.ts';
import { runRooms, type Target } from './rooms.ts';

const ROOMS = 100;
/** tool.call, tool.result and state.updated: the frames the relay receives per round trip. */
const FRAMES_PER_ROUND_TRIP = 3;

/**
 * The relay and the two forwarders are measured in alternating slices (relay, baseline, same
 * duties, same duties, baseline, relay, …), each after a short warm-up, so all see the same load from the rest of the machine
 * (the load generator shares its 2 cores with them, and other work may come and go).
 */
const FULL = {
  warmupMs: 1000,
  sliceWarmupMs: 300,
  slices: 4,
  oneRoomMs: 1000,
  manyRoomsMs: 1250,
  memoryFrames: 1_000_000,
};
const QUICK = { warmupMs: 300, sliceWarmupMs: 200, slices: 2, oneRoomMs: 500, manyRoomsMs: 500, memoryFrames: 100_000 };

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

export interface Phase extends LoadFigures {
  /** CPU seconds the server process used per second of measurement (1 = one core busy). */
  serverCores: number;
  /** The same for this process, the load generator (fake hosts and agents). */
  loadCores: number;
  /** Log bytes written per second of measurement; 0 for the bare forwarder. */
  logBytesPerSecond: number;
}

export interface RssSample {
  label: string;
  frames: number;
  rssKiB: number;
}

/** One phase measured on the relay and on both forwarders, in alternating slices. */
export interface Compared {
  relay: Phase;
  /** The bare forwarder. */
  baseline: Phase;
  /** The forwarder with the relay's duties: a JSON check and a synchronous line to a file before each forward. */
  sameDuties: Phase;
}

export interface RelayBenchResults {
  frameSizes: ReturnType<typeof frameSizes>;
  oneRoom: Compared;
  manyRooms: Compared & { rooms: number };
  /** The long run: `frames` received by the relay, its RSS at each quarter, and its peak RSS. */
  memory: { run: Phase; frames: number; rss: RssSample[]; peakKiB: number };
}

/** A server under test: the relay or the same-duties forwarder (each with its logs folder), or the bare forwarder. */
interface Server {
  target: Target;
  child: RunningChild;
  logsDir?: string;
}

/**
 * Tool round trips through the real relay (its own process, study logging on) against a bare
 * `ws` forwarder and a forwarder with the relay's duties (a JSON check and a logged line per
 * frame), carrying the same frames; then a long run that watches the relay's memory.
 */
export async function runRelayBench(options: SuiteOptions): Promise<RelayBenchResults> {
  const plan = options.quick ? QUICK : FULL;
  const frames = buildFrames();
  const logsDir = mkdtempSync(join(tmpdir(), 'usher-bench-logs-'));
  const dutiesDir = mkdtempSync(join(tmpdir(), 'usher-bench-duties-'));
  const removeLogs = () => {
    rmSync(logsDir, { recursive: true, force: true });
    rmSync(dutiesDir, { recursive: true, force: true });
  };
  const forgetLogs = atExit(removeLogs);
  const children: RunningChild[] = [];
  try {
    const relayChild = await startRelay(options.root, logsDir);
    children.push(relayChild);
    const forwarderChild = await startNodeChild({
      name: 'bench forwarder',
      args: ['--import', 'tsx', 'bench/forwarder.ts'],
      cwd: options.root,
      portPattern: LISTENING,
    });
    children.push(forwarderChild);
    const dutiesChild = await startNodeChild({
      name: 'bench forwarder, same duties',
      args: ['--import', 'tsx', 'bench/forwarder.ts', '--same-duties', dutiesDir],
      cwd: options.root,
      portPattern: LISTENING,
    });
    children.push(dutiesChild);
    const servers: Record<keyof Compared, Server> = {
      relay: { target: { kind: 'relay', port: relayChild.port }, child: relayChild, logsDir },
      baseline: { target: { kind: 'forwarder', port: forwarderChild.port }, child: forwarderChild },
      sameDuties: { target: { kind: 'forwarder', port: dutiesChild.port }, child: dutiesChild, logsDir: dutiesDir },
    };
    const relay = servers.relay;
    // Warms every server's code and sockets before the first slice counts.
    options.progress('warm-up');
    for (const server of Object.values(servers)) {
      await phase(server, ROOMS, frames, { warmupMs: plan.warmupMs, measure: { ms: plan.warmupMs } });
    }
    const sliced = async (rooms: number, ms: number): Promise<Compared> => {
      options.progress(
        `relay, baseline and same duties, ${rooms} room${rooms === 1 ? '' : 's'}, ${plan.slices} slices each`,
      );
      const slices: Record<keyof Compared, Phase[]> = { relay: [], baseline: [], sameDuties: [] };
      const forward = ['relay', 'baseline', 'sameDuties'] as const;
      for (let i = 0; i < plan.slices; i++) {
        // Forward then backward, so no server always follows the same one.
        for (const which of i % 2 === 0 ? forward : [...forward].reverse()) {
          slices[which].push(
            await phase(servers[which], rooms, frames, { warmupMs: plan.sliceWarmupMs, measure: { ms } }),
          );
        }
      }
      return { relay: merged(slices.relay), baseline: merged(slices.baseline), sameDuties: merged(slices.sameDuties) };
    };
    const one = await sliced(1, plan.oneRoomMs);
    const many = await sliced(ROOMS, plan.manyRoomsMs);
    options.progress(`relay memory, ${ROOMS} rooms, ${plan.memoryFrames.toLocaleString('en-US')} frames`);
    const memory = await memoryRun(relay, frames, plan.warmupMs, plan.memoryFrames);

    return {
      frameSizes: frameSizes(frames),
      oneRoom: one,
      manyRooms: { rooms: ROOMS, ...many },
      memory: { ...memory, peakKiB: procMemory(relayChild.pid).peakKiB },
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    removeLogs();
    forgetLogs();
  }
}

/** `usher serve` from source, without a headless host: the bench's fake hosts stand in for it. */
function startRelay(root: string, logsDir: string): Promise<RunningChild> {
  // BENCH_RELAY_PROF=<dir> profiles the relay process (`node --cpu-prof`); the profile is written when it stops.
  const profDir = process.env.BENCH_RELAY_PROF;
  const profile = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [];
  return startNodeChild({
    name: 'usher relay',
    // Every fake peer connects from 127.0.0.1: the per-address cap is lifted for the bench alone.
    args: [
      ...profile,
      'packages/cli/bin/usher.js',
      'serve',
      '--port',
      '0',
      '--logs',
      logsDir,
      '--limit',
      'maxConnectionsPerAddress=10000',
    ],
    cwd: root,
    portPattern: LISTENING,
  });
}

/** Runs `plan` on `server` and measures, over the same window, CPU use and study-log bytes written. */
async function phase(server: Server, rooms: number, frames: BenchFrames, plan: LoadPlan): Promise<Phase> {
  const { pid } = server.child;
  const { logsDir } = server;
  const logBytes = () => (logsDir ? dirBytes(logsDir) : 0);
  const start = { server: 0, load: 0, log: 0 };
  const end = { ...start };
  const figures = await runRooms(server.target, rooms, frames, {
    ...plan,
    onStart: () => {
      plan.onStart?.();
      Object.assign(start, { server: procCpuSeconds(pid), load: loadCpuSeconds(), log: logBytes() });
    },
    onEnd: () => {
      Object.assign(end, { server: procCpuSeconds(pid), load: loadCpuSeconds(), log: logBytes() });
      plan.onEnd?.();
    },
  });
  const per = (a: number, b: number) => (b - a) / figures.seconds;
  return {
    ...figures,
    serverCores: per(start.server, end.server),
    loadCores: per(start.load, end.load),
    logBytesPerSecond: per(start.log, end.log),
  };
}

/** Slices of one phase as one: counts and seconds added, rates weighted by time, percentiles over every round trip. */
function merged(slices: Phase[]): Phase {
  const seconds = slices.reduce((sum, p) => sum + p.seconds, 0);
  const roundTrips = slices.reduce((sum, p) => sum + p.roundTrips, 0);
  const weighted = (pick: (p: Phase) => number) => slices.reduce((sum, p) => sum + pick(p) * p.seconds, 0) / seconds;
  const all = new Samples();
  const settled = new Samples();
  for (const p of slices) {
    for (const latency of p.latenciesUs) all.push(latency);
    for (const latency of p.settledLatenciesUs) settled.push(latency);
  }
  const [p50Us = Number.NaN, p99Us = Number.NaN] = all.percentiles([50, 99]);
  const [settledP50Us = Number.NaN] = settled.percentiles([50]);
  return {
    roundTrips,
    seconds,
    perSecond: roundTrips / seconds,
    p50Us,
    p99Us,
    latenciesUs: all.values(),
    settledP50Us,
    settledLatenciesUs: settled.values(),
    serverCores: weighted((p) => p.serverCores),
    loadCores: weighted((p) => p.loadCores),
    logBytesPerSecond: weighted((p) => p.logBytesPerSecond),
  };
}

function loadCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Round trips through the relay until `totalFrames` frames have reached it, sampling its RSS at each quarter. */
async function memoryRun(
  relay: Server,
  frames: BenchFrames,
  warmupMs: number,
  totalFrames: number,
): Promise<{ run: Phase; frames: number; rss: RssSample[] }> {
  const roundTrips = Math.ceil(totalFrames / FRAMES_PER_ROUND_TRIP);
  const rss: RssSample[] = [];
  const sample = (label: string, done: number) =>
    rss.push({ label, frames: done * FRAMES_PER_ROUND_TRIP, rssKiB: procMemory(relay.child.pid).rssKiB });
  const quarters = [1, 2, 3].map((q) => Math.round((roundTrips * q) / 4));
  const run = await phase(relay, ROOMS, frames, {
    warmupMs,
    measure: { roundTrips },
    onStart: () => sample('start', 0),
    onEnd: () => sample('end', roundTrips),
    checkpoints: { at: quarters, reached: (done) => sample(`${25 * (quarters.indexOf(done) + 1)}%`, done) },
  });
  return { run, frames: run.roundTrips * FRAMES_PER_ROUND_TRIP, rss };
}

export const relaySuite: Suite = {
  name: 'Relay: tool.call → tool.result through the Usher relay vs a bare ws forwarder and one with the same duties',
  run: async (options) => relayTables(await runRelayBench(options)),
};
