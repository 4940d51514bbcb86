import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLog, startTestServer } from '@usher/server/testing';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot, WEB_ROOT } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const work = mkdtempSync(join(tmpdir(), 'usher-flow-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const SCENARIO = new URL('../../../booking/scenarios/default.json', import.meta.url).pathname;
const SECRET = new TextEncoder().encode('a-flow-test-secret-of-enough-length-0123456789abcdef');

/** A study of two tasks without an agent (what usher serve --study runs today). */
function soloStudy() {
  const path = join(work, 'solo.study.yaml');
  writeFileSync(
    path,
    `id: solo-01
title: Booking movie tickets
consent: |
  You will book movie tickets for two made-up situations. We record what you do on the page.
  Taking part is voluntary.
tasks:
  - id: imax
    title: A night out in IMAX
    scenario: ${SCENARIO}
    briefing: Book two adult tickets for Orbital Drift tomorrow evening in IMAX, seats together.
    checklist: [Orbital Drift, tomorrow evening, IMAX, two adults together]
    success: { hard: [{ kind: title, is: [Orbital Drift] }, { kind: seatCount, count: 2 }] }
  - id: family
    title: A family afternoon
    scenario: ${SCENARIO}
    briefing: Take your family to see Paper Lanterns this weekend, before 6 pm.
    success: { hard: [{ kind: title, is: [Paper Lanterns] }] }
conditions:
  - { id: alone, agent: none, chat: false }
completion: { code: SOLO-DONE-42, redirect: 'https://example.org/complete?cc=SOLO-DONE-42' }
`,
  );
  return loadStudyFile(path);
}

describe('a participant’s way through a study', () => {
  it.each(['desktop', 'phone'] as const)(
    'consent, briefing, each task with its checklist, and the end page with the code (%s)',
    async (viewport) => {
      const study = soloStudy();
      const server = await startTestServer({
        webRoot: WEB_ROOT,
        access: 'token',
        secret: SECRET,
        study: { study, registry: new StudyRegistry(':memory:') },
      });
      const page = await openPage(browser, viewport);
      await page.goto(`${server.url}/s/solo-01?PROLIFIC_PID=flow-${viewport}&STUDY_ID=s1&SESSION_ID=x1`);
      await page.getByTestId('flow-consent').waitFor();
      await screenshot(page, `study-${viewport}-1-consent`);
      await page.getByRole('button', { name: 'I agree, start the study' }).click();

      await page.getByTestId('flow-briefing').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('A night out in IMAX');
      await screenshot(page, `study-${viewport}-2-briefing`);
      await page.getByRole('button', { name: 'Start the task' }).click();

      await page.getByTestId('task-bar').waitFor();
      await page.getByTestId('connection').and(page.locator('[data-state="open"]')).waitFor();
      // The condition turns the chat off, and no participant ever reaches the developer panel.
      expect(await page.locator('.chat').count()).toBe(0);
      expect(await page.getByTestId('dev-toggle').count()).toBe(0);
      await page.keyboard.press('Control+Shift+D');
      expect(await page.locator('.dev').count()).toBe(0);
      // The participant acts; a reload comes back to the same task, where they were.
      await page.locator('[data-testid^="item-"]:not([disabled])').first().click();
      await page.getByTestId('next').click();
      await page.getByTestId('stage-title').filter({ hasText: 'theater' }).waitFor();
      await screenshot(page, `study-${viewport}-3-task`);
      await page.reload();
      await page.getByTestId('task-bar').waitFor();
      await page.getByTestId('stage-title').filter({ hasText: 'theater' }).waitFor();
      await page.getByRole('button', { name: 'I’m done' }).click();

      await page.getByTestId('flow-briefing').waitFor();
      expect(await page.getByText('Task 2 of 2').count()).toBe(1);
      await page.getByRole('button', { name: 'Start the task' }).click();
      await page.getByRole('button', { name: 'Give up' }).click();
      await page.getByRole('button', { name: 'Yes, give up' }).click();

      await page.getByTestId('flow-end').waitFor();
      expect(await page.getByTestId('completion-code').textContent()).toBe('SOLO-DONE-42');
      expect(await page.getByRole('link', { name: 'Finish and return' }).getAttribute('href')).toBe(
        'https://example.org/complete?cc=SOLO-DONE-42',
      );
      await screenshot(page, `study-${viewport}-4-end`);
      // Opening the link again shows the end page, never a second run.
      await page.goto(`${server.url}/s/solo-01?PROLIFIC_PID=flow-${viewport}`);
      await page.getByTestId('flow-end').waitFor();

      // Each task was logged, the participant's actions in the first included, without any agent.
      const logs = readdirSync(server.logsDir).sort();
      expect(logs).toHaveLength(2);
      const first = readLog(join(server.logsDir, logs[0] as string));
      expect(first[0]).toMatchObject({
        type: 'study.task',
        payload: { studyId: 'solo-01', conditionId: 'alone', taskId: 'imax' },
      });
      // The page's own moments beside the server's: when it showed the briefing, when the task started and ended.
      const moments = (first[0]?.payload as { page: { briefingShownAt: string; at: string } } | undefined)?.page;
      if (!moments) throw new Error('the task record has no page moments');
      expect(Date.parse(moments.at)).toBeGreaterThanOrEqual(Date.parse(moments.briefingShownAt));
      expect((first.at(-1)?.payload as { page?: { at: string } } | undefined)?.page?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(
        first.filter((r) => r.type === 'participant.action').map((r) => (r.payload as { toolName: string }).toolName),
      ).toEqual(['select', 'next']);
      expect(first.at(-1)).toMatchObject({
        type: 'study.task-ended',
        payload: { reason: expect.stringMatching(/done/) },
      });
      const second = readLog(join(server.logsDir, logs[1] as string));
      expect(second.at(-1)).toMatchObject({
        type: 'study.task-ended',
        payload: { reason: expect.stringMatching(/gave-up/) },
      });
    },
  );
});
