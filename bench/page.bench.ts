import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Suite, Table } from './lib/suite.ts';

/** The web host's budget: the JavaScript a participant's browser loads before the page works. */
const BUDGET_GZIP_BYTES = 200 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The scripts `index.html` loads at start: its module entry and everything it preloads. */
function initialScripts(html: string): string[] {
  const entry = [...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => m[1] as string);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1] as string);
  return [...entry, ...preloads];
}

/** Builds the web host as `npm start` does and weighs what the page loads first. */
export const pageSuite: Suite = {
  name: 'Web host: the built page',
  async run({ root, progress }) {
    progress('building packages/web');
    execFileSync('npm', ['run', 'build', '-w', '@usher/web', '--silent'], { cwd: root, stdio: 'ignore' });
    const dist = join(root, 'packages/web/dist');
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const rows: string[][] = [];
    let total = 0;
    for (const src of initialScripts(html)) {
      const bytes = readFileSync(join(dist, src));
      const gzip = gzipSync(bytes, { level: 9 }).length;
      total += gzip;
      rows.push([src, kb(bytes.length), kb(gzip)]);
    }
    const table: Table = {
      title: 'Initial JavaScript of the study page (gzip -9)',
      columns: ['file', 'raw', 'gzip'],
      rows: [...rows, ['total', '', kb(total)]],
      notes: [
        `budget: at most ${kb(BUDGET_GZIP_BYTES)} gzipped: ${kb(total)}, ${total <= BUDGET_GZIP_BYTES ? 'met' : 'MISSED'}`,
      ],
    };
    return [table];
  },
};
