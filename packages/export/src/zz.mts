import { DuckDBInstance } from '@duckdb/node-api';

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
try {
  const r = await c.runAndReadAll(
    `SELECT filename, sessionId, eventIndex, payload FROM read_ndjson(['/tmp/exp-scratch/h3/a.jsonl'], columns={sessionId:'VARCHAR', eventIndex:'BIGINT', payload:'JSON'}, ignore_errors=true, filename=true, format='newline_delimited')`,
  );
  process.stdout.write(JSON.stringify(r.getRowObjectsJson()) + '\n');
} catch (e) {
  process.stdout.write('ERR ' + (e as Error).message + '\n');
}
try {
  const r = await c.runAndReadAll(`SELECT count(*) FROM read_text(['/tmp/exp-scratch/h3/a.jsonl'])`);
  process.stdout.write(JSON.stringify(r.getRowObjectsJson()) + '\n');
} catch (e) {
  process.stdout.write('ERR ' + (e as Error).message + '\n');
}
try {
  const r = await c.runAndReadAll(`SELECT count(*) FROM read_blob(['/tmp/exp-scratch/h3/a.jsonl'])`);
  process.stdout.write(JSON.stringify(r.getRowObjectsJson()) + '\n');
} catch (e) {
  process.stdout.write('ERR ' + (e as Error).message + '\n');
}
