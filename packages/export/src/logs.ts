import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql.ts';

/** A log file larger than this is not read (reported instead): the relay's own logs are far smaller. */
export const MAX_LOG_FILE_BYTES = 512 * 1024 * 1024;
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
const RECORD_SCHEMA = JSON.stringify({
  sessionId: 'VARCHAR',
  eventIndex: 'BIGINT',
  timestamp: 'VARCHAR',
  direction: 'VARCHAR',
  type: 'VARCHAR',
  id: 'VARCHAR',
  replyTo: 'VARCHAR',
  peer: 'VARCHAR',
  payload: 'JSON',
});

/**
 * Reads every line of `files` into DuckDB's `raw_records` (one row per whole record: file,
 * line, the record's fields, its payload as JSON) and `log_problems` (every line that is not
 * one: not JSON, torn, not an object, missing a field, a bad timestamp). DuckDB reads the files
 * itself (`read_text`), splits them into lines and parses each with an explicit schema, so an
 * odd payload (huge, deeply nested, of any shape) is carried as JSON text and can break nothing.
 */
export async function loadLogs(conn: DuckDBConnection, files: readonly string[]): Promise<void> {
  await conn.run(`CREATE TABLE log_lines (file VARCHAR, line BIGINT, text VARCHAR)`);
  await conn.run(`CREATE TABLE log_problems (file VARCHAR, line BIGINT, bytes BIGINT, problem VARCHAR)`);
  // In batches, so one SQL text never holds every path of a large study.
  for (let i = 0; i < files.length; i += 500) {
    const list = files
      .slice(i, i + 500)
      .map(sqlString)
      .join(', ');
    await conn.run(`
      INSERT INTO log_lines
      SELECT filename, generate_subscripts(parts, 1), unnest(parts)
      FROM (SELECT filename, string_split(content, chr(10)) AS parts FROM read_text([${list}]))`);
  }
  await conn.run(`
    CREATE TABLE parsed AS
    SELECT file, line, strlen(text) AS bytes, text, max(line) OVER (PARTITION BY file) = line AS last,
           try(json_transform(text, ${sqlString(RECORD_SCHEMA)})) AS r
    FROM log_lines
    WHERE text <> ''`);
  await conn.run(`DROP TABLE log_lines`);
  const whole = `r.sessionId IS NOT NULL AND r.eventIndex IS NOT NULL AND r.type IS NOT NULL
    AND coalesce(r.direction IN ('in', 'out', 'internal'), false) AND try_cast(r.timestamp AS TIMESTAMPTZ) IS NOT NULL`;
  await conn.run(`
    CREATE TABLE raw_records AS
    SELECT file, line, bytes, r.sessionId AS session_id, r.eventIndex AS event_index,
           try_cast(r.timestamp AS TIMESTAMPTZ) AS ts, r.direction, r.type, r.id AS message_id,
           r.replyTo AS reply_to, r.peer, r.payload
    FROM parsed WHERE ${whole}`);
  // Only the few lines that are not records are looked at again, to say what is wrong with each.
  await conn.run(`
    INSERT INTO log_problems
    SELECT file, line, bytes,
      CASE
        WHEN NOT json_valid(text) THEN CASE WHEN last THEN 'not JSON (a torn last line)' ELSE 'not JSON' END
        WHEN json_type(text::JSON) <> 'OBJECT' THEN 'not a JSON object'
        WHEN r IS NULL THEN 'a field of the wrong type'
        WHEN r.sessionId IS NULL OR r.eventIndex IS NULL OR r.type IS NULL THEN 'missing sessionId, eventIndex or type'
        WHEN NOT coalesce(r.direction IN ('in', 'out', 'internal'), false) THEN 'no valid direction'
        ELSE 'no valid timestamp'
      END
    FROM parsed WHERE NOT coalesce(${whole}, false)`);
  await conn.run(`DROP TABLE parsed`);
}
