import { callTool, startStudyServer, TestClient } from '@usher/server/testing';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  launchChromium,
  openPage,
  openStudyPage,
  PHONE_390,
  SCREENSHOTS,
  startPageServer,
  WEB_ROOT,
} from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};

/** Presses Tab until the focused element matches `selector`. */
async function tabTo(page: Page, selector: string, limit = 120): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}`
      : '';
  });

/** What the screen shows (fixed layers where they are), for a person to look at. */
const screen = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png` });

async function agentIn(url: string, room: string): Promise<TestClient> {
  const agent = await TestClient.join(url, 'agent', room);
  await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
  return agent;
}

describe('a phone, 390 px wide', () => {
  it('shows the chat as a sheet below the page, opened and closed by keyboard, keeping the focus while open', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = 'sheet-1';
    const page = await openStudyPage(browser, pageUrl(room), PHONE_390);
    const agent = await agentIn(server.url, room);
    const question =
      'I found Orbital Drift tomorrow at 17:30 in IMAX, seats F7 and F8 together, two adults, 31.00 in all. Shall I book it? Say yes, or tell me what to change.';
    agent.send({ v: 'mvp-0.2', type: 'agent.message', payload: { text: question } });

    // The preview shows the whole question, not its first lines.
    const peek = page.locator('.chat-peek__text');
    await peek.filter({ hasText: 'what to change' }).waitFor();
    expect(await peek.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await screen(page, 'phone390-chat-preview');

    await tabTo(page, '[data-testid="chat-toggle"]');
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: 'Assistant' });
    await sheet.waitFor();
    expect(await focused(page)).toBe('textarea[chat-input]');
    // The page stays in sight above the sheet, and cannot be reached while it is open.
    expect((await sheet.boundingBox())?.y).toBeGreaterThan(PHONE_390.height * 0.3);
    expect(await page.evaluate(() => document.querySelector('main')?.inert)).toBe(true);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate(() => document.getElementById('chat')?.contains(document.activeElement))).toBe(true);
    }
    await screen(page, 'phone390-chat-sheet');

    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    expect(await focused(page)).toBe('button[chat-toggle]');
    expect(await page.evaluate(() => document.querySelector('main')?.inert)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

describe('the keyboard', () => {
  it('lands on each new step’s heading, and stays put when the agent changes the stage', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const { server } = await startStudyServer({ webRoot: WEB_ROOT, study: DEMO, registry });
    const page = await openPage(browser, 'desktop');
    await page.goto(`${server.url}/s/${DEMO.id}?participant=keys-1&condition=alone`);
    await page.getByTestId('flow-consent').waitFor();
    await tabTo(page, 'button.button--primary');
    await page.keyboard.press('Enter');
    await page.getByTestId('flow-briefing').waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('[data-testid="flow-briefing"] h1'));
    await tabTo(page, 'button.button--primary');
    await page.keyboard.press('Enter');
    await page.getByTestId('task-bar').waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('.task-bar__title'));

    // On the booking page beside an agent: the agent moves on while the participant is on an option.
    const { server: pages, pageUrl } = await startPageServer();
    const booking = await openStudyPage(browser, pageUrl('keys-2'));
    const agent = await agentIn(pages.url, 'keys-2');
    await tabTo(booking, '[data-testid^="item-"]');
    const spec = (await agent.request('snapshot.get')).payload.uiSpec as { visibleItems: { id: string }[] };
    await callTool(agent, 'select', { itemId: spec.visibleItems[0]?.id }, 'the first');
    await callTool(agent, 'next', {}, 'on');
    await booking.getByTestId('stage-title').filter({ hasText: 'theater' }).waitFor();
    expect(await focused(booking)).toBe('h1[stage-title]');
    expect(await booking.getByTestId('stage-announcement').textContent()).toContain('theater');

    // And while the participant writes in the chat, the focus stays in the chat.
    await booking.getByTestId('chat-input').focus();
    const theaters = (await agent.request('snapshot.get')).payload.uiSpec as { visibleItems: { id: string }[] };
    await callTool(agent, 'select', { itemId: theaters.visibleItems[0]?.id }, 'the first');
    await callTool(agent, 'next', {}, 'on');
    await booking.getByTestId('stage-title').filter({ hasText: 'date' }).waitFor();
    expect(await focused(booking)).toBe('textarea[chat-input]');
  });
});
