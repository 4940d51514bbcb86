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
title: Booking movie tickets (no-assistant arm)
participantTitle: Booking movie tickets
consent: |
  You will book **movie tickets** for two made-up situations.
  We record what you do on the page:

  - which films, times and seats you choose,
  - when you choose them.

  <b onclick="alert(1)">Raw</b> HTML is not shown. <script>document.title = 'scripted'</script>

  Taking part is *voluntary*.
tasks:
  - id: task-imax-7
    title: A night out in IMAX
    scenario: ${SCENARIO}
    briefing: Book two adult tickets for Orbital Drift tomorrow evening in IMAX, seats together.
    checklist: [Orbital Drift, tomorrow evening, IMAX, two adults together]
    success: { hard: [{ kind: title, is: [Orbital Drift] }, { kind: seatCount, count: 2 }] }
  - id: task-family-7
    title: A family afternoon
    scenario: ${SCENARIO}
    briefing: |
      Take your family to see *Paper Lanterns* this weekend,
      starting **before 6 pm**.
    success: { hard: [{ kind: title, is: [Paper Lanterns] }] }
conditions:
  - { id: cond-alone-7, agent: none, chat: false }
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
      // A mistyped link: a page that says so, not the API's JSON.
      await page.goto(`${server.url}/s/solo-0l?PROLIFIC_PID=flow-${viewport}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This study link does not work');
      await screenshot(page, `study-${viewport}-0-mistyped-link`);

      await page.goto(`${server.url}/s/solo-01?PROLIFIC_PID=flow-${viewport}&STUDY_ID=s1&SESSION_ID=x1`);
      await page.getByTestId('flow-consent').waitFor();
      const ids = new URL(page.url()).searchParams;
      // The consent's Markdown: paragraphs (its wrapped lines joined), a list, emphasis; no raw HTML, no script.
      const consent = page.getByTestId('flow-consent');
      expect(await consent.locator('.flow-text > p').count()).toBe(3);
      expect(await consent.locator('.flow-text li').allTextContents()).toEqual([
        'which films, times and seats you choose,',
        'when you choose them.',
      ]);
      expect(await consent.locator('strong').textContent()).toBe('movie tickets');
      expect(await consent.locator('em').textContent()).toBe('voluntary');
      expect(await consent.locator('b, script, [onclick]').count()).toBe(0);
      expect(await consent.textContent()).not.toContain('<');
      expect(await page.title()).not.toBe('scripted');
      // The title participants see, the same in every condition.
      expect(await page.locator('.brand').textContent()).toBe('Booking movie tickets');
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
      // The briefing is on the page during the task, behind a disclosure.
      const briefing = page.getByTestId('task-briefing');
      expect(await briefing.getByText('Book two adult tickets').isVisible()).toBe(false);
      await briefing.getByText('Show the whole task').click();
      expect(await briefing.getByText('Book two adult tickets').isVisible()).toBe(true);
      await briefing.getByText('Hide the whole task').waitFor();
      // The participant acts; a reload comes back to the same task, where they were.
      await page.locator('[data-testid^="item-"]:not([disabled])').first().click();
      await page.getByTestId('next').click();
      await page.getByTestId('stage-title').filter({ hasText: 'theater' }).waitFor();
      await screenshot(page, `study-${viewport}-3-task`);
      // No id of the researcher's on the page: room, study, participant, session, condition or task.
      const shown = (await page.locator('body').textContent()) ?? '';
      for (const id of [ids.get('room'), ids.get('participant'), 'solo-01', 'cond-alone-7', 'task-imax-7'])
        expect(shown).not.toContain(id);
      expect(shown).not.toMatch(/\bs-\d{8}-\d{3}\b|Session|Participant/);
      await page.reload();
      await page.getByTestId('task-bar').waitFor();
      await page.getByTestId('stage-title').filter({ hasText: 'theater' }).waitFor();
      // "I'm done" asks first; "No" leaves the participant on the task.
      await page.getByRole('button', { name: 'I’m done' }).click();
      await page.getByText('End this task without booking? You cannot come back to it.').waitFor();
      await screenshot(page, `study-${viewport}-4-done-asks`);
      // The question has the focus, on its harmless answer; "No" gives it back to "I'm done".
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? null);
      expect(await focused()).toBe('No, go on');
      expect(
        await page.getByRole('group', { name: 'End this task without booking? You cannot come back to it.' }).count(),
      ).toBe(1);
      await page.keyboard.press('Enter');
      expect(await focused()).toBe('I’m done');
      expect(await page.getByTestId('stage-title').textContent()).toMatch(/theater/);
      await page.getByRole('button', { name: 'I’m done' }).click();
      await page.getByRole('button', { name: 'Yes, I’m done' }).click();

      await page.getByTestId('flow-briefing').waitFor();
      expect(await page.getByText('Task 2 of 2').count()).toBe(1);
      expect(await page.locator('.flow-text em').textContent()).toBe('Paper Lanterns');
      await page.getByRole('button', { name: 'Start the task' }).click();
      await page.getByRole('button', { name: 'Give up' }).click();
      await page.getByText('Give up this task? You cannot come back to it.').waitFor();
      await page.getByRole('button', { name: 'No, go on' }).click();
      // Booked: the card says how to go on, the Continue button beside the task.
      for (const stage of ['movie', 'theater', 'date', 'showtime']) {
        await page.getByTestId('stage-title').filter({ hasText: stage }).waitFor();
        await page.locator('[data-testid^="item-"]:not([disabled])').first().click();
        await page.getByTestId('next').click();
      }
      await page.getByTestId('stage-title').filter({ hasText: 'seats' }).waitFor();
      await page.locator('[data-testid^="item-"]:not([disabled])').first().click();
      await page.getByTestId('next').click();
      await page.getByTestId('stage-title').filter({ hasText: 'tickets' }).waitFor();
      await page.getByTestId('inc-adult').click();
      await page.getByTestId('next').click();
      await page.getByTestId('stage-title').filter({ hasText: 'onfirm' }).waitFor();
      await page.getByTestId('next').click();
      await page.getByTestId('confirmation').waitFor();
      expect(await page.getByTestId('booking-next').textContent()).toBe(
        'This task is done. Press Continue at the top of the page to go on with the study.',
      );
      await screenshot(page, `study-${viewport}-5-booked`);
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.getByTestId('flow-end').waitFor();
      expect(await page.getByTestId('completion-code').textContent()).toBe('SOLO-DONE-42');
      expect(await page.getByRole('link', { name: 'Finish and return' }).getAttribute('href')).toBe(
        'https://example.org/complete?cc=SOLO-DONE-42',
      );
      await screenshot(page, `study-${viewport}-6-end`);
      // Opening the link again shows the end page, never a second run.
      await page.goto(`${server.url}/s/solo-01?PROLIFIC_PID=flow-${viewport}`);
      await page.getByTestId('flow-end').waitFor();

      // Each task was logged, the participant's actions in the first included, without any agent.
      const logs = readdirSync(server.logsDir).sort();
      expect(logs).toHaveLength(2);
      const first = readLog(join(server.logsDir, logs[0] as string));
      expect(first[0]).toMatchObject({ type: 'agent.manifest', payload: { manifest: { agent: 'none' } } });
      expect(first[1]).toMatchObject({
        type: 'study.task',
        payload: { studyId: 'solo-01', conditionId: 'cond-alone-7', taskId: 'task-imax-7' },
      });
      // The page's own moments beside the server's: when it showed the briefing, when the task started and ended.
      const moments = (first[1]?.payload as { page: { briefingShownAt: string; at: string } } | undefined)?.page;
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
        payload: { reason: expect.stringMatching(/submitted/) },
      });
    },
  );

  it.each(['desktop', 'phone'] as const)(
    'says the link does not work when a page holds another participant’s credential, rather than show their task (%s)',
    async (viewport) => {
      const server = await startTestServer({
        webRoot: WEB_ROOT,
        access: 'token',
        secret: SECRET,
        study: { study: soloStudy(), registry: new StudyRegistry(':memory:') },
      });
      const admit = async (pid: string) => {
        const response = await fetch(`${server.url}/s/solo-01?PROLIFIC_PID=${pid}`, { redirect: 'manual' });
        return new URL(response.headers.get('location') as string, server.url).searchParams;
      };
      const [alice, bob] = [await admit('alice'), await admit('bob')];
      const mixed = new URLSearchParams(alice);
      mixed.set('token', bob.get('token') as string);
      const page = await openPage(browser, viewport);
      await page.goto(`${server.url}/?${mixed}`);
      await page.getByRole('heading', { name: 'This study link does not work' }).waitFor();
      expect(await page.getByTestId('flow-consent').count()).toBe(0);
      await screenshot(page, `study-${viewport}-7-someone-elses-link`);
    },
  );
});
