import { DuckDBInstance } from '@duckdb/node-api';

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const r = await c.runAndReadAll(
  `SELECT ordinality, filename, sessionId, eventIndex FROM read_ndjson(['/tmp/exp-scratch/h2/a.jsonl','/tmp/exp-scratch/h2/b.jsonl','/tmp/exp-scratch/h2/c.jsonl'], columns={sessionId:'VARCHAR', eventIndex:'BIGINT'}, ignore_errors=true, filename=true, format='newline_delimited') WITH ORDINALITY`,
);
console.log(r.getRowObjectsJson());
