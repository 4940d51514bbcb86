import { readdirSync } from 'node:fs';
import type { StudyLogRecord } from '@usher/protocol';
import { readLog, startStudyServer } from '@usher/server/testing';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot, WEB_ROOT } from './browser.ts';

/*
 * The demo study's agent beside a participant in Chromium: it acts on the booking only when asked.
 * A participant's click alone starts nothing; after an experimenter hands the room back with no
 * request in the chat, the agent waits; asked for "the earliest comedy on saturday", it books the
 * earliest comedy showing of that Saturday in any theater.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const SECRET = new TextEncoder().encode('an-asked-e2e-secret-of-enough-length-0123456789abcdef');
const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};
/** Long enough for an agent that acted on its own to have sent its first calls (it has no pace here). */
const QUIET_MS = 2500;

async function study() {
  const { server } = await startStudyServer({
    webRoot: WEB_ROOT,
    access: 'token',
    secret: SECRET,
    study: DEMO,
    registry: new StudyRegistry(':memory:'),
  });
  const capabilities = server.capabilities as NonNullable<typeof server.capabilities>;
  const experimenter = await capabilities.issue({ kind: 'experimenter', name: 'Ada' });
  return { server, experimenter };
}

/** A participant on the autopilot condition, through consent and the briefing, on the booking page with the agent's greeting. */
async function participant(url: string, id: string): Promise<{ page: Page; room: string }> {
  const page = await openPage(browser, 'desktop');
  await page.goto(`${url}/s/${DEMO.id}?PROLIFIC_PID=${id}&condition=autopilot`);
  await page.getByRole('button', { name: 'I agree, start the study' }).click();
  await page.getByRole('button', { name: 'Start the task' }).click();
  await page.getByTestId('connection').and(page.locator('[data-state="open"]')).waitFor();
  await page.locator('[data-testid="chat-message"][data-role="agent"]').first().waitFor();
  const room = await page.evaluate(() => new URL(location.href).searchParams.get('room'));
  if (!room) throw new Error('the page names no room');
  return { page, room };
}

/** Every record of the study logs (each test has one participant, so one room). */
function logOf(logsDir: string): StudyLogRecord[] {
  return readdirSync(logsDir)
    .filter((f) => f.endsWith('.jsonl') && !f.includes('questionnaires'))
    .flatMap((f) => readLog(`${logsDir}/${f}`));
}

const agentCalls = (log: StudyLogRecord[]) =>
  log.filter((r) => r.type === 'tool.call' && r.direction === 'in' && !r.peer?.startsWith('experimenter-'));

describe('the agent beside a participant acts only when asked', () => {
  it('a click alone starts nothing, and after a hand-back with no request it waits', async () => {
    const { server, experimenter } = await study();
    const { page, room } = await participant(server.url, 'asked-click');

    await page.locator('[data-testid^="item-"]:not([disabled])').first().click();
    await page.waitForTimeout(QUIET_MS);
    expect(agentCalls(logOf(server.logsDir))).toEqual([]);
    await page.getByTestId('stage-title').filter({ hasText: /movie/i }).waitFor();

    // An experimenter takes the room over and hands it back; nobody has asked for anything.
    const console = (action: string, body: object) =>
      fetch(`${server.url}/api/console/rooms/${room}/${action}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${experimenter}` },
        body: JSON.stringify(body),
      });
    expect((await console('take-over', { reason: 'checking the agent waits' })).status).toBe(200);
    await page.getByTestId('next').click();
    await page
      .getByTestId('stage-title')
      .filter({ hasText: /theater/i })
      .waitFor();
    expect((await console('hand-back', {})).status).toBe(200);
    await page.waitForTimeout(QUIET_MS);
    expect(agentCalls(logOf(server.logsDir))).toEqual([]);
    await page
      .getByTestId('stage-title')
      .filter({ hasText: /theater/i })
      .waitFor();
    const greetings = await page
      .locator('[data-testid="chat-message"][data-role="agent"]')
      .filter({ hasText: 'What would you like to see?' })
      .count();
    expect(greetings).toBe(1);
    await screenshot(page, 'agent-waits-after-hand-back');
  }, 60_000);

  it('"2 adults for the earliest comedy on saturday" books the earliest comedy of that Saturday in any theater', async () => {
    const { server } = await study();
    const { page } = await participant(server.url, 'asked-comedy');
    await page.getByTestId('chat-input').fill('2 adults for the earliest comedy on saturday');
    await page.getByTestId('chat-send').click();
    // The condition asks before submitting.
    await page
      .locator('[data-testid="chat-message"][data-role="agent"]')
      .filter({ hasText: 'Shall I book it?' })
      .waitFor({ timeout: 30_000 });
    await page.getByTestId('chat-input').fill('yes');
    await page.getByTestId('chat-send').click();
    await page
      .locator('[data-testid="chat-message"][data-role="agent"]')
      .filter({ hasText: 'Your booking is confirmed' })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'agent-earliest-comedy-booked');

    // What the confirm stage showed before the submit, from the log.
    const log = logOf(server.logsDir);
    const confirm = log
      .filter(
        (r) => r.type === 'state.updated' && (r.payload as { uiSpec?: { stage?: string } }).uiSpec?.stage === 'confirm',
      )
      .at(-1)?.payload as { uiSpec: { state: { booking: { showing: { id: string } } } } };
    const booked = confirm.uiSpec.state.booking.showing.id;

    const task = DEMO.tasks[0];
    if (!task) throw new Error('the demo study has no task');
    const world = task.world;
    const saturday = world.today; // the demo's world opens on Saturday 21 November
    expect(new Date(`${saturday}T12:00:00Z`).getUTCDay()).toBe(6);
    const comedies = new Set(world.movies.filter((m) => m.genres.includes('Comedy')).map((m) => m.id));
    const showings = world.showings
      .filter((s) => s.date === saturday && comedies.has(s.movieId))
      .sort((a, b) => a.time.localeCompare(b.time));
    expect(new Set(showings.map((s) => s.movieId)).size).toBeGreaterThan(1);
    const earliest = showings[0];
    expect(world.showings.find((s) => s.id === booked)?.time).toBe(earliest?.time);
  }, 90_000);
});
