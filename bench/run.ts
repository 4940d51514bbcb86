/**
 * `npm run bench`: runs every suite in turn and prints its tables. Figures are printed next to
 * their targets, never asserted. `BENCH_QUICK=1` shortens every phase for a smoke run; words after
 * `npm run bench --` pick suites by name (`npm run bench -- relay`).
 */
import { fileURLToPath } from 'node:url';
import { agentSuite } from './agent.bench.ts';
import { exportSuite } from './export.bench.ts';
import { loadSuite } from './human.bench.ts';
import type { Suite } from './lib/suite.ts';
import { formatTable } from './lib/table.ts';
import { pageSuite } from './page.bench.ts';
import { relaySuite } from './relay.bench.ts';
import { stdioSuite } from './stdio.bench.ts';
import { studySuite } from './study.bench.ts';
import { syncSuite } from './sync.bench.ts';

/** Add a suite here to have it run and printed. */
const SUITES: Suite[] = [pageSuite, relaySuite, agentSuite, syncSuite, stdioSuite, studySuite, loadSuite, exportSuite];

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.env.BENCH_QUICK === '1';

/** `npm run bench -- relay sync` runs only the suites whose names contain one of the words. */
const only = process.argv.slice(2).map((word) => word.toLowerCase());

async function main(): Promise<void> {
  console.log(`Usher bench${quick ? ' (BENCH_QUICK=1: short phases)' : ''} · Node ${process.version}`);
  const chosen = SUITES.filter((s) => only.length === 0 || only.some((word) => s.name.toLowerCase().includes(word)));
  if (chosen.length === 0) throw new Error(`no suite matches ${only.join(', ')}`);
  for (const suite of chosen) {
    console.log(`\n== ${suite.name}`);
    const started = Date.now();
    const tables = await suite.run({
      quick,
      root,
      progress: (line) => console.log(`  … ${line} (${((Date.now() - started) / 1000).toFixed(0)} s)`),
    });
    for (const table of tables) console.log(`\n${formatTable(table)}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
