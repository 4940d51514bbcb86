import { FaultyHost } from '@usher/agent/testing';
import { startStudyServer } from '@usher/server/testing';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { launchChromium, openPage, screenshot, WEB_ROOT } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const SECRET = new TextEncoder().encode('a-console-live-e2e-secret-of-enough-length-0123456789');
const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};

async function studyServer() {
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
  const experimenter = await capabilities.issue({ kind: 'experimenter', name: 'Ada' });
  return { server, registry, experimenter };
}

/** Answers each questionnaire screen in the participant's page (the first choice of each), up to `until`. */
async function answerScreens(page: Page, until: 'flow-briefing' | 'flow-end') {
  for (let screen = 0; screen < 8; screen++) {
    const form = page.locator('form.questionnaire');
    const done = page.getByTestId(until);
    await form.or(done).first().waitFor();
    if (await done.isVisible()) return;
    const title = (await form.getByRole('heading', { level: 1 }).textContent()) ?? '';
    for (const item of await form.locator('fieldset').all()) {
      const radio = item.locator('input[type="radio"]');
      if (await radio.count()) await radio.first().check();
    }
    await form.getByRole('button', { name: /Next|Submit answers|Continue/ }).click();
    await page.waitForFunction((t) => document.querySelector('form.questionnaire h1')?.textContent !== t, title);
  }
}

describe('a console left open', () => {
  it('never goes stale: booked with the page open, done after the last answers, and a participant who left says so', async () => {
    const { server, experimenter } = await studyServer();
    const console = await openPage(browser, 'desktop');
    await console.goto(`${server.url}/console?token=${experimenter}`);
    await console.getByTestId('console-live').filter({ hasText: 'Live' }).waitFor();

    // One participant books on their own and stays on the booked page.
    const booker = await openPage(browser, 'desktop');
    await booker.goto(`${server.url}/s/${DEMO.id}?PROLIFIC_PID=live-1&condition=alone`);
    await booker.getByRole('button', { name: 'I agree, start the study' }).click();
    await booker.getByRole('button', { name: 'Start the task' }).click();
    const row = console.locator('[data-testid="participant-row"]').filter({ hasText: 'live-1' });
    await row.getByTestId('participant-stage').filter({ hasText: 'movie' }).waitFor();
    for (const stage of ['movie', 'theater', 'date', 'time', 'seats']) {
      await booker.getByTestId('stage-title').filter({ hasText: stage }).waitFor();
      await booker.locator('[data-testid^="item-"]:not([disabled])').first().click();
      await booker.getByTestId('next').click();
    }
    await booker.getByTestId('inc-adult').click();
    await booker.getByTestId('next').click();
    await booker.getByTestId('stage-title').filter({ hasText: 'Confirm' }).waitFor();
    await booker.getByTestId('next').click();
    await booker.getByTestId('confirmation').waitFor();
    await row.getByTestId('participant-stage').filter({ hasText: 'booked' }).waitFor();
    expect(await row.getByTestId('participant-status').textContent()).toBe('On task');

    // Then the rest of the study; the last answers end it, and the console says so without a reload.
    await booker.getByRole('button', { name: 'Continue' }).click();
    await answerScreens(booker, 'flow-briefing');
    await booker.getByRole('button', { name: 'Start the task' }).click();
    await booker.getByRole('button', { name: 'Give up' }).click();
    await booker.getByRole('button', { name: 'Yes, give up' }).click();
    await answerScreens(booker, 'flow-end');
    await row.getByTestId('participant-status').filter({ hasText: 'Done' }).waitFor({ timeout: 5000 });

    // Another opens their task beside the agent, and closes the page.
    const leaver = await openPage(browser, 'desktop');
    await leaver.goto(`${server.url}/s/${DEMO.id}?PROLIFIC_PID=live-2&condition=autopilot`);
    await leaver.getByRole('button', { name: 'I agree, start the study' }).click();
    await leaver.getByRole('button', { name: 'Start the task' }).click();
    const left = console.locator('[data-testid="participant-row"]').filter({ hasText: 'live-2' });
    await left.getByText('Working').waitFor();
    await leaver.close();
    await left.getByTestId('participant-status').filter({ hasText: 'Left the page' }).waitFor({ timeout: 5000 });
    expect(await left.getByTestId('participant-stage').textContent()).toBe('page closed');
    expect(await left.getByText('Working', { exact: true }).count()).toBe(0);
    await screenshot(console, 'console-live-list');

    // The replay list names participants as the participant list does.
    await console.getByRole('button', { name: 'Replay' }).first().click();
    const sessions = console.getByTestId('sessions');
    await sessions.waitFor();
    expect(await sessions.getByText('live-1', { exact: true }).count()).toBe(2);
    expect(await sessions.getByText(/^p-/).count()).toBe(0);
  }, 90_000);

  it('watches each task of a room afresh: the next task shows nothing of the last one’s page or agent', async () => {
    const { server, registry, experimenter } = await studyServer();
    const link = await fetch(`${server.url}/s/${DEMO.id}?PROLIFIC_PID=live-3&condition=autopilot`, {
      redirect: 'manual',
    });
    const url = new URL(link.headers.get('location') as string, server.url);
    const room = url.searchParams.get('room') as string;
    const token = url.searchParams.get('token') as string;
    const step = (path: string, body: object) =>
      fetch(`${server.url}/api/participant/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const hostFor = async () => {
      const taskId = registry.byRoom(room)?.plan.tasks[registry.byRoom(room)?.taskIndex ?? 0]?.taskId;
      const task = DEMO.tasks.find((t) => t.id === taskId);
      if (!task) throw new Error('no task');
      const host = await FaultyHost.join({ url: server.url, room, scenario: task.world, token });
      onTestFinished(() => host.close());
      return { host, task };
    };
    await step('step', { step: 'consent' });
    await step('step', { step: 'start-task' });
    const first = await hostFor();

    const console = await openPage(browser, 'desktop');
    await console.goto(`${server.url}/console?token=${experimenter}`);
    await console
      .locator(`[data-testid="participant-row"][data-room="${room}"]`)
      .getByRole('button', { name: /Watch/ })
      .click();
    const watch = console.getByTestId('watch');
    await watch.getByRole('heading', { name: new RegExp(first.task.title) }).waitFor();
    await watch.getByTestId('agent-feed').getByText(/Plan:/).first().waitFor();
    const times = () => watch.getByTestId('agent-feed').locator('.episode__time').allTextContents();
    const firstTask = await times();
    expect(firstTask.length).toBeGreaterThan(0);

    // The task ends, its questions are answered, and the next task starts in the same room.
    await step('step', { step: 'end-task', outcome: 'done' });
    first.host.close();
    const view = (await (
      await fetch(`${server.url}/api/participant`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as {
      questionnaire: { kind: string; sections: { items: { id: string; kind: string; from?: number }[] }[] };
    };
    const answers = Object.fromEntries(
      view.questionnaire.sections
        .flatMap((s) => s.items)
        .filter((i) => i.kind === 'likert')
        .map((i) => [i.id, i.from]),
    );
    expect((await step('questionnaire', { questionnaire: view.questionnaire.kind, answers })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const startedAt = new Date().toISOString().slice(11, 19);
    await step('step', { step: 'start-task' });
    const second = await hostFor();
    expect(second.task.id).not.toBe(first.task.id);

    await watch.getByRole('heading', { name: new RegExp(second.task.title) }).waitFor();
    await watch.getByTestId('stage-title').waitFor();
    await watch.getByTestId('agent-feed').getByText(/Plan:/).first().waitFor();
    await screenshot(console, 'console-live-next-task');
    for (const time of await times()) expect(time >= startedAt).toBe(true);
  }, 60_000);
});
