/**
 * Runs the agent's scenario suite and prints the report: `npx tsx packages/agent/scripts/suite.ts`
 * (optionally with scenario-file name fragments to run only those, and `--json` for the raw reports).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@usher/server';
import { formatReport, loadSuite, runSuite, type StartHost } from '../src/suite/index.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((a) => !a.startsWith('--'));

const logsDir = mkdtempSync(join(tmpdir(), 'usher-suite-'));
const startHost: StartHost = async (world) => {
  const server = await startServer({
    port: 0,
    bind: '127.0.0.1',
    room: 'default',
    headlessHost: true,
    scenario: world,
    logsDir,
    warn: () => {},
  });
  return {
    url: server.url,
    room: 'default',
    submitted: () => server.headlessHost?.submitted() ?? null,
    close: () => server.close(),
  };
};

try {
  const entries = loadSuite().filter((e) => only.length === 0 || only.some((o) => e.file.includes(o)));
  const reports = await runSuite(entries, startHost);
  console.log(json ? JSON.stringify(reports, null, 2) : formatReport(reports));
} finally {
  rmSync(logsDir, { recursive: true, force: true });
}
