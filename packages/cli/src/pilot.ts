import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { llmConfigFromEnv } from '@usher/agent';
import { defaultScenario } from '@usher/booking';
import { startServer } from '@usher/server';
import { formatProblem, loadStudyFile, type Study, StudyFileError, StudyRegistry } from '@usher/study';
import { AgentSupervisor } from '@usher/study-host';
import { type Pace, type PilotParticipantResult, runPilotParticipant, Seeded } from '@usher/study-host/pilot';

export interface PilotFlags {
  participants: number;
  seed: string;
  pace: Pace;
  /** The pilot's own folder, which must not exist yet: its data, logs, agents' episodes and export. */
  dir?: string;
}

/** Most participants one pilot runs: each is a room, a page and an agent. */
export const MAX_PILOT_PARTICIPANTS = 1000;
/** Errors and warnings printed in full; the count says how many there were. */
const SHOWN = 20;

type Row = Record<string, unknown>;

/**
 * `usher pilot <study file>`: runs simulated participants through the whole study on a server of
 * its own (the study link, consent, every task in every condition with its agent, the
 * questionnaires, the end page) over real sockets, in a folder of its own (never a real study's
 * registry or logs), exports it (rows marked `pilot`) and prints a report. Exit 1 when the study
 * file or the folder cannot be used, or a participant could not finish.
 */
export async function runPilot(
  studyFile: string,
  flags: PilotFlags,
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  err: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  const fail = (message: string) => {
    err(`usher pilot: ${message}`);
    return 1;
  };
  let loaded: Study;
  try {
    loaded = loadStudyFile(studyFile);
  } catch (e) {
    if (e instanceof StudyFileError)
      return fail(`${studyFile} cannot be used:\n${e.problems.map(formatProblem).join('\n')}`);
    return fail((e as Error).message);
  }
  const llm = loaded.conditions.find((c) => c.planner === 'llm');
  if (llm && !llmConfigFromEnv(process.env)) {
    return fail(
      `condition "${llm.id}" plans with a language model, but none is configured (USHER_LLM_BASE_URL, USHER_LLM_MODEL)`,
    );
  }
  const dir = resolve(flags.dir ?? join('pilot', `${loaded.id}-seed-${flags.seed}`));
  // A new folder of its own: a pilot never writes into a study's registry or logs folder (even an
  // empty one, such as a study server's logs before its first task), nor over an earlier pilot.
  if (existsSync(dir)) {
    return fail(
      `${dir} already exists; a pilot writes only into a new folder of its own (--dir, or remove the old pilot)`,
    );
  }
  const paths = {
    data: join(dir, 'data'),
    logs: join(dir, 'logs', 'study'),
    episodes: join(dir, 'logs', 'agent'),
    export: join(dir, 'export'),
  };
  mkdirSync(paths.data, { recursive: true });
  mkdirSync(paths.logs, { recursive: true });
  // Fast: the agents work at full speed and the participants without pauses; real: as the study file says.
  const study: Study =
    flags.pace === 'fast' ? { ...loaded, conditions: loaded.conditions.map((c) => ({ ...c, paceMs: 0 })) } : loaded;
  const rng = new Seeded(flags.seed);
  const registryPath = join(paths.data, 'registry.sqlite');
  const registry = new StudyRegistry(registryPath);
  const warnings: string[] = [];
  let supervisor: AgentSupervisor | null = null;
  const many = flags.participants * 4 + 100;
  const server = await startServer({
    port: 0,
    bind: '127.0.0.1',
    logsDir: paths.logs,
    scenario: defaultScenario(),
    room: 'default',
    headlessHost: false,
    access: 'open',
    // Every simulated participant comes from this machine's one address.
    limits: { admissionsPerMinute: many, maxTasksPerAddress: many, maxConnectionsPerAddress: many * 2 },
    warn: (line) => warnings.push(`server: ${line}`),
    study: {
      study,
      registry,
      registryPath,
      hooks: {
        // The task's id too: the supervisor gives the agent that task's scripted mistakes.
        taskStarted: (p, condition) => supervisor?.start(p.room, p.id, condition, p.plan.tasks[p.taskIndex]?.taskId),
        taskEnded: (p) => supervisor?.stop(p.room),
        roomIdle: (room) => supervisor?.idle(room),
      },
      // As usher serve: the agents' model, and the manifest settled with this (new) registry.
      agents: { llm: llmConfigFromEnv(process.env), accept: false },
      pilot: { random: rng.fork('assignment').next, bytes: rng.fork('ids').bytes },
    },
  });
  supervisor = new AgentSupervisor({
    relayUrl: server.ownAgentsUrl,
    studyId: study.id,
    episodesDir: paths.episodes,
    llm: llmConfigFromEnv(process.env),
    // Its records in the study log (each scripted mistake's `agent.mistake`), as usher serve's.
    record: (room, type, payload) => server.relay.record(room, type, payload),
    log: (line) => {
      if (/error|fail|warn|refus|cannot|could not/i.test(line)) warnings.push(`agent: ${line}`);
    },
  });
  if (server.console) server.console.agents = supervisor;
  out(
    `usher pilot: ${flags.participants} simulated participants through "${study.id}" (seed ${flags.seed}, pace ${flags.pace}) in ${dir}`,
  );
  const conditionOf = (room: string) => {
    const p = registry.byRoom(room);
    const planned = p?.plan.tasks[p.taskIndex];
    return study.conditions.find((c) => c.id === planned?.conditionId) ?? null;
  };
  const one = (i: number) =>
    runPilotParticipant({
      base: server.url,
      study,
      number: i + 1,
      rng: rng.fork(`participant-${i + 1}`),
      pace: flags.pace,
      conditionOf,
    }).catch(
      (e: Error): PilotParticipantResult => ({
        externalId: `pilot-${i + 1}`,
        participantId: null,
        room: null,
        status: 'failed',
        tasks: [],
        completionCode: null,
        problems: [e.message],
      }),
    );
  let results: PilotParticipantResult[] = [];
  try {
    if (flags.pace === 'fast') {
      // One after another: the same seed then gives the same run, record for record.
      for (let i = 0; i < flags.participants; i++) results.push(await one(i));
    } else {
      // As people arrive: spread over the first minutes, all at once after that.
      const arrivals = rng.fork('arrivals');
      let at = 0;
      results = await Promise.all(
        Array.from({ length: flags.participants }, (_, i) => {
          at += arrivals.int(20_000);
          const wait = at;
          return new Promise<void>((r) => setTimeout(r, wait)).then(() => one(i));
        }),
      );
    }
  } finally {
    await supervisor.stopAll();
    await server.close();
    registry.close();
  }

  // Loaded here, not with the CLI: DuckDB's binding would cost every other command about 25 MB and 65 ms.
  const { exportStudy, readExportTable } = await import('@usher/export');
  const exported = await exportStudy({ study, registryPath, logsDir: paths.logs, outDir: paths.export });
  const tasks = await readExportTable(join(paths.export, 'participant_tasks.parquet'));
  const participants = await readExportTable(join(paths.export, 'participants.parquet'));
  const conditions = await readExportTable(join(paths.export, 'conditions.parquet'));
  const events = await readExportTable(join(paths.export, 'events.parquet'));
  const relayErrors = events.filter((e) => e.type === 'error' || e.type === 'relay.peer-closed');
  for (const e of relayErrors) warnings.push(`log ${e.source_file}: ${e.type} ${String(e.payload).slice(0, 160)}`);
  for (const p of exported.problems) warnings.push(`export: ${p.file}:${p.line}: ${p.problem}`);
  for (const note of exported.notes) warnings.push(`export: ${note}`);
  const problems = results.flatMap((r) => r.problems.map((p) => `${r.externalId}: ${p}`));

  for (const line of report(study, participants, tasks, conditions, results)) out(line);
  const all = [...problems, ...warnings];
  out(`Errors and warnings: ${all.length === 0 ? 'none' : all.length}`);
  for (const line of grouped(all)) out(`  ${line}`);
  out(`Export (rows marked pilot): ${paths.export}`);
  const unfinished = results.filter((r) => r.status !== 'done').length;
  if (unfinished > 0) return fail(`${unfinished} simulated participant(s) did not reach the end`);
  return 0;
}

/**
 * Every error and warning, those that differ only in ids, numbers and quoted names said once with
 * how often (so a thousand participants' same warning is one line), at most {@link SHOWN} kinds.
 */
export function grouped(lines: readonly string[]): string[] {
  const kinds = new Map<string, { first: string; count: number }>();
  for (const line of lines) {
    const kind = line.replace(/"[^"]*"/g, '"…"').replace(/[\w-]*\d[\w.:-]*/g, '#');
    const known = kinds.get(kind);
    if (known) known.count += 1;
    else kinds.set(kind, { first: line, count: 1 });
  }
  const out = [...kinds.values()]
    .slice(0, SHOWN)
    .map((k) => (k.count > 1 ? `${k.first}  (×${k.count} like it)` : k.first));
  if (kinds.size > SHOWN) out.push(`… and ${kinds.size - SHOWN} other kinds (${lines.length} in all)`);
  return out;
}

const num = (v: unknown, digits = 1) =>
  v === null || v === undefined ? '–' : Number(v).toFixed(digits).replace(/\.0+$/, '');
const pct = (v: unknown) => (v === null || v === undefined ? '–' : `${Math.round(Number(v) * 100)}%`);

/** The report's lines: participants per condition and order, success and time per task and condition, the measures. */
export function report(
  study: Study,
  participants: Row[],
  tasks: Row[],
  conditions: Row[],
  results: PilotParticipantResult[],
): string[] {
  const lines: string[] = [];
  const byCondition = new Map<string, Row[]>();
  for (const p of participants) {
    const key = String(p.condition_id ?? p.conditions);
    byCondition.set(key, [...(byCondition.get(key) ?? []), p]);
  }
  lines.push('Participants per condition and order:');
  for (const [condition, list] of byCondition) {
    const orders = new Map<string, number>();
    for (const p of list) orders.set(String(p.task_order), (orders.get(String(p.task_order)) ?? 0) + 1);
    const split = [...orders].map(([order, n]) => `${order.split(' ').join(' → ')}: ${n}`).join(', ');
    lines.push(`  ${condition.padEnd(16)} ${String(list.length).padStart(4)}   ${split}`);
  }
  const done = results.filter((r) => r.status === 'done').length;
  lines.push(`  reached the end page: ${done} of ${results.length}`);
  lines.push('Success per task and condition (bookings that met the task / tasks started; mean time on task):');
  for (const task of study.tasks) {
    for (const condition of study.conditions) {
      const mine = tasks.filter((t) => t.task_id === task.id && t.condition_id === condition.id);
      const started = mine.filter((t) => Number(t.sessions) > 0);
      if (mine.length === 0) continue;
      const ok = mine.filter((t) => t.success === true).length;
      const times = started.map((t) => Number(t.time_on_task_s)).filter((t) => Number.isFinite(t));
      const mean = times.length > 0 ? times.reduce((a, b) => a + b, 0) / times.length : null;
      lines.push(
        `  ${task.id.padEnd(18)} ${condition.id.padEnd(14)} ${`${ok}/${started.length}`.padStart(7)}  ${pct(started.length ? ok / started.length : null).padStart(5)}   ${num(mean)} s`,
      );
    }
  }
  const behaviours = new Map<string, number>();
  for (const t of results.flatMap((r) => r.tasks)) {
    for (const b of [t.behaviour, ...t.also]) behaviours.set(b, (behaviours.get(b) ?? 0) + 1);
  }
  lines.push(`What the participants did: ${[...behaviours].map(([b, n]) => `${b} ${n}`).join(', ')}`);
  lines.push('Collaboration measures per condition (export: conditions.csv):');
  lines.push(
    `  ${'condition'.padEnd(14)} ${'success'.padStart(7)} ${'agent share'.padStart(11)} ${'1st action'.padStart(10)} ${'interv.'.padStart(7)} ${'corr.'.padStart(5)} ${'undone'.padStart(6)} ${'pauses'.padStart(6)} ${'rejects'.padStart(7)} ${'questions'.padStart(9)} ${'caught/missed'.padStart(13)} ${'overr.-correct'.padStart(14)}`,
  );
  for (const c of conditions) {
    const cm = c.mistakes_caught === null ? '–' : `${num(c.mistakes_caught, 0)}/${num(c.mistakes_missed, 0)}`;
    lines.push(
      `  ${String(c.condition_id).padEnd(14)} ${pct(c.success_rate).padStart(7)} ${pct(c.mean_agent_share).padStart(11)} ${`${num(c.mean_time_to_agent_first_action_s)} s`.padStart(10)} ${num(c.mean_interventions, 2).padStart(7)} ${num(c.chat_corrections, 0).padStart(5)} ${num(c.undone_agent_selections, 0).padStart(6)} ${num(c.pauses, 0).padStart(6)} ${num(c.rejected_proposals, 0).padStart(7)} ${num(c.agent_questions, 0).padStart(9)} ${cm.padStart(13)} ${num(c.overridden_correct, 0).padStart(14)}`,
    );
  }
  return lines;
}
