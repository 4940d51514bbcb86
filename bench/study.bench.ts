import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScenario, type Scenario } from '@usher/booking';
import { PilotPage } from '@usher/study-host/pilot';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';
import { procMemory } from './lib/proc.ts';
import type { Suite, SuiteOptions, Table } from './lib/suite.ts';
import { num } from './lib/table.ts';

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
const TARGET_CONCURRENT = 200;
const TARGET_MIB_PER_PARTICIPANT = 5;

/** The demo study's two tasks with both conditions, the agent at full speed (pace 0). */
function benchStudy(root: string): string {
  const scenario = join(root, 'packages/booking/scenarios/default.json');
  return `id: bench
title: Bench
consent: ok
tasks:
  - id: imax
    title: IMAX
    scenario: ${scenario}
    briefing: Two adults for Orbital Drift tomorrow evening in IMAX, seats together.
    goal: Two adults for Orbital Drift tomorrow evening in IMAX, seats together
    success: { hard: [{ kind: title, is: [Orbital Drift] }, { kind: seatCount, count: 2 }] }
conditions:
  - { id: autopilot, agent: autopilot, paceMs: 0, confirmBeforeSubmit: true }
`;
}

async function step(base: string, room: string, body: object): Promise<void> {
  const response = await fetch(`${base}/api/participant/step?room=${room}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`step ${JSON.stringify(body)}: HTTP ${response.status} ${await response.text()}`);
}

const said = (host: PilotPage, text: string) => host.protocol.view().messageHistory.some((m) => m.text.includes(text));

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One participant: the link, consent, the task with the agent booking it after a yes. `hold` keeps them mid-task. */
async function participant(base: string, id: string, world: Scenario, hold?: Promise<void>): Promise<PilotPage> {
  const link = await fetch(`${base}/s/bench?participant=${id}`, { redirect: 'manual' });
  const room = new URL(link.headers.get('location') as string, base).searchParams.get('room') as string;
  await step(base, room, { step: 'consent' });
  await step(base, room, { step: 'start-task' });
  const host = await PilotPage.open({ url: base, room, scenario: world });
  await until(() => said(host, 'What would you like'), 30_000);
  if (hold) await hold;
  host.say('Two adults for Orbital Drift tomorrow evening in IMAX, seats together');
  await until(() => said(host, 'Shall I book it?'), 60_000);
  host.say('yes');
  await until(() => host.protocol.engine.submitted() !== null, 30_000);
  await step(base, room, { step: 'end-task', outcome: 'submitted' });
  host.close();
  return host;
}

/**
 * The study server under load (`usher serve --study`, its own process, the agent supervisor in
 * it): participants who each go through a task with an agent that books for them, how many a
 * minute it sustains, and its memory per participant with many mid-task at once.
 */
async function runStudyBench(options: SuiteOptions): Promise<Table[]> {
  const work = mkdtempSync(join(tmpdir(), 'usher-bench-study-'));
  const forget = atExit(() => rmSync(work, { recursive: true, force: true }));
  const studyFile = join(work, 'bench.study.yaml');
  writeFileSync(studyFile, benchStudy(options.root));
  const world = parseScenario(
    JSON.parse(readFileSync(join(options.root, 'packages/booking/scenarios/default.json'), 'utf8')),
  );
  let server: RunningChild | null = null;
  try {
    server = await startNodeChild({
      name: 'usher study',
      args: [
        'packages/cli/bin/usher.js',
        'serve',
        '--port',
        '0',
        '--study',
        studyFile,
        '--data',
        join(work, 'data'),
        '--logs',
        join(work, 'logs'),
        '--limit',
        'maxConnectionsPerAddress=10000',
        '--limit',
        'admissionsPerMinute=100000',
        '--limit',
        'maxTasksPerAddress=100000',
      ],
      cwd: options.root,
      portPattern: LISTENING,
    });
    const base = `http://127.0.0.1:${server.port}`;
    const idle = procMemory(server.pid).rssKiB;

    // Throughput: waves of participants, each through the whole task.
    const wave = options.quick ? 10 : 25;
    const waves = options.quick ? 2 : 4;
    options.progress(`${wave * waves} participants in waves of ${wave}`);
    const started = performance.now();
    for (let w = 0; w < waves; w++) {
      await Promise.all(Array.from({ length: wave }, (_, i) => participant(base, `t${w}-${i}`, world)));
    }
    const minutes = (performance.now() - started) / 60_000;
    const perMinute = (wave * waves) / minutes;

    // Memory: many participants mid-task at once, each with their agent connected and waiting.
    const concurrent = options.quick ? 40 : TARGET_CONCURRENT;
    options.progress(`${concurrent} participants mid-task at once`);
    let release: () => void = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = 0;
    const running = Array.from({ length: concurrent }, (_, i) =>
      participant(
        base,
        `m${i}`,
        world,
        hold.then(() => undefined),
      ).finally(() => {
        arrived += 1;
      }),
    );
    // Every participant's room is open (page and agent in it) before memory is read.
    for (let tries = 0; tries < 600; tries++) {
      const rooms = (await (await fetch(`${base}/healthz`)).json()) as { rooms: number };
      if (rooms.rooms >= concurrent) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const loaded = procMemory(server.pid).rssKiB;
    release();
    await Promise.all(running);
    const perParticipantMiB = (loaded - idle) / 1024 / concurrent;

    return [
      {
        title:
          'Study server: participants through a task with an agent (usher serve --study, agents in its process, pace 0)',
        columns: ['', 'value'],
        rows: [
          [`participants per minute (waves of ${wave})`, num(perMinute, 0)],
          [`RSS idle → ${concurrent} mid-task`, `${num(idle / 1024, 0)} → ${num(loaded / 1024, 0)} MiB`],
          ['memory per active participant', `${num(perParticipantMiB, 2)} MiB`],
          ['participants completed', num(wave * waves + arrived, 0)],
        ],
        notes: [
          `target: ${TARGET_CONCURRENT} concurrent participants with agents in the same process, under ${TARGET_MIB_PER_PARTICIPANT} MiB each: ${concurrent} measured, ${num(perParticipantMiB, 2)} MiB, ${concurrent >= TARGET_CONCURRENT && perParticipantMiB < TARGET_MIB_PER_PARTICIPANT ? 'met' : 'MISSED'}`,
          'The load generator (pages over real sockets, the participant API) runs in this process on the same 2 cores.',
        ],
      },
    ];
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
    forget();
  }
}

export const studySuite: Suite = {
  name: 'Study: participants with an agent each, through the study server',
  run: runStudyBench,
};
