import { DuckDBInstance } from '@duckdb/node-api';
import { sqlString } from './sql.ts';

/**
 * Reads one table of an export back (its Parquet file, `<outDir>/<name>.parquet`) as plain
 * objects: for tests and scripts that check what an export holds. Timestamps come back as ISO
 * text, counts as numbers.
 */
export async function readExportTable(path: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    const reader = await conn.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(path)})`);
    return reader.getRowObjectsJson() as Array<Record<string, unknown>>;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Reads a CSV file of an export back, every cell as text (as R or pandas see it before typing). */
export async function readExportCsv(path: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll(
      `SELECT * FROM read_csv(${sqlString(path)}, header = true, all_varchar = true)`,
    );
    return reader.getRowObjectsJson() as Array<Record<string, unknown>>;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
