import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capability } from '@usher/relay';
import type { Study } from '@usher/study';
import type { Hono } from 'hono';

export interface ExportRouteOptions {
  study: Study;
  /** The registry file of the study's participants (`<data>/registry.sqlite`). */
  registryPath: string;
  logsDir: string;
  warn: (line: string) => void;
  now?: () => Date;
}

/**
 * The experimenter's download of the analysis export (README "Data dictionary"):
 * `GET /api/studies/<study id>/export.zip` makes the export afresh (every table as CSV and
 * Parquet, the raw logs, `export.json`) and streams it as a zip. An experimenter credential is
 * needed (or open mode). One export runs at a time: a second request meanwhile gets 429.
 */
export function mountExportRoutes(
  app: Hono<{ Variables: { capability: Capability | null } }>,
  options: ExportRouteOptions,
): void {
  let running = false;
  const fail = (code: string, message: string, status: 401 | 403 | 404 | 429 | 500) =>
    Response.json({ error: { code, message } }, { status });

  app.get('/api/studies/:studyId/export.zip', async (c) => {
    const capability = c.get('capability');
    if (capability?.kind !== 'open' && capability?.kind !== 'experimenter') {
      return capability === null
        ? fail('UNAUTHORIZED', 'the export needs an experimenter credential', 401)
        : fail('FORBIDDEN', 'this credential does not allow the export (an experimenter credential)', 403);
    }
    if (c.req.param('studyId') !== options.study.id) return fail('NOT_FOUND', 'no such study on this server', 404);
    // Loaded on the first download: DuckDB's binding costs every server about 25 MB and 65 ms at start otherwise.
    // Before the lock is taken, so a failed load cannot leave it held.
    const { exportStudy, RegistryReadError, zipFolder } = await import('@usher/export');
    if (running) return fail('TOO_MANY_REQUESTS', 'an export is already being made; try again when it is done', 429);
    running = true;
    const dir = mkdtempSync(join(tmpdir(), 'usher-export-'));
    const cleanUp = () => {
      running = false;
      rmSync(dir, { recursive: true, force: true });
    };
    try {
      const result = await exportStudy({
        study: options.study,
        registryPath: options.registryPath,
        logsDir: options.logsDir,
        outDir: dir,
        ...(options.now && { now: options.now }),
      });
      if (result.problemCount > 0) options.warn(`export: ${result.problemCount} log line(s) left out (log_problems)`);
    } catch (err) {
      cleanUp();
      if (err instanceof RegistryReadError) return fail('NOT_FOUND', err.message, 404);
      options.warn(`export of ${options.study.id} failed: ${(err as Error).stack ?? err}`);
      return fail('INTERNAL', 'the export failed; the server log says why', 500);
    }
    return new Response(zipFolder(dir, cleanUp), {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${options.study.id}-export.zip"`,
        'Cache-Control': 'no-store',
      },
    });
  });
}
