import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScenario, type Scenario } from '@usher/booking';
import { checkStep, type StepChecks } from './human/checks.ts';
import { HUMAN_PACE, type HumanPace, type Outcome, participant, Recorder, seeded } from './human/participant.ts';
import { type ServerFigures, ServerWatch } from './human/watch.ts';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';
import type { Samples } from './lib/stats.ts';
import type { Suite, SuiteOptions, Table } from './lib/suite.ts';
import { num } from './lib/table.ts';
import { sleep } from './lib/waits.ts';

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
const STUDY_ID = 'load';
/** The aim: this many participants at once, the agent's first visible action under this p99. */
const TARGET_CONCURRENT = 1000;
const TARGET_VISIBLE_P99_MS = 500;

interface Plan {
  steps: number[];
  pace: HumanPace;
  /** The agent's pause before each tool call (the condition's `paceMs`). */
  agentPaceMs: number;
  /** Participants of a step start spread over this long, then the window is measured. */
  rampMs: number;
  windowMs: number;
}

/** Steps can be set with `BENCH_LOAD_STEPS=100,250` (concurrent participants) and `BENCH_LOAD_WINDOW_S`. */
function planOf(quick: boolean): Plan {
  const steps = process.env.BENCH_LOAD_STEPS?.split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const windowS = Number(process.env.BENCH_LOAD_WINDOW_S);
  if (quick) {
    const pace = Object.fromEntries(Object.entries(HUMAN_PACE).map(([k, v]) => [k, v / 10])) as unknown as HumanPace;
    return { steps: steps ?? [20], pace, agentPaceMs: 80, rampMs: 2000, windowMs: (windowS || 8) * 1000 };
  }
  return {
    steps: steps ?? [100, 250, 500, 1000, 2000],
    pace: HUMAN_PACE,
    agentPaceMs: 800,
    rampMs: 40_000,
    windowMs: (windowS || 60) * 1000,
  };
}

/** `--limit` flags that let `participants` at once in, with room for those who finish and arrive meanwhile. */
function roomLimits(participants: number): string[] {
  const rooms = Math.max(1000, 2 * participants);
  const sockets = Math.max(4000, 4 * rooms);
  // Every participant comes from 127.0.0.1, so the per-address ceiling is the whole one.
  const limits = {
    maxRooms: rooms,
    maxConnections: Math.max(2000, 2 * rooms),
    maxSockets: sockets,
    maxSocketsPerAddress: sockets,
  };
  return Object.entries(limits).flatMap(([name, value]) => ['--limit', `${name}=${value}`]);
}

/** The demo study's first task and questionnaires, with the agent on autopilot in every condition. */
function loadStudy(root: string, agentPaceMs: number): string {
  const demo = readFileSync(join(root, 'studies/demo.study.yaml'), 'utf8');
  // The items the demo shows in some conditions name them; this study has one of them, autopilot.
  const questionnaires = demo
    .slice(demo.indexOf('\nquestionnaires:') + 1)
    .replace(/conditions: \[([^\]]*)\]/g, (list, ids: string) => {
      if (!ids.split(',').some((id) => id.trim() === 'autopilot')) {
        throw new Error(`the demo's questionnaire item for ${list} has no autopilot: the load study must be updated`);
      }
      return 'conditions: [autopilot]';
    });
  const scenario = join(root, 'packages/booking/scenarios/default.json');
  return `id: ${STUDY_ID}
title: Load
consent: Thank you for taking part.
tasks:
  - id: imax-evening
    title: A night out in IMAX
    scenario: ${scenario}
    briefing: Two adults for Orbital Drift tomorrow evening in IMAX, seats together.
    goal: Two adults for Orbital Drift tomorrow evening in IMAX, seats together
    success: { hard: [{ kind: title, is: [Orbital Drift] }, { kind: seatCount, count: 2 }] }
conditions:
  - { id: autopilot, agent: autopilot, paceMs: ${agentPaceMs}, confirmBeforeSubmit: true, pageTools: true, chat: true }
${questionnaires}`;
}

interface StepResult {
  target: number;
  /** Participants at once, averaged over the window (sampled each second). */
  concurrent: number;
  started: number;
  completed: number;
  failed: number;
  failures: string[];
  visible: number[];
  chatLine: number[];
  toolCall: number[];
  ping: number[];
  server: ServerFigures;
  checks: StepChecks;
}

const PERCENTILES = [50, 95, 99];
const ms = (samples: Samples) => samples.percentiles(PERCENTILES).map((us) => us / 1000);

/**
 * One step: `target` participants at once. They start spread over the ramp, each one who finishes
 * is followed by a new one, the window is measured, then nobody new comes and every participant
 * still in the study finishes; then the logs and questionnaires on disk are checked.
 */
async function runStep(
  base: string,
  target: number,
  plan: Plan,
  world: Scenario,
  watch: ServerWatch,
  paths: { logs: string; registry: string },
  progress: (line: string) => void,
): Promise<StepResult> {
  const recorder = new Recorder();
  const random = seeded(target);
  const outcomes: Outcome[] = [];
  let active = 0;
  let started = 0;
  let arriving = true;
  const running = new Set<Promise<void>>();
  const arrive = () => {
    const id = `c${target}-${started++}`;
    active += 1;
    const run = participant(base, STUDY_ID, id, world, plan.pace, random, recorder).then((outcome) => {
      outcomes.push(outcome);
      active -= 1;
      running.delete(run);
      if (arriving) arrive();
    });
    running.add(run);
  };
  progress(`${target} participants: ramp of ${plan.rampMs / 1000} s`);
  for (let i = 0; i < target; i++) {
    arrive();
    await sleep(plan.rampMs / target);
  }
  progress(`${target} participants: measuring ${plan.windowMs / 1000} s`);
  recorder.recording = true;
  watch.begin();
  const concurrency: number[] = [];
  const windowEnd = performance.now() + plan.windowMs;
  while (performance.now() < windowEnd) {
    await sleep(Math.min(1000, windowEnd - performance.now()));
    concurrency.push(active);
  }
  const server = watch.end();
  recorder.recording = false;
  arriving = false;
  progress(`${target} participants: the last ${active} finishing`);
  while (running.size > 0) await Promise.race(running);
  const checks = checkStep(outcomes, recorder, paths.logs, paths.registry, STUDY_ID);
  const failed = outcomes.filter((o) => !o.ok);
  return {
    target,
    concurrent: concurrency.reduce((a, b) => a + b, 0) / Math.max(1, concurrency.length),
    started,
    completed: outcomes.length - failed.length,
    failed: failed.length,
    failures: [...new Set(failed.map((o) => o.failure ?? '?'))].slice(0, 3),
    visible: ms(recorder.visible),
    chatLine: ms(recorder.chatLine),
    toolCall: ms(recorder.toolCall),
    ping: ms(recorder.ping),
    server,
    checks,
  };
}

/** Whether a step broke: a participant failed, something was lost, or the agent took seconds to show. */
function broke(step: StepResult): boolean {
  const lost = step.checks.logsOk < step.checks.logs || step.checks.storedOk < step.checks.questionnaires;
  return step.failed > 0 || lost || !((step.visible[2] ?? Number.NaN) < 10_000);
}

/**
 * Participants at a person's pace (`usher serve --study` in its own process, its agents in it),
 * stepped up in concurrency: the agent's responsiveness, the relay's round trip, the server's
 * CPU, memory, descriptors and event loop, and at the end of each step whether every log and
 * questionnaire is on disk.
 */
async function runLoadBench(options: SuiteOptions): Promise<Table[]> {
  const plan = planOf(options.quick);
  const work = mkdtempSync(join(tmpdir(), 'usher-bench-load-'));
  // BENCH_LOAD_KEEP=1 keeps the study's logs and registry (the folder is printed) for a closer look.
  const keep = process.env.BENCH_LOAD_KEEP === '1';
  const remove = () => (keep ? console.log(`kept ${work}`) : rmSync(work, { recursive: true, force: true }));
  const forget = atExit(remove);
  const studyFile = join(work, 'load.study.yaml');
  writeFileSync(studyFile, loadStudy(options.root, plan.agentPaceMs));
  const world = parseScenario(
    JSON.parse(readFileSync(join(options.root, 'packages/booking/scenarios/default.json'), 'utf8')),
  );
  const paths = { logs: join(work, 'logs'), registry: join(work, 'data', 'registry.sqlite') };
  let server: RunningChild | null = null;
  const steps: StepResult[] = [];
  let watch: ServerWatch | null = null;
  try {
    // BENCH_LOAD_PROF=<dir> profiles the server (`node --cpu-prof`); the profile is written when it stops.
    const profDir = process.env.BENCH_LOAD_PROF;
    server = await startNodeChild({
      name: 'usher study',
      args: [
        ...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []),
        'packages/cli/bin/usher.js',
        'serve',
        '--port',
        '0',
        '--study',
        studyFile,
        '--data',
        join(work, 'data'),
        '--logs',
        paths.logs,
        '--limit',
        'maxConnectionsPerAddress=100000',
        '--limit',
        'admissionsPerMinute=1000000',
        '--limit',
        'maxTasksPerAddress=1000000',
        // The server's own ceilings (1,000 rooms, 2,000 connections, 4,000 sockets) would refuse a
        // step above 1,000 before it measured the server: each is raised to fit the largest step
        // (a room and a page each for those mid-task, those finishing, and those arriving).
        ...roomLimits(Math.max(...plan.steps)),
        // BENCH_LOAD_AGENT_THREADS=0 runs the agents in the server's own thread, as before agent threads.
        ...(process.env.BENCH_LOAD_AGENT_THREADS ? ['--agent-threads', process.env.BENCH_LOAD_AGENT_THREADS] : []),
      ],
      env: { USHER_BENCH_LOOP_STATS_MS: '1000' },
      cwd: options.root,
      portPattern: LISTENING,
      stdout: (text) => watch?.stdout(text),
      stderr: (text) => watch?.stderr(text),
    });
    watch = new ServerWatch(server.pid);
    const base = `http://127.0.0.1:${server.port}`;
    for (const target of plan.steps) {
      const step = await runStep(base, target, plan, world, watch, paths, options.progress);
      steps.push(step);
      options.progress(
        `${target} participants: first visible p99 ${num(step.visible[2] ?? Number.NaN, 0)} ms, server CPU ${num(step.server.cores * 100, 0)}%, loop p99 ${num(step.server.loopP99MaxMs, 0)} ms, ${step.completed} done, ${step.failed} failed`,
      );
      if (broke(step)) {
        options.progress(
          `${target} participants: broke (${step.failures.join('; ') || step.checks.problems.join('; ') || 'p99 over 10 s'}); no larger step`,
        );
        break;
      }
    }
  } finally {
    await server?.stop();
    remove();
    forget();
  }
  return tables(steps, plan);
}

function tables(steps: StepResult[], plan: Plan): Table[] {
  const p = (values: number[]) => values.map((v) => num(v, 0)).join(' / ');
  const at = steps.find((s) => s.target === TARGET_CONCURRENT);
  const visibleP99 = at?.visible[2] ?? Number.NaN;
  const lostAt = at && (at.checks.logsOk < at.checks.logs || at.checks.storedOk < at.checks.questionnaires);
  return [
    {
      title: `Participants at a person's pace (agent pace ${plan.agentPaceMs} ms; window ${plan.windowMs / 1000} s a step): the agent's answer, in ms (p50 / p95 / p99)`,
      columns: ['at once', 'done / failed', 'first visible', 'first chat line', 'first tool call', 'relay ping'],
      rows: steps.map((s) => [
        `${s.target} (${num(s.concurrent, 0)})`,
        `${s.completed} / ${s.failed}`,
        p(s.visible),
        p(s.chatLine),
        p(s.toolCall),
        p(s.ping),
      ]),
      notes: [
        "From each participant's message (the wish, the yes) to the first frame of the agent their page shows (a chat line, a change, or the agent's \"working\"), its first chat line and its first tool call (which waits the condition's pace first); relay ping: a WebSocket ping from the page answered by the server.",
        `target: ${TARGET_CONCURRENT} participants at once with the first visible action's p99 under ${TARGET_VISIBLE_P99_MS} ms and nothing lost: ${at ? `${num(visibleP99, 0)} ms, ${visibleP99 < TARGET_VISIBLE_P99_MS && !lostAt && at.failed === 0 ? 'met' : 'MISSED'}` : 'not reached'}`,
        ...steps.filter((s) => s.failures.length > 0).map((s) => `${s.target}: failures: ${s.failures.join('; ')}`),
      ],
    },
    {
      title: 'The server over each window (usher serve --study, one process) and the load generator',
      columns: [
        'at once',
        'server CPU',
        'waited for CPU',
        'RSS MiB',
        'fds',
        'loop p99 / max ms',
        'loop busy',
        'main: CPU / waited / blocked',
        'load CPU',
        'load loop p99 ms',
      ],
      rows: steps.map((s) => [
        String(s.target),
        `${num(s.server.cores * 100, 0)}%`,
        `${num(s.server.runQueueWait * 100, 0)}%`,
        num(s.server.rssMaxMiB, 0),
        num(s.server.fdsMax, 0),
        `${num(s.server.loopP99MaxMs, 0)} / ${num(s.server.loopMaxMs, 0)}`,
        `${num(s.server.loopUtilization * 100, 0)}%`,
        [s.server.main.cpu, s.server.main.waited, s.server.main.blocked].map((x) => `${num(x * 100, 0)}%`).join(' / '),
        `${num(s.server.loadCores * 100, 0)}%`,
        num(s.server.loadLoopP99Ms, 0),
      ]),
      notes: [
        "RSS and fds: the highest of one-second samples from /proc/<pid>; loop: the worst one-second p99 and max of the server's event-loop delay (USHER_BENCH_LOOP_STATS_MS), and the share of the window its loop was busy.",
        "waited for CPU: the time the server's threads were ready to run but waited for a core (/proc/<pid>/task/*/schedstat), per second: the machine's other work. main: the server's main thread (the relay, the HTTP API, the registry) on a core, waiting for one, and blocked in the kernel (a synchronous fsync) while its loop was busy.",
        'load: this process, which plays every participant (plain ws and fetch, no browser) on the same 2 cores.',
      ],
    },
    {
      title: 'Nothing lost: checked on disk at the end of each step',
      columns: [
        'at once',
        'study logs complete',
        'questionnaires in the registry',
        'in the questionnaire log',
        'first problem',
      ],
      rows: steps.map((s) => [
        String(s.target),
        `${s.checks.logsOk} / ${s.checks.logs}`,
        `${s.checks.storedOk} / ${s.checks.questionnaires}`,
        `${s.checks.loggedOk} / ${s.checks.questionnaires}`,
        s.checks.problems[0] ?? '',
      ]),
      notes: [
        "A log is complete when every line is a record of its session with eventIndex from 0 without a gap, it ends with the task's end, and it holds as many tool calls, agent chat lines and participant messages as the page saw.",
      ],
    },
  ];
}

export const loadSuite: Suite = {
  name: "Load: participants at a person's pace, stepped up, with the server's own agents",
  run: runLoadBench,
};
