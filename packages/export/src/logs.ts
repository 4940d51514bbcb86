import { lstatSync, readdirSync } from 'node:fs';
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
 * The study logs' files worth reading: `*.jsonl`, regular files (no links out of the folder),
 * not larger than {@link MAX_LOG_FILE_BYTES}. What is skipped is reported.
 */
export function listLogFiles(dir: string): { files: string[]; problems: LogProblem[] } {
  const files: string[] = [];
  const problems: LogProblem[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
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
  // In batches, so one SQL text never holds every path of a large study.
  for (let i = 0; i < files.length; i += 500) {
    const list = files
      .slice(i, i + 500)
      .map(sqlString)
      .join(', ');
    await conn.run(`
      INSERT INTO log_rows
      SELECT filename, sessionId, eventIndex, timestamp, direction, type, id, replyTo, peer, payload
      FROM read_ndjson([${list}], columns = ${RECORD_COLUMNS}, format = 'newline_delimited', ignore_errors = true,
                       filename = true, maximum_object_size = ${MAX_LOG_FILE_BYTES})`);
  }
  // A view, not a copy: the payloads are the bulk of the logs, and each copy of them costs.
  await conn.run(`
    CREATE VIEW raw_records AS
    SELECT file, session_id, event_index, CAST(timestamp AS TIMESTAMPTZ) AS ts, direction, type, message_id, reply_to,
           peer, payload
    FROM log_rows WHERE ${VALID}`);
  const bad = (await conn.runAndReadAll(`SELECT DISTINCT file FROM log_rows WHERE NOT coalesce(${VALID}, false)`))
    .getRowObjectsJS()
    .map((row) => String(row.file));
  if (bad.length > 0) await explainProblems(conn, bad);
}

/** Reads `files` line by line and puts each line that is not a whole record in `log_problems`, with why. */
async function explainProblems(conn: DuckDBConnection, files: readonly string[]): Promise<void> {
  await conn.run(`
    CREATE TABLE bad_lines AS
    SELECT filename AS file, generate_subscripts(parts, 1) AS line, unnest(parts) AS text
    FROM (SELECT filename, string_split(content, chr(10)) AS parts FROM read_text([${files.map(sqlString).join(', ')}]))`);
  await conn.run(`
    CREATE TABLE bad_parsed AS
    SELECT file, line, strlen(text) AS bytes, text, try(json_transform(text, ${sqlString(RECORD_SCHEMA)})) AS r,
           line = max(line) OVER (PARTITION BY file) AS last
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
