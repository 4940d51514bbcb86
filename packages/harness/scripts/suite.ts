/**
 * Runs the agent's scenario suite and prints the report: `npx tsx packages/harness/scripts/suite.ts`
 * (optionally with scenario-file name fragments to run only those, and `--json` for the raw reports).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatReport, loadSuite, runSuite } from '@usher/agent/suite';
import { localHost } from '../src/local-host.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((a) => !a.startsWith('--'));

const logsDir = mkdtempSync(join(tmpdir(), 'usher-suite-'));
const startHost = localHost(logsDir);

try {
  const entries = loadSuite().filter((e) => only.length === 0 || only.some((o) => e.file.includes(o)));
  const reports = await runSuite(entries, startHost);
  console.log(json ? JSON.stringify(reports, null, 2) : formatReport(reports));
} finally {
  rmSync(logsDir, { recursive: true, force: true });
}
