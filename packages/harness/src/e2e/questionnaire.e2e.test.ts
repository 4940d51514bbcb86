import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '@usher/server/testing';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot, WEB_ROOT } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const work = mkdtempSync(join(tmpdir(), 'usher-questionnaire-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const SCENARIO = new URL('../../../booking/scenarios/default.json', import.meta.url).pathname;

/** One task without an agent, a per-task questionnaire of two screens, and SUS with a last question at the end. */
function questionnaireStudy() {
  const path = join(work, 'q.study.yaml');
  writeFileSync(
    path,
    `id: q-01
title: Booking movie tickets
consent: You will book movie tickets and answer a few questions.
tasks:
  - id: imax
    title: A night out in IMAX
    scenario: ${SCENARIO}
    briefing: Book two adult tickets for Orbital Drift tomorrow evening in IMAX.
    success: { hard: [{ kind: title, is: [Orbital Drift] }] }
conditions:
  - { id: alone, agent: none, chat: false }
questionnaires:
  perTask:
    - id: about
      title: About this booking
      intro: Think of the booking you just made.
      items:
        - { id: effort, kind: likert, text: How much effort did this booking take?, points: 5, from: 0, anchors: [None at all, Very little, Some, A lot, A great deal] }
        - { id: confident, kind: likert, text: I am confident the booking matches the task., points: 7, anchors: [Strongly disagree, Strongly agree] }
        - { id: looked, kind: multiple, text: What did you compare?, options: [Times, Formats, Seats, Prices], max: 3 }
        - { id: device, kind: single, text: What are you using?, options: [A computer, A phone, A tablet] }
        - { id: obstacle, kind: text, text: Did anything get in your way?, required: false, maxLength: 120 }
    - instrument: nasa-tlx-raw
  postStudy:
    - instrument: sus
    - id: last
      title: Last questions
      items:
        - { id: attention, kind: single, text: "To show us you are reading, please choose “Often”.", options: [Never, Sometimes, Often, Always], attention: { expect: Often } }
        - { id: comments, kind: longtext, text: Anything else you would like to tell us?, required: false }
completion: { code: Q-DONE-01 }
`,
  );
  return loadStudyFile(path);
}

describe('a participant’s questionnaires', () => {
  it.each(['desktop', 'phone'] as const)(
    'one section a screen with progress, required answers asked for, answers kept across a reload, stored whole (%s)',
    async (viewport) => {
      const registry = new StudyRegistry(':memory:');
      const server = await startTestServer({ webRoot: WEB_ROOT, study: { study: questionnaireStudy(), registry } });
      const page = await openPage(browser, viewport);
      page.setDefaultTimeout(5000);
      await page.goto(`${server.url}/s/q-01?participant=q-${viewport}`);
      await page.getByRole('button', { name: 'I agree, start the study' }).click();
      await page.getByRole('button', { name: 'Start the task' }).click();
      await page.getByRole('button', { name: 'I’m done' }).click();
      await page.getByRole('button', { name: 'Yes, I’m done' }).click();

      // The per-task questionnaire: its first screen, with its progress.
      const form = page.getByTestId('questionnaire-per-task');
      await form.waitFor();
      expect(await page.getByTestId('q-progress').textContent()).toBe('Page 1 of 2');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('About this booking');
      await screenshot(page, `questionnaire-${viewport}-1-task`);

      // Next without answers: a clear message, each missing question marked, the first one focused.
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('alert').filter({ hasText: '4 questions on this page still need an answer.' }).waitFor();
      expect(await page.locator('.q-item--invalid').count()).toBe(4);
      // The focus moves once the screen shows the marks (the next frame): waited for, not raced.
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'effort');
      await screenshot(page, `questionnaire-${viewport}-2-missing`);

      // By keyboard: arrows move along a scale, space ticks a box.
      await page.keyboard.press('ArrowRight'); // effort: from 0 to 1
      await page.keyboard.press('ArrowRight'); // 2
      await page.getByRole('radio', { name: '7 – Strongly agree' }).check();
      await page.getByRole('checkbox', { name: 'Times' }).focus();
      await page.keyboard.press('Space');
      await page.getByRole('checkbox', { name: 'Seats' }).check();
      await page.getByRole('textbox', { name: 'Did anything get in your way?' }).fill('The seat map was small');
      expect(await page.locator('.q-item--invalid').count()).toBe(1);
      // A reload keeps every answer (the browser's storage) and the screen.
      await page.reload();
      await form.waitFor();
      expect(await page.getByRole('radio', { name: 'Some' }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'Times' }).isChecked()).toBe(true);
      expect(await page.getByRole('textbox', { name: 'Did anything get in your way?' }).inputValue()).toBe(
        'The seat map was small',
      );
      await page.getByRole('radio', { name: viewport === 'phone' ? 'A phone' : 'A computer' }).check();
      await page.getByRole('button', { name: 'Next' }).click();

      // The second screen: NASA-TLX's six sliders, answered by keyboard (arrows step by 5).
      await page.getByRole('heading', { name: 'Workload' }).waitFor();
      expect(await page.getByTestId('q-progress').textContent()).toBe('Page 2 of 2');
      const sliders = page.getByRole('slider');
      expect(await sliders.count()).toBe(6);
      await screenshot(page, `questionnaire-${viewport}-3-tlx`);
      for (let i = 0; i < 6; i++) {
        await sliders.nth(i).focus();
        await page.keyboard.press(i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
      }
      await page.reload();
      await page.getByRole('heading', { name: 'Workload' }).waitFor();
      expect(await sliders.nth(0).getAttribute('aria-valuetext')).toBe('55');
      await page.getByRole('button', { name: 'Submit answers' }).click();

      // At the end: SUS on one screen, then the last questions, then the end page.
      await page.getByTestId('questionnaire-post-study').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Using the system');
      const sus = [5, 4, 2, 1, 2, 3, 2, 4, 5, 2];
      for (const [i, answer] of sus.entries()) {
        await page
          .getByTestId(`q-sus-${i + 1}`)
          .locator(`input[value="${answer}"]`)
          .check();
      }
      await screenshot(page, `questionnaire-${viewport}-4-sus`);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('radio', { name: 'Often' }).check();
      await page.getByRole('textbox', { name: 'Anything else you would like to tell us?' }).fill('Thanks');
      await screenshot(page, `questionnaire-${viewport}-5-last`);
      await page.getByRole('button', { name: 'Submit answers' }).click();
      await page.getByTestId('flow-end').waitFor();
      expect(await page.getByTestId('completion-code').textContent()).toBe('Q-DONE-01');

      // Every answer is stored once, as given; the instruments are scored (Brooke's example: 55).
      const stored = Object.fromEntries(
        registry.questionnaireAnswers('q-01').map((a) => [`${a.questionnaire}:${a.itemId}`, a.value]),
      );
      expect(stored).toMatchObject({
        'per-task:effort': 2,
        'per-task:confident': 7,
        'per-task:looked': ['Times', 'Seats'],
        'per-task:device': viewport === 'phone' ? 'A phone' : 'A computer',
        'per-task:obstacle': 'The seat map was small',
        'per-task:tlx-mental': 55,
        'per-task:tlx-physical': 45,
        'post-study:sus-1': 5,
        'post-study:attention': 'Often',
        'post-study:comments': 'Thanks',
      });
      expect(Object.keys(stored)).toHaveLength(5 + 6 + 10 + 2);
      expect(registry.questionnaireScores('q-01').map((s) => [s.instrument, s.score])).toEqual([
        ['nasa-tlx-raw', 50],
        ['sus', 55],
      ]);
      const log = readFileSync(join(server.logsDir, 'q-01.questionnaires.jsonl'), 'utf8').trim().split('\n');
      expect(log).toHaveLength(2);
    },
  );
});
