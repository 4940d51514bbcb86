/**
 * The analysis export (`usher export`) of a synthetic study: 1,000 participants of the demo study
 * (2,000 participant tasks, one study log each, as the relay writes them, with the real engine's
 * uiSpecs), against two baselines measured in the same run on the same files: copying the logs
 * (`cp`, the floor of any export that keeps them) and DuckDB reading them (`read_ndjson`, the
 * floor of any export that parses them). Aim: under 10 s on the project's 2-core machine.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportStudy } from '@usher/export';
import { writeSyntheticStudy } from '@usher/export/testing';
import { loadStudyFile } from '@usher/study';
import type { Suite } from './lib/suite.ts';
import { num } from './lib/table.ts';

/** Wall time, and the process's CPU time (DuckDB's threads run in this process): on a shared machine the CPU time moves less. */
async function timed<T>(run: () => Promise<T> | T): Promise<{ ms: number; cpuMs: number; value: T }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, value };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export const exportSuite: Suite = {
  name: 'export',
  async run({ quick, root, progress }) {
    const participants = quick ? 100 : 1000;
    const runs = quick ? 1 : 3;
    const study = loadStudyFile(join(root, 'studies/demo.study.yaml'));
    const dir = mkdtempSync(join(tmpdir(), 'usher-bench-export-'));
    try {
      const logsDir = join(dir, 'logs');
      const registryPath = join(dir, 'registry.sqlite');
      progress(`writing a synthetic study of ${participants} participants`);
      writeSyntheticStudy({ study, participants, logsDir, registryPath });
      const files = readdirSync(logsDir);
      const bytes = files.reduce((sum, f) => sum + statSync(join(logsDir, f)).size, 0);
      const exports: number[] = [];
      const copies: number[] = [];
      const reads: number[] = [];
      const cpu = { exports: [] as number[], copies: [] as number[], reads: [] as number[] };
      let rows = 0;
      for (let i = 0; i < runs; i++) {
        progress(`run ${i + 1} of ${runs}`);
        const out = join(dir, `out-${i}`);
        const done = await timed(() => exportStudy({ study, registryPath, logsDir, outDir: out }));
        exports.push(done.ms);
        cpu.exports.push(done.cpuMs);
        rows = done.value.tables.find((t) => t.name === 'events')?.rows ?? 0;
        rmSync(out, { recursive: true, force: true });
        const copied = await timed(() => cpSync(logsDir, join(dir, 'copy'), { recursive: true }));
        copies.push(copied.ms);
        cpu.copies.push(copied.cpuMs);
        rmSync(join(dir, 'copy'), { recursive: true, force: true });
        const read = await timed(async () => {
          const db = await DuckDBInstance.create(':memory:');
          const conn = await db.connect();
          await conn.run(
            `CREATE TABLE t AS SELECT * FROM read_ndjson('${logsDir}/*.jsonl', columns = {sessionId: 'VARCHAR', eventIndex: 'BIGINT', type: 'VARCHAR', payload: 'JSON'}, format = 'newline_delimited')`,
          );
          conn.closeSync();
          db.closeSync();
        });
        reads.push(read.ms);
        cpu.reads.push(read.cpuMs);
      }
      const exportMs = median(exports);
      const exportCpu = median(cpu.exports);
      const row = (label: string, wall: number[], used: number[]) => [
        label,
        `${num(median(wall) / 1000, 2)} s`,
        `${num(median(wall) / exportMs, 2)}×`,
        `${num(median(used) / 1000, 2)} s`,
        `${num(median(used) / exportCpu, 2)}×`,
      ];
      return [
        {
          title: `Export of a synthetic study: ${num(participants)} participants, ${num(files.length)} logs, ${num(bytes / 2 ** 20, 0)} MiB, ${num(rows)} records (median of ${runs})`,
          columns: ['', 'wall', 'vs export', 'CPU', 'vs export'],
          rows: [
            row('usher export (every table, CSV and Parquet, logs copied)', exports, cpu.exports),
            row('baseline: copy the logs (cp)', copies, cpu.copies),
            row('baseline: DuckDB reads the logs (read_ndjson)', reads, cpu.reads),
          ],
          notes: [
            `aim: under 10 s for 1,000 participants; runs: ${exports.map((ms) => num(ms / 1000, 2)).join(', ')} s`,
            `load average at the end: ${loadavg()
              .map((n) => num(n, 1))
              .join(', ')} (wall times stretch on a busy machine; the CPU time less)`,
          ],
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
