/** A SQL string literal: the text in single quotes, each quote doubled. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A SQL identifier in double quotes, each quote doubled (column names made from data). */
export function sqlIdent(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * A text column's cell as the CSV files write it: text that a spreadsheet would run as a formula
 * (it begins with `=`, `+`, `-`, `@`, a tab or a carriage return) gets an apostrophe in front, so
 * it is shown as the text it is (OWASP, "CSV Injection"). Participants type free text into
 * questionnaires; the Parquet files keep every cell exactly as it was.
 */
export function csvTextCell(column: string): string {
  const c = sqlIdent(column);
  return `CASE WHEN regexp_matches(${c}, '^[=+@\t\r-]') THEN '''' || ${c} ELSE ${c} END AS ${c}`;
}

type ColumnType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMPTZ';
export type Cell = string | number | boolean | null;

/**
 * Creates `table` with `columns` and appends `rows` through DuckDB's appender (timestamps are
 * given as ISO text and cast by DuckDB; one that does not parse becomes NULL).
 */
export async function loadTable(
  conn: import('@duckdb/node-api').DuckDBConnection,
  table: string,
  columns: ReadonlyArray<readonly [string, ColumnType]>,
  rows: Iterable<readonly Cell[]>,
): Promise<void> {
  const staged = columns.map(([name, type]) => `${sqlIdent(name)} ${type === 'TIMESTAMPTZ' ? 'VARCHAR' : type}`);
  await conn.run(`CREATE TABLE ${sqlIdent(`${table}_in`)} (${staged.join(', ')})`);
  const appender = await conn.createAppender(`${table}_in`);
  for (const row of rows) {
    columns.forEach(([, type], i) => {
      const cell = row[i] ?? null;
      if (cell === null) appender.appendNull();
      else if (type === 'BIGINT') appender.appendBigInt(BigInt(Math.trunc(Number(cell))));
      else if (type === 'DOUBLE') appender.appendDouble(Number(cell));
      else if (type === 'BOOLEAN') appender.appendBoolean(Boolean(cell));
      else appender.appendVarchar(String(cell));
    });
    appender.endRow();
  }
  appender.closeSync();
  const select = columns.map(([name, type]) =>
    type === 'TIMESTAMPTZ' ? `try_cast(${sqlIdent(name)} AS TIMESTAMPTZ) AS ${sqlIdent(name)}` : sqlIdent(name),
  );
  await conn.run(`CREATE TABLE ${sqlIdent(table)} AS SELECT ${select.join(', ')} FROM ${sqlIdent(`${table}_in`)}`);
  await conn.run(`DROP TABLE ${sqlIdent(`${table}_in`)}`);
}
