import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql.ts';

/** A log file larger than this is not read (reported instead): the relay's own logs are far smaller. */
export const MAX_LOG_FILE_BYTES = 256 * 1024 * 1024;
/** A payload longer than this stays in the raw log; the events table says how long it was. */
export const MAX_EVENT_PAYLOAD_CHARS = 1024 * 1024;
/** Files read at most from one logs folder. */
export const MAX_LOG_FILES = 200_000;

/** Something in the logs the export could not use, and so left out (the raw logs keep it). */
export interface LogProblem {
  file: string;
  /** 1-based line in the file; 0 for the file as a whole. */
  line: number;
  bytes: number;
  problem: string;
}

/**
 * The questionnaire log `usher serve` writes beside the study logs (`<study id>.questionnaires.jsonl`):
 * a durable copy of the answers the registry holds, not a study log, so it is not read as one.
 */
const SIDE_LOG = /\.questionnaires\.jsonl$/;

/**
 * The study logs' files worth reading: `*.jsonl` but the questionnaire log ({@link SIDE_LOG}),
 * regular files (no links out of the folder), not larger than {@link MAX_LOG_FILE_BYTES}. What is
 * skipped otherwise is reported.
 */
export function listLogFiles(dir: string): { files: string[]; problems: LogProblem[] } {
  const files: string[] = [];
  const problems: LogProblem[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl') && !SIDE_LOG.test(name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { files, problems };
    throw err;
  }
  names.sort();
  for (const name of names) {
    const path = join(dir, name);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile()) {
      problems.push({ file: name, line: 0, bytes: 0, problem: 'not a regular file' });
    } else if (stat.size > MAX_LOG_FILE_BYTES) {
      problems.push({ file: name, line: 0, bytes: stat.size, problem: `larger than ${MAX_LOG_FILE_BYTES} bytes` });
    } else if (files.length >= MAX_LOG_FILES) {
      problems.push({ file: name, line: 0, bytes: stat.size, problem: `more than ${MAX_LOG_FILES} log files` });
    } else {
      files.push(path);
    }
  }
  return { files, problems };
}

/** The record's fields as the study log writes them (StudyLogRecordSchema); payload kept as JSON. */
const RECORD_FIELDS = {
  sessionId: 'VARCHAR',
  eventIndex: 'BIGINT',
  timestamp: 'VARCHAR',
  direction: 'VARCHAR',
  type: 'VARCHAR',
  id: 'VARCHAR',
  replyTo: 'VARCHAR',
  peer: 'VARCHAR',
  payload: 'JSON',
};
const RECORD_SCHEMA = JSON.stringify(RECORD_FIELDS);
const RECORD_COLUMNS = `{${Object.entries(RECORD_FIELDS)
  .map(([name, type]) => `${name}: '${type}'`)
  .join(', ')}}`;

const VALID = `session_id IS NOT NULL AND event_index IS NOT NULL AND type IS NOT NULL
  AND coalesce(direction IN ('in', 'out', 'internal'), false) AND try_cast(timestamp AS TIMESTAMPTZ) IS NOT NULL`;

/**
 * Reads the study logs `files` into DuckDB's `raw_records` (one row per whole record: its file,
 * its fields, its payload as JSON) and `log_problems` (every line that is not one). DuckDB reads
 * the files itself (`read_ndjson`, with an explicit schema, so an odd payload — huge, deeply
 * nested, of any shape — is carried as JSON text and breaks nothing; a line that is not a record
 * becomes an empty row instead of an error). Only the files with such rows are read again, line
 * by line, to say where each bad line is and what is wrong with it.
 */
export async function loadLogs(conn: DuckDBConnection, files: readonly string[]): Promise<void> {
  await conn.run(`CREATE TABLE log_problems (file VARCHAR, line BIGINT, bytes BIGINT, problem VARCHAR)`);
  await conn.run(`
    CREATE TABLE log_rows (file VARCHAR, session_id VARCHAR, event_index BIGINT, timestamp VARCHAR, direction VARCHAR,
                           type VARCHAR, message_id VARCHAR, reply_to VARCHAR, peer VARCHAR, payload JSON)`);
  const read = (paths: readonly string[]) =>
    conn.run(`
      INSERT INTO log_rows
      SELECT filename, sessionId, eventIndex, timestamp, direction, type, id, replyTo, peer, payload
      FROM read_ndjson([${paths.map(sqlString).join(', ')}], columns = ${RECORD_COLUMNS}, format = 'newline_delimited',
                       ignore_errors = true, filename = true, maximum_object_size = ${MAX_LOG_FILE_BYTES})`);
  // In batches, so one SQL text never holds every path of a large study. A batch the reader
  // refuses whole is read again file by file, and a file it still refuses is reported.
  for (let i = 0; i < files.length; i += 500) {
    const batch = files.slice(i, i + 500);
    try {
      await read(batch);
    } catch {
      for (const file of batch) {
        try {
          await read([file]);
        } catch (err) {
          await problem(conn, file, 0, `could not be read: ${firstLine(err)}`);
        }
      }
    }
  }
  // A view, not a copy: the payloads are the bulk of the logs, and each copy of them costs.
  await conn.run(`
    CREATE VIEW raw_records AS
    SELECT rowid AS rid, file, session_id, event_index, CAST(timestamp AS TIMESTAMPTZ) AS ts, direction, type, message_id,
           reply_to, peer, payload
    FROM log_rows WHERE ${VALID}`);
  const bad = (await conn.runAndReadAll(`SELECT DISTINCT file FROM log_rows WHERE NOT coalesce(${VALID}, false)`))
    .getRowObjectsJS()
    .map((row) => String(row.file));
  for (const file of bad) {
    try {
      await explainProblems(conn, file);
    } catch (err) {
      // The file's bad lines are left out all the same; only where they are cannot be said.
      await problem(conn, file, 0, `lines that are not records, which could not be located: ${firstLine(err)}`);
    }
  }
}

/** Adds one problem to `log_problems` (made by {@link loadLogs}). */
export async function addProblem(conn: DuckDBConnection, p: LogProblem): Promise<void> {
  await conn.run(
    `INSERT INTO log_problems VALUES (${sqlString(p.file)}, ${p.line}, ${p.bytes}, ${sqlString(p.problem.slice(0, 500))})`,
  );
}

function problem(conn: DuckDBConnection, file: string, line: number, text: string, bytes = 0): Promise<void> {
  return addProblem(conn, { file, line, bytes, problem: text });
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/**
 * Reads `file` line by line and puts each line that is not a whole record in `log_problems`, with
 * why. Only files with such lines come here, so reading them in Node (to find bytes that are not
 * UTF-8, which DuckDB's text reader refuses for the whole file) costs little.
 */
async function explainProblems(conn: DuckDBConnection, file: string): Promise<void> {
  await conn.run('DROP TABLE IF EXISTS bad_lines');
  await conn.run('DROP TABLE IF EXISTS bad_parsed');
  await conn.run('CREATE TABLE bad_lines (file VARCHAR, line BIGINT, text VARCHAR)');
  const bytes = readFileSync(file);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const appender = await conn.createAppender('bad_lines');
  let line = 0;
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(10, start);
    const stop = end < 0 ? bytes.length : end;
    line += 1;
    const raw = bytes.subarray(start, stop);
    start = stop + 1;
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      await problem(conn, file, line, 'not UTF-8 text', raw.length);
      continue;
    }
    appender.appendVarchar(file);
    appender.appendBigInt(BigInt(line));
    appender.appendVarchar(text);
    appender.endRow();
  }
  appender.closeSync();
  // A last line without its newline is a record cut short (the relay ends every record with one).
  const torn = bytes.at(-1) === 10 ? -1 : line;
  await conn.run(`
    CREATE TABLE bad_parsed AS
    SELECT file, line, strlen(text) AS bytes, text, try(json_transform(text, ${sqlString(RECORD_SCHEMA)})) AS r,
           line = ${torn} AS last
    FROM bad_lines WHERE text <> ''`);
  await conn.run(`
    INSERT INTO log_problems
    SELECT file, line, bytes,
      CASE
        WHEN NOT json_valid(text) THEN CASE WHEN last THEN 'not JSON (a torn last line)' ELSE 'not JSON' END
        WHEN json_type(CAST(text AS JSON)) <> 'OBJECT' THEN 'not a JSON object'
        WHEN r IS NULL THEN 'a field of the wrong type'
        WHEN r.sessionId IS NULL OR r.eventIndex IS NULL OR r.type IS NULL THEN 'missing sessionId, eventIndex or type'
        WHEN NOT coalesce(r.direction IN ('in', 'out', 'internal'), false) THEN 'no valid direction'
        ELSE 'no valid timestamp'
      END
    FROM bad_parsed
    WHERE NOT coalesce(r.sessionId IS NOT NULL AND r.eventIndex IS NOT NULL AND r.type IS NOT NULL
      AND coalesce(r.direction IN ('in', 'out', 'internal'), false) AND try_cast(r.timestamp AS TIMESTAMPTZ) IS NOT NULL, false)`);
  await conn.run('DROP TABLE bad_lines');
  await conn.run('DROP TABLE bad_parsed');
}
