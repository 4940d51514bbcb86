import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { exportStudy } from '@usher/export';
import { formatProblem, loadStudyFile, StudyFileError } from '@usher/study';

export interface ExportFlags {
  study: string;
  out: string;
  logs: string;
  data: string;
}

/** Problems printed; all of them are in the export's `log_problems` table. */
const SHOWN_PROBLEMS = 10;

/**
 * `usher export --study FILE --out DIR`: the study's data for analysis (README "Data
 * dictionary"), from the registry in `--data` and the study logs in `--logs`. Exit 1 when the
 * study file, the registry or the output folder cannot be used.
 */
export async function runExport(flags: ExportFlags): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`usher export: ${message}\n`);
    return 1;
  };
  if (existsSync(flags.out) && readdirSync(flags.out).length > 0) {
    return fail(
      `${flags.out} is not empty; choose a new or empty folder, so no old file is taken for part of this export`,
    );
  }
  let study: ReturnType<typeof loadStudyFile>;
  try {
    study = loadStudyFile(flags.study);
  } catch (err) {
    if (err instanceof StudyFileError)
      return fail(`${flags.study} cannot be used:\n${err.problems.map(formatProblem).join('\n')}`);
    return fail((err as Error).message);
  }
  // Loaded here, not with the CLI: DuckDB's binding would cost every other command about 25 MB and 65 ms.
  const { exportStudy: run, RegistryReadError } = await import('@usher/export');
  let result: Awaited<ReturnType<typeof exportStudy>>;
  try {
    result = await run({
      study,
      registryPath: join(flags.data, 'registry.sqlite'),
      logsDir: flags.logs,
      outDir: flags.out,
    });
  } catch (err) {
    if (err instanceof RegistryReadError) return fail(err.message);
    throw err;
  }
  const lines = [
    `study "${study.id}" exported to ${result.outDir}`,
    ...result.tables.map((t) => `  ${t.name.padEnd(22)} ${String(t.rows).padStart(9)} rows  (.csv, .parquet)`),
    `  logs/                  ${String(result.logFiles).padStart(9)} files`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  if (result.problemCount > 0) {
    process.stderr.write(`${result.problemCount} log line(s) or file(s) left out (all in log_problems):\n`);
    for (const p of result.problems.slice(0, SHOWN_PROBLEMS)) {
      process.stderr.write(`  ${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.problem}\n`);
    }
  }
  return 0;
}
