import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { startStudyServer, TestClient } from '@usher/server/testing';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { axeFindings } from './axe.ts';
import {
  launchChromium,
  openPage,
  openStudyPage,
  PHONE_390,
  screenshot,
  startPageServer,
  WEB_ROOT,
} from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const SIZES = { desktop: 'desktop', phone: PHONE_390 } as const;
type Size = keyof typeof SIZES;

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};
const SECRET = new TextEncoder().encode('an-a11y-e2e-secret-of-enough-length-0123456789abcdef');

/** Every serious or critical axe finding met on the way, by the page it was on. */
function findingsLog() {
  const all: Record<string, string[]> = {};
  return {
    async check(page: Page, label: string) {
      const found = await axeFindings(page, label);
      if (found.length > 0) all[label] = found;
    },
    expectNone() {
      expect(all).toEqual({});
    },
  };
}

/** Presses Tab until the focused element matches, and returns its test id. */
async function tabTo(page: Page, match: (testId: string) => boolean, limit = 250): Promise<string> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const testId = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    if (match(testId)) return testId;
  }
  throw new Error('Tab never reached the control');
}

const SIZES_PX = { desktop: 1280, phone: PHONE_390.width } as const;
/** How wide the page's content is: wider than the screen means the page scrolls sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

const onStage = (page: Page, title: string) => page.getByTestId('stage-title').filter({ hasText: title }).waitFor();

describe.each(Object.keys(SIZES) as Size[])('pages anyone can use, on %s', (size) => {
  it('a booking with the keyboard alone, every stage without a serious or critical axe finding', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = `a11y-${size}`;
    const page = await openStudyPage(browser, pageUrl(room), SIZES[size]);
    const agent = await TestClient.join(server.url, 'agent', room);
    await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    agent.send({ v: 'mvp-0.2', type: 'agent.message', payload: { text: 'Hello! Which film would you like to see?' } });
    const axe = findingsLog();
    const stages = ['movie', 'theater', 'date', 'time'] as const;
    for (const stage of stages) {
      await onStage(page, stage);
      await axe.check(page, `booking ${stage} (${size})`);
      expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
      const item = await tabTo(page, (id) => id.startsWith('item-'));
      await page.keyboard.press('Enter');
      await page.locator(`[data-testid="${item}"][aria-pressed="true"]`).waitFor();
      await tabTo(page, (id) => id === 'next');
      await page.keyboard.press('Enter');
    }
    await onStage(page, 'seats');
    await screenshot(page, `a11y-${size}-seat`);
    await axe.check(page, `booking seat (${size})`);
    // A map wider than the screen says so, and can be scrolled from the keyboard.
    if (size === 'phone') {
      await page.getByText('scroll the map sideways').waitFor();
      expect(await page.getByRole('region', { name: 'Seat map' }).getAttribute('tabindex')).toBe('0');
    }
    expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
    const seat = await tabTo(page, (id) => id.startsWith('item-'));
    await page.keyboard.press('Space');
    await page.locator(`[data-testid="${seat}"][aria-pressed="true"]`).waitFor();
    // The stage again with a seat chosen (the seat then shows its number).
    await axe.check(page, `booking seat chosen (${size})`);
    await tabTo(page, (id) => id === 'next');
    await page.keyboard.press('Enter');
    await onStage(page, 'tickets');
    await axe.check(page, `booking ticket (${size})`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
    await tabTo(page, (id) => id === 'inc-adult');
    await page.keyboard.press('Enter');
    await page.getByTestId('qty-adult').filter({ hasText: '1' }).waitFor();
    await tabTo(page, (id) => id === 'next');
    await page.keyboard.press('Enter');
    await onStage(page, 'Confirm');
    await axe.check(page, `booking confirm (${size})`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
    await tabTo(page, (id) => id === 'next');
    await page.keyboard.press('Enter');
    await page.getByTestId('confirmation').waitFor();
    await axe.check(page, `booking confirmation (${size})`);
    await screenshot(page, `a11y-${size}-confirmation`);
    axe.expectNone();
  }, 60_000);

  it('the study’s pages, consent to the end, without a serious or critical axe finding', async () => {
    const registryPath = join(mkdtempSync(join(tmpdir(), 'usher-a11y-e2e-')), 'registry.sqlite');
    onTestFinished(() => rmSync(dirname(registryPath), { recursive: true, force: true }));
    const registry = new StudyRegistry(registryPath);
    onTestFinished(() => registry.close());
    const { server } = await startStudyServer({ webRoot: WEB_ROOT, study: DEMO, registry, registryPath });
    const page = await openPage(browser, SIZES[size]);
    const axe = findingsLog();
    await page.goto(`${server.url}/s/${DEMO.id}?participant=a11y-${size}&condition=autopilot`);
    await page.getByTestId('flow-consent').waitFor();
    await axe.check(page, `consent (${size})`);
    await page.getByRole('button', { name: 'I agree, start the study' }).click();
    await page.getByTestId('flow-briefing').waitFor();
    await axe.check(page, `briefing (${size})`);
    for (let task = 1; task <= 2; task++) {
      await page.getByRole('button', { name: 'Start the task' }).click();
      await page.getByTestId('task-bar').waitFor();
      await page.getByTestId('connection').and(page.locator('[data-state="open"]')).waitFor();
      await page.locator('[data-testid="chat-message"][data-role="agent"]').first().waitFor({ state: 'attached' });
      await axe.check(page, `task ${task} (${size})`);
      await screenshot(page, `a11y-${size}-task-${task}`);
      if (size === 'phone' && task === 1) {
        await page.getByTestId('chat-toggle').click();
        await page.getByTestId('chat-input').waitFor();
        await axe.check(page, `task, chat open (${size})`);
        await screenshot(page, `a11y-${size}-task-chat`);
        await page.keyboard.press('Escape');
      }
      await page.getByRole('button', { name: 'Give up' }).click();
      await page.getByRole('button', { name: 'Yes, give up' }).click();

      // Every questionnaire screen, answered (the attention check as asked), to the next briefing or the end.
      for (let screen = 0; screen < 8; screen++) {
        const form = page.locator('form.questionnaire');
        const next = page.getByTestId('flow-briefing').or(page.getByTestId('flow-end'));
        await form.or(next).first().waitFor();
        if (await next.isVisible()) break;
        const title = (await form.getByRole('heading', { level: 1 }).textContent()) ?? '';
        await axe.check(page, `questionnaire “${title}” (${size})`);
        // Every point of a scale is a target a thumb can hit, and the screen does not scroll sideways.
        expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
        const points = await form
          .locator('.likert__point')
          .evaluateAll((els) =>
            els.map((el) => Math.min(el.getBoundingClientRect().width, el.getBoundingClientRect().height)),
          );
        expect(Math.min(44, ...points)).toBe(44);
        await screenshot(page, `a11y-${size}-questionnaire-${task}-${screen}`);
        for (const item of await form.locator('fieldset').all()) {
          const often = item.getByLabel('Often', { exact: true });
          if (await often.count()) await often.check();
          else if (await item.locator('input[type="radio"]').count())
            await item.locator('input[type="radio"]').first().check();
        }
        await form.getByRole('button', { name: /Next|Submit answers|Continue/ }).click();
        await page.waitForFunction((t) => document.querySelector('form.questionnaire h1')?.textContent !== t, title);
      }
      if (task === 1) {
        await page.getByTestId('flow-briefing').waitFor();
        await axe.check(page, `briefing 2 (${size})`);
      }
    }
    await page.getByTestId('flow-end').waitFor();
    await axe.check(page, `end (${size})`);
    await screenshot(page, `a11y-${size}-end`);
    axe.expectNone();
  }, 60_000);

  it('the console: participants, a room watched, a replay, without a serious or critical axe finding, as wide as the screen', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const { server } = await startStudyServer({
      webRoot: WEB_ROOT,
      access: 'token',
      secret: SECRET,
      study: DEMO,
      registry,
    });
    const capabilities = server.capabilities as NonNullable<typeof server.capabilities>;
    const link = await fetch(`${server.url}/s/${DEMO.id}?PROLIFIC_PID=a11y-${size}&condition=autopilot`, {
      redirect: 'manual',
    });
    const url = new URL(link.headers.get('location') as string, server.url);
    const room = url.searchParams.get('room') as string;
    const token = url.searchParams.get('token') as string;
    const step = (body: object) =>
      fetch(`${server.url}/api/participant/step`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    await step({ step: 'consent' });
    await step({ step: 'start-task' });
    const taskId = registry.byRoom(room)?.plan.tasks[0]?.taskId;
    const task = DEMO.tasks.find((t) => t.id === taskId);
    if (!task) throw new Error('no task');
    const host = await FaultyHost.join({ url: server.url, room, scenario: task.world, token });
    onTestFinished(() => host.close());
    host.act('select', { itemId: host.protocol.view().uiSpec?.visibleItems[0]?.id as string });
    const experimenter = await capabilities.issue({ kind: 'experimenter', name: 'Ada' });

    const page = await openPage(browser, SIZES[size]);
    const axe = findingsLog();
    await page.goto(`${server.url}/console?token=${experimenter}`);
    const row = page.locator(`[data-testid="participant-row"][data-room="${room}"]`);
    await row.getByTestId('participant-stage').filter({ hasText: 'movie' }).waitFor();
    await axe.check(page, `console participants (${size})`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
    await screenshot(page, `a11y-${size}-console`);
    await row.getByRole('button', { name: /Watch/ }).click();
    const watch = page.getByTestId('watch');
    await watch.getByTestId('stage-title').waitFor();
    await watch.getByTestId('agent-feed').getByText(/Plan:/).first().waitFor();
    await axe.check(page, `console watch (${size})`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
    await screenshot(page, `a11y-${size}-console-watch`);
    await step({ step: 'end-task', outcome: 'done' });
    await page.getByRole('button', { name: 'Replay' }).first().click();
    await page.getByTestId('sessions').getByRole('button', { name: 'Replay' }).first().click();
    await page.getByTestId('replay').getByTestId('stage-title').waitFor();
    await axe.check(page, `console replay (${size})`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SIZES_PX[size]);
    await screenshot(page, `a11y-${size}-console-replay`);
    axe.expectNone();
  }, 60_000);
});
