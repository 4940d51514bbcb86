import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultScenario, type Scenario } from '@usher/booking';
import { startTestServer } from '@usher/server/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';

/** The web host's built page (`npm run build`), served the way `usher serve` serves it. */
export const WEB_ROOT = join(dirname(createRequire(import.meta.url).resolve('@usher/web/package.json')), 'dist');
/** Where the test run leaves its screenshots, for a person to look at. */
export const SCREENSHOTS = fileURLToPath(new URL('../../../../test-results/screenshots/', import.meta.url));

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
} as const;

/** The phone the accessibility and layout tests use (a common 390 × 844 handset). */
export const PHONE_390 = { width: 390, height: 844 } as const;
type Viewport = keyof typeof VIEWPORTS | { width: number; height: number };

/** Debian's Chromium, headless, without the background traffic this machine's closed network refuses. */
export function launchChromium(): Promise<Browser> {
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

/** A relay serving the built page, and a URL of the study page for `room`. */
export async function startPageServer(options: { scenario?: Scenario; secret?: Uint8Array } = {}) {
  const server = await startTestServer({
    webRoot: WEB_ROOT,
    scenario: options.scenario ?? defaultScenario(),
    ...(options.secret && { access: 'token' as const, secret: options.secret }),
  });
  const pageUrl = (room: string, extra = '') =>
    `${server.url}/?room=${room}&study=pilot-01&participant=P07${extra ? `&${extra}` : ''}`;
  return { server, pageUrl };
}

/** A fresh page (its own storage) at a viewport, closed when the test ends. */
export async function openPage(browser: Browser, viewport: Viewport = 'desktop'): Promise<Page> {
  const context = await browser.newContext({
    viewport: typeof viewport === 'string' ? VIEWPORTS[viewport] : viewport,
  });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  onTestFinished(() => {
    if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
  });
  return page;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/** Opens the study page at `url` and waits until it has joined its room as the host. */
export async function openStudyPage(browser: Browser, url: string, viewport: Viewport = 'desktop'): Promise<Page> {
  const page = await openPage(browser, viewport);
  await page.goto(url);
  await page.getByTestId('connection').and(page.locator('[data-state="open"]')).waitFor();
  return page;
}
