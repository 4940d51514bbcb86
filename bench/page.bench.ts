import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { Suite, SuiteOptions, Table } from './lib/suite.ts';
import { num } from './lib/table.ts';
import {
  type LighthouseRun,
  launchBrowser,
  lighthouse,
  loadPage,
  PAGES,
  type PageLoad,
  type PageName,
  participantPage,
  startPageServer,
  studyLink,
  THROTTLING,
} from './page-browser.ts';

/** The web host's budget: the JavaScript a participant's browser loads before the page works. */
const BUDGET_GZIP_BYTES = 200 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${num(value)} ms`;
const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : '–');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The scripts `index.html` loads at start: its module entry and everything it preloads. */
function initialScripts(html: string): string[] {
  const entry = [...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => m[1] as string);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1] as string);
  return [...entry, ...preloads];
}

function build(root: string): void {
  execFileSync('npm', ['run', 'build', '-w', '@usher/web', '--silent'], { cwd: root, stdio: 'ignore' });
}

/** The JavaScript `index.html` loads at start, gzipped at level 9, against the budget. */
function initialWeight(root: string): Table {
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
  return {
    title: 'Initial JavaScript of the study page (gzip -9)',
    columns: ['file', 'raw', 'gzip'],
    rows: [...rows, ['total', '', kb(total)]],
    notes: [
      `budget: at most ${kb(BUDGET_GZIP_BYTES)} gzipped: ${kb(total)}, ${total <= BUDGET_GZIP_BYTES ? 'met' : 'MISSED'}`,
    ],
  };
}

interface Side {
  label: string;
  base: string;
  /** Headers the browser sends with every request (the no-compression baseline asks for none). */
  headers?: Record<string, string>;
  loads: Map<PageName, PageLoad[]>;
}

/**
 * Each page of the demo study opened in Chromium under a slow phone's throttling, this checkout
 * against a baseline measured in the same run, the loads alternating between the two: another
 * checkout (`BENCH_PAGE_BASELINE=<its root>`, as built there, served by its own `usher serve`), or else
 * this one with the browser asking for no compression.
 */
async function browserTables(options: SuiteOptions): Promise<Table[]> {
  const baselineRoot = process.env.BENCH_PAGE_BASELINE ? resolve(process.env.BENCH_PAGE_BASELINE) : null;
  // The baseline is served as it is built (`npm run build` there): another checkout's page may be in use.
  if (baselineRoot && !existsSync(join(baselineRoot, 'packages/web/dist/index.html'))) {
    throw new Error(`${baselineRoot} is not built: run npm run build there first`);
  }
  const current = await startPageServer(options.root);
  const baselineServer = baselineRoot ? await startPageServer(baselineRoot) : null;
  let browser: Browser | null = null;
  try {
    browser = await launchBrowser();
    const sides: Side[] = [
      {
        label: baselineRoot ? 'baseline' : 'baseline (no compression)',
        base: (baselineServer ?? current).base,
        ...(!baselineRoot && { headers: { 'Accept-Encoding': 'identity' } }),
        loads: new Map(),
      },
      { label: 'this checkout', base: current.base, loads: new Map() },
    ];
    const runs = options.quick ? 1 : 3;
    for (let run = 0; run < runs; run++) {
      options.progress(`page loads, round ${run + 1} of ${runs}`);
      for (const name of PAGES) {
        for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
          const load = await loadPage(browser, side.base, name, side.headers);
          side.loads.set(name, [...(side.loads.get(name) ?? []), load]);
        }
      }
    }
    const [base, mine] = sides as [Side, Side];
    const figure = (side: Side, name: PageName, pick: (load: PageLoad) => number) =>
      median((side.loads.get(name) ?? []).map(pick));
    const measures: [(load: PageLoad) => number, (value: number) => string][] = [
      [(l) => l.bytes, kb],
      [(l) => l.fcpMs, ms],
      [(l) => l.lcpMs, ms],
    ];
    const rows = PAGES.map((name) => [
      name,
      ...measures.flatMap(([pick, show]) => {
        const b = figure(base, name, pick);
        const m = figure(mine, name, pick);
        return [show(b), show(m), ratio(m, b)];
      }),
    ]);
    /** A page's scripts by name (without their hashes), in the order they came. */
    const scriptsOf = (side: Side, name: PageName) =>
      [...new Set((side.loads.get(name)?.[0]?.scripts ?? []).map((s) => s.replace(/-[\w-]{8}\.js$/, '')))].join(', ');
    const scripts = PAGES.map((name) => [name, scriptsOf(mine, name), scriptsOf(base, name)]);
    const tables: Table[] = [];
    const cli = process.env.BENCH_LIGHTHOUSE;
    if (cli) {
      options.progress('Lighthouse (mobile preset) on the consent page, a questionnaire and the console');
      const rows: string[][] = [];
      for (const side of sides) {
        const pages: [string, () => Promise<string>][] = [
          ['consent (the study link)', async () => studyLink(side.base)],
          ['questionnaire', () => participantPage(side.base, 'questionnaire')],
          ['console', async () => `${side.base}/console`],
        ];
        for (const [name, url] of pages) {
          const run: LighthouseRun = lighthouse(cli, await url());
          rows.push([
            `${side.label}: ${name}`,
            String(run.performance),
            String(run.accessibility),
            String(run.bestPractices),
            ms(run.fcpMs),
            ms(run.lcpMs),
          ]);
        }
      }
      tables.push({
        title: `Lighthouse, mobile preset (${cli})`,
        columns: ['page', 'performance', 'accessibility', 'best practices', 'FCP', 'LCP'],
        rows,
        notes: ['aims: performance at least 95, accessibility 100, best practices 100'],
      });
    }
    return [
      ...tables,
      {
        title: `Pages of the demo study in Chromium, CPU ${THROTTLING.cpuSlowdown}× slower, ${THROTTLING.downKbps / 1000} Mbps down, ${THROTTLING.latencyMs} ms RTT (median of ${runs})`,
        columns: ['page', 'bytes, base', 'this', 'ratio', 'FCP, base', 'this', 'ratio', 'LCP, base', 'this', 'ratio'],
        rows,
        notes: [
          `baseline: ${base.label}${baselineRoot ? ` (${baselineRoot})` : ''}; bytes are all the page's responses as received, headers and the study link's redirect included`,
          '`consent, again` opens a second study link in a browser that has loaded the consent page once',
        ],
      },
      {
        title: 'Scripts each page loaded (this checkout, then the baseline)',
        columns: ['page', 'this', 'baseline'],
        rows: scripts,
      },
    ];
  } finally {
    await browser?.close();
    await baselineServer?.stop();
    await current.stop();
  }
}

/** Builds the web host as `npm start` does, weighs what the page loads first, and loads each page in a browser. */
export const pageSuite: Suite = {
  name: 'Web host: the built page',
  async run(options) {
    options.progress('building packages/web');
    build(options.root);
    const tables = [initialWeight(options.root)];
    if (process.env.BENCH_PAGE_BROWSER !== '0') tables.push(...(await browserTables(options)));
    return tables;
  },
};
