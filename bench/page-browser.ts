import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

/** A slow phone on a slow network, as Lighthouse's mobile preset simulates it. */
export const THROTTLING = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downKbps: 1600,
  upKbps: 750,
} as const;

/** What one page load cost: the bytes on the wire, and when the first and the largest paint came. */
export interface PageLoad {
  /** Bytes received for every request of the load (headers included), the study link's redirect too. */
  bytes: number;
  /** Requests made, and the scripts among them. */
  requests: number;
  scripts: string[];
  fcpMs: number;
  lcpMs: number;
}

/** The pages a participant and an experimenter open, each reached as they reach it. */
export type PageName = 'consent' | 'consent, again' | 'questionnaire' | 'task' | 'console';
export const PAGES: PageName[] = ['consent', 'consent, again', 'questionnaire', 'task', 'console'];

/** One `usher serve --study studies/demo.study.yaml` of a checkout, its own process and folders. */
export interface PageServer {
  base: string;
  stop(): Promise<void>;
}

export async function startPageServer(root: string, limits: string[] = []): Promise<PageServer> {
  const work = mkdtempSync(join(tmpdir(), 'usher-bench-page-'));
  const forget = atExit(() => rmSync(work, { recursive: true, force: true }));
  const server: RunningChild = await startNodeChild({
    name: 'usher page',
    args: [
      'packages/cli/bin/usher.js',
      'serve',
      '--port',
      '0',
      '--study',
      'studies/demo.study.yaml',
      '--data',
      join(work, 'data'),
      '--logs',
      join(work, 'logs'),
      '--limit',
      'admissionsPerMinute=100000',
      '--limit',
      'maxTasksPerAddress=100000',
      ...limits,
    ],
    cwd: root,
    portPattern: LISTENING,
  });
  return {
    base: `http://127.0.0.1:${server.port}`,
    async stop() {
      await server.stop();
      rmSync(work, { recursive: true, force: true });
      forget();
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.USHER_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

let admitted = 0;

/** The demo study's link for a new participant. */
export const studyLink = (base: string) => `${base}/s/demo-01?PROLIFIC_PID=bench-${process.pid}-${++admitted}`;

/** A new participant of the demo study, moved on through the API to `upTo`; the address of their page. */
export async function participantPage(base: string, upTo: 'task' | 'questionnaire'): Promise<string> {
  const link = await fetch(studyLink(base), {
    redirect: 'manual',
  });
  const location = link.headers.get('location');
  if (!location) throw new Error(`the study link answered HTTP ${link.status} without a page to go to`);
  const page = new URL(location, base);
  const step = async (body: object) => {
    const response = await fetch(`${base}/api/participant/step${page.search}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: base },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`step ${JSON.stringify(body)}: HTTP ${response.status} ${await response.text()}`);
  };
  await step({ step: 'consent' });
  await step({ step: 'start-task' });
  if (upTo === 'questionnaire') await step({ step: 'end-task', outcome: 'gave-up', taskIndex: 0 });
  return page.href;
}

/** What shows once the page has drawn what it is for. */
const READY: Record<PageName, string> = {
  consent: '[data-testid="flow-consent"]',
  'consent, again': '[data-testid="flow-consent"]',
  questionnaire: '[data-testid^="questionnaire-"]',
  task: '[data-testid="task-bar"]',
  console: '[data-testid="participants"]',
};

/**
 * Loads one page in a fresh browser context (an empty cache), with the CPU slowed down and the
 * network throttled through the DevTools protocol; `consent, again` opens a second study link in a
 * context that has loaded the consent page once (what its cache saves).
 */
export async function loadPage(
  browser: Browser,
  base: string,
  name: PageName,
  headers?: Record<string, string>,
): Promise<PageLoad> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    ...(headers && { extraHTTPHeaders: headers }),
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: THROTTLING.latencyMs,
      downloadThroughput: (THROTTLING.downKbps * 1000) / 8,
      uploadThroughput: (THROTTLING.upKbps * 1000) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
    let url: string;
    if (name === 'consent' || name === 'consent, again') {
      url = studyLink(base);
      if (name === 'consent, again') {
        await page.goto(url);
        await page.locator(READY.consent).waitFor({ timeout: 60_000 });
        url = studyLink(base);
      }
    } else if (name === 'console') {
      url = `${base}/console`;
    } else {
      url = await participantPage(base, name);
    }
    const bytes = new Map<string, number>();
    const urls = new Map<string, string>();
    cdp.on('Network.responseReceived', (event) => urls.set(event.requestId, event.response.url));
    cdp.on('Network.loadingFinished', (event) => bytes.set(event.requestId, event.encodedDataLength));
    // A redirect's bytes are reported with the request it turned into.
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.redirectResponse) {
        bytes.set(`${event.requestId}:redirect`, event.redirectResponse.encodedDataLength);
      }
    });
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.locator(READY[name]).first().waitFor({ timeout: 60_000 });
    // Let the largest paint settle (a late image or font would replace the candidate).
    await page.waitForTimeout(500);
    const paints = await page.evaluate(
      () =>
        new Promise<{ fcp: number; lcp: number }>((resolve) => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
          let lcp = Number.NaN;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) lcp = entry.startTime;
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          setTimeout(() => resolve({ fcp, lcp }), 50);
        }),
    );
    const scripts = [...urls.values()]
      .filter((u) => u.endsWith('.js'))
      .map((u) => new URL(u).pathname.replace(/^\/assets\//, ''));
    return {
      bytes: [...bytes.values()].reduce((sum, n) => sum + n, 0),
      requests: bytes.size,
      scripts,
      fcpMs: paints.fcp,
      lcpMs: paints.lcp,
    };
  } finally {
    await context.close();
  }
}

/** Lighthouse's scores and paints for one page (its default: the mobile preset, simulated throttling). */
export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
}

/**
 * Runs the Lighthouse CLI at `cli` (installed apart from the project, e.g. `npm install --prefix
 * /tmp/lh lighthouse@12`) on `url` with Debian's Chromium.
 */
export function lighthouse(cli: string, url: string): LighthouseRun {
  const out = execFileSync(
    cli,
    [
      url,
      '--quiet',
      '--output=json',
      '--output-path=stdout',
      '--only-categories=performance,accessibility,best-practices',
      '--chrome-flags=--headless --no-sandbox --disable-gpu',
    ],
    {
      env: { ...process.env, CHROME_PATH: process.env.USHER_CHROMIUM ?? '/usr/bin/chromium' },
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const report = JSON.parse(out.toString()) as {
    categories: Record<string, { score: number }>;
    audits: Record<string, { numericValue?: number }>;
  };
  const score = (id: string) => Math.round((report.categories[id]?.score ?? Number.NaN) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcpMs: report.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
    lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
  };
}
