import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { bookingFromSummary, Catalog } from '@usher/booking';
import type { Study } from '@usher/study';
import { MEASURE_COLUMNS, measureTasks, summariseTasks } from './collaboration.ts';
import { countUnconfirmedSubmits } from './confirmations.ts';
import { addProblem, type LogProblem, listLogFiles, loadLogs } from './logs.ts';
import {
  AGENT_FAILURES,
  MANIFESTS,
  MISTAKES,
  OVERRIDES,
  RECORDS,
  SESSIONS,
  STATES,
  SUBMITS,
  TASK_FACTS,
  TASK_MISTAKES,
} from './queries.ts';
import { questionnaireTables } from './questionnaires.ts';
import { readRegistry } from './registry.ts';
import { csvTextCell, loadTable, sqlIdent, sqlString } from './sql.ts';
import { stageRegistry } from './staging.ts';
import { taskSuccess } from './success.ts';
import {
  COLLABORATION,
  CONDITIONS,
  EVENTS,
  EVENTS_CSV,
  EVENTS_PARQUET,
  EXPIRED_ARRIVALS,
  LOG_PROBLEMS,
  PARTICIPANT_TASKS,
  PARTICIPANTS,
  PILOTS,
} from './tables.ts';

export interface ExportOptions {
  /** The study, loaded from its file (its tasks' scenarios and success constraints check the bookings). */
  study: Study;
  /** The registry, `<data>/registry.sqlite`. */
  registryPath: string;
  /** The study logs' folder (`usher serve --logs`). */
  logsDir: string;
  /** Where the tables, the raw logs and `export.json` are written (created when missing). */
  outDir: string;
  /** When the export was made, for `export.json`. */
  now?: () => Date;
}

export interface ExportResult {
  outDir: string;
  /** Each table written, with its rows; each as `<name>.csv` and `<name>.parquet`. */
  tables: Array<{ name: string; rows: number }>;
  /** The raw log files copied into `logs/`. */
  logFiles: number;
  /** Lines and files of the logs that were left out, the first {@link MAX_REPORTED} of them. */
  problems: LogProblem[];
  problemCount: number;
  /** What the export could not include, and why (e.g. no questionnaire tables in the registry). */
  notes: string[];
}

/** DuckDB's memory at most; beyond it, it spills to a temporary folder. */
const MEMORY_LIMIT = '4GB';

/** Raw log files copied at once (see {@link copyFiles}). */
const COPIES_AT_ONCE = 2;

/** Problems listed in the result and `export.json`; all of them are in the `log_problems` table. */
export const MAX_REPORTED = 100;

/**
 * Exports a study for analysis (README "Data dictionary"): DuckDB reads the study logs and the
 * registry's rows, the booking checker of @usher/booking judges each submitted booking, and every
 * table is written as CSV and Parquet beside a copy of the raw logs.
 */
export async function exportStudy(options: ExportOptions): Promise<ExportResult> {
  const outDir = resolve(options.outDir);
  const { study } = options;
  const registry = readRegistry(options.registryPath, study.id);
  const listed = listLogFiles(options.logsDir);
  const notes: string[] = [...registry.notes];
  const spill = mkdtempSync(join(tmpdir(), 'usher-export-spill-'));
  const instance = await DuckDBInstance.create(':memory:');
  const conn0 = await instance.connect();
  let copying: Promise<unknown> = Promise.resolve();
  // USHER_EXPORT_PROFILE=1 prints how long each statement takes (for the bench and for tuning).
  const conn = process.env.USHER_EXPORT_PROFILE === '1' ? profiled(conn0) : conn0;
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    // Bounded memory (a server runs this beside its participants); what does not fit spills to a
    // folder of our own, removed afterwards, not to DuckDB's default \`.tmp\` in the working folder.
    await conn.run(`SET memory_limit = '${MEMORY_LIMIT}'`);
    await conn.run(`SET temp_directory = ${sqlString(spill)}`);
    // The logs' rows are read in any order (the tables sort what they need), so DuckDB's reader
    // may use both cores; the order is kept again for the writes, where the rows' order is the tables'.
    await conn.run('SET preserve_insertion_order = false');
    await loadLogs(conn, listed.files);
    await conn.run('SET preserve_insertion_order = true');
    for (const p of listed.problems) await addProblem(conn, p);
    await stageRegistry(conn, study, registry.participants);
    await loadTable(
      conn,
      'expired',
      [
        ['study_id', 'VARCHAR'],
        ['condition_id', 'VARCHAR'],
        ['arrivals', 'BIGINT'],
      ],
      registry.expiredArrivals.map((e) => [study.id, e.conditionId, e.arrivals]),
    );
    for (const step of [
      SESSIONS(sqlString(study.id)),
      RECORDS,
      STATES,
      OVERRIDES,
      SUBMITS,
      AGENT_FAILURES,
      TASK_FACTS,
      MANIFESTS,
      MISTAKES,
      TASK_MISTAKES,
      PILOTS,
    ]) {
      await conn.run(step);
    }
    // The raw logs are copied (by the file system, off this thread) while DuckDB makes the tables.
    mkdirSync(join(outDir, 'logs'), { recursive: true });
    const logFiles = (await rows(conn, 'SELECT DISTINCT file FROM sessions ORDER BY file')).map((r) => String(r.file));
    copying = copyFiles(logFiles, join(outDir, 'logs'));
    copying.catch(() => {}); // awaited below; a failure meanwhile must not go unhandled
    await judgeBookings(conn, study, notes);
    await countUnconfirmedSubmits(conn);
    const measured = await measureTasks(conn, study);
    await reportStrangers(conn);

    const tables: ExportResult['tables'] = [];
    const second = await instance.connect();
    // One table made once per name; `columns` picks what each format writes of it (events.csv has a narrower payload).
    const write = async (name: string, select: string, columns?: { csv: string; parquet: string }) => {
      const made = sqlIdent(`out_${name}`);
      await conn.run(`CREATE TABLE ${made} AS ${select}`);
      const from = (cols: string | undefined) => (cols ? `(SELECT ${cols} FROM ${made})` : made);
      const to = (ext: string) => sqlString(join(outDir, `${name}.${ext}`));
      const csvColumns = (await rows(conn, `DESCRIBE SELECT * FROM ${from(columns?.csv)}`)).map((c) =>
        c.column_type === 'VARCHAR' ? csvTextCell(String(c.column_name)) : sqlIdent(String(c.column_name)),
      );
      const csvRows = `(SELECT ${csvColumns.join(', ')} FROM ${from(columns?.csv)})`;
      // CSV and Parquet at once, on two connections: DuckDB's CSV writer keeps the rows' order on one thread.
      await Promise.all([
        // ISO 8601 in UTC, as in the logs, so R and pandas read the timestamps as they are.
        conn.run(`COPY ${csvRows} TO ${to('csv')} (HEADER, DELIMITER ',', TIMESTAMPFORMAT '%Y-%m-%dT%H:%M:%S.%gZ')`),
        second.run(`COPY ${from(columns?.parquet)} TO ${to('parquet')} (FORMAT parquet, COMPRESSION zstd)`),
      ]);
      tables.push({ name, rows: await count(conn, `out_${name}`) });
    };
    await write('participant_tasks', PARTICIPANT_TASKS);
    await write('collaboration', COLLABORATION(MEASURE_COLUMNS.map(([name]) => name)));
    await summariseTasks(conn, study, measured);
    await write('conditions', CONDITIONS(sqlString(study.id)));
    await write('events', EVENTS, { csv: EVENTS_CSV, parquet: EVENTS_PARQUET });
    await write('participants', PARTICIPANTS);
    await write('expired_arrivals', EXPIRED_ARRIVALS);
    await write('log_problems', LOG_PROBLEMS);
    for (const table of await questionnaireTables(conn, registry, notes)) await write(table.name, table.select);

    second.closeSync();
    await copying;
    const problemCount = await count(conn, 'log_problems');
    const problems = (await rows(conn, `${LOG_PROBLEMS} LIMIT ${MAX_REPORTED}`)).map((r) => ({
      file: String(r.source_file),
      line: Number(r.source_line),
      bytes: Number(r.bytes),
      problem: String(r.problem),
    }));
    const result: ExportResult = { outDir, tables, logFiles: logFiles.length, problems, problemCount, notes };
    const manifest = {
      study: { id: study.id, title: study.title, file: basename(study.path) },
      exportedAt: (options.now ?? (() => new Date()))().toISOString(),
      tables,
      logFiles: logFiles.length,
      // Arrivals who never consented and were removed from the registry (expired_arrivals).
      expiredArrivals: registry.expiredArrivals.reduce((n, e) => n + e.arrivals, 0),
      problemCount,
      problems,
      notes,
    };
    writeFileSync(join(outDir, 'export.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return result;
  } finally {
    conn0.closeSync();
    instance.closeSync();
    await copying.catch(() => {});
    rmSync(spill, { recursive: true, force: true });
  }
}

/**
 * Success by the task's checker, per participant task with a submitted booking: domain logic in
 * TypeScript (@usher/booking's `checkBooking`), its verdicts handed back to DuckDB as `successes`.
 */
async function judgeBookings(conn: DuckDBConnection, study: Study, notes: string[]): Promise<void> {
  const submitted = await rows(conn, 'SELECT participant_id, task_id, booking FROM submits');
  const tasks = new Map(study.tasks.map((t) => [t.id, t]));
  const out: Array<Array<string | number | boolean | null>> = [];
  let unreadable = 0;
  for (const row of submitted) {
    const task = tasks.get(String(row.task_id));
    let summary: unknown = null;
    try {
      summary = JSON.parse(String(row.booking));
    } catch {
      // Left as null: reported below as unreadable.
    }
    // The confirm stage's summary, rebuilt as the engine submits it (reference aside).
    const booking = task ? bookingFromSummary(new Catalog(task.world), summary) : null;
    if (!task || !booking) {
      unreadable += 1;
      out.push([String(row.participant_id), String(row.task_id), null, 'booking not readable', null, null, null, null]);
      continue;
    }
    const s = taskSuccess(task, task.world, booking);
    out.push([
      String(row.participant_id),
      String(row.task_id),
      s.success,
      s.failedWish,
      s.failedWishes,
      s.hardMet,
      s.softMet,
      s.softScore,
    ]);
  }
  if (unreadable > 0) {
    notes.push(`${unreadable} submitted booking(s) could not be checked (not a booking of the task's scenario)`);
  }
  await loadTable(
    conn,
    'successes',
    [
      ['participant_id', 'VARCHAR'],
      ['task_id', 'VARCHAR'],
      ['success', 'BOOLEAN'],
      ['failed_wish', 'VARCHAR'],
      ['failed_wishes', 'VARCHAR'],
      ['hard_met', 'BIGINT'],
      ['soft_met', 'BIGINT'],
      ['soft_score', 'DOUBLE'],
    ],
    out,
  );
}

/** Sessions of this study whose participant or task the registry does not know go to `log_problems`. */
async function reportStrangers(conn: DuckDBConnection): Promise<void> {
  await conn.run(`
    INSERT INTO log_problems
    SELECT s.file, 1, 0, 'a session of a participant task the registry does not know: ' || s.participant_id || ' / ' || s.task_id
    FROM sessions s ANTI JOIN plan_tasks p USING (participant_id, task_id)`);
}

/**
 * Copies `files` into `dir`, {@link COPIES_AT_ONCE} at a time. Each copy is a job on libuv's
 * thread pool (4 threads), where DuckDB's calls from Node and a server's file writes (the study
 * logs) run too: thousands queued at once kept everything else waiting behind them (2 s of a
 * 1,000-participant export).
 */
async function copyFiles(files: readonly string[], dir: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++] as string;
      await copyFile(file, join(dir, basename(file)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, files.length) }, worker));
}

async function rows(conn: DuckDBConnection, sql: string): Promise<Array<Record<string, unknown>>> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
}

async function count(conn: DuckDBConnection, table: string): Promise<number> {
  const [row] = await rows(conn, `SELECT count(*) AS n FROM ${sqlIdent(table)}`);
  return Number(row?.n ?? 0);
}

function profiled(conn: DuckDBConnection): DuckDBConnection {
  const run = conn.run.bind(conn);
  conn.run = (async (sql: string, ...rest: []) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await run(sql, ...rest);
    const used = process.cpuUsage(cpu);
    const wall = (performance.now() - started).toFixed(0).padStart(6);
    const cpuMs = ((used.user + used.system) / 1000).toFixed(0).padStart(6);
    console.error(`${wall} ms ${cpuMs} ms CPU  ${sql.trim().split('\n')[0]?.slice(0, 80)}`);
    return result;
  }) as DuckDBConnection['run'];
  return conn;
}
