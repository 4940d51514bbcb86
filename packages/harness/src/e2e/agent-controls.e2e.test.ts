import { readdirSync } from 'node:fs';
import type { StudyLogRecord } from '@usher/protocol';
import { readLog, startStudyServer } from '@usher/server/testing';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot, WEB_ROOT } from './browser.ts';

/*
 * The participant's controls over the agent, and step approval, in Chromium at desktop and phone
 * sizes: each step the agent proposes is shown with Approve and Reject, and a yes typed in the chat
 * approves too; Pause stops the agent within one action and nothing moves until Resume; Take over
 * leaves the page to the participant and Hand back gives it to the agent again, which says so. Every
 * control is reached with the keyboard, and every press is in the study log in order.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 200 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function tabTo(page: Page, selector: string, limit = 150): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Presses a control with the keyboard alone: Tab to it from the top of the page, then Enter. */
async function pressByKeyboard(page: Page, selector: string): Promise<void> {
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await tabTo(page, selector);
  await page.keyboard.press('Enter');
}

async function onTask(url: string, viewport: 'desktop' | 'phone', id: string, condition: string): Promise<Page> {
  const page = await openPage(browser, viewport);
  await page.goto(`${url}/s/${DEMO.id}?PROLIFIC_PID=${id}&condition=${condition}`);
  await page.getByRole('button', { name: 'I agree, start the study' }).click();
  await page.getByRole('button', { name: 'Start the task' }).click();
  await page.getByTestId('agent-bar').waitFor();
  await page.getByTestId('connection').and(page.locator('[data-state="open"]')).waitFor();
  return page;
}

/** Writes in the chat (opening it first on a phone) and closes it again on a phone. */
async function write(page: Page, text: string, phone: boolean): Promise<void> {
  if (phone) await page.getByTestId('chat-toggle').click();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  if (phone) await page.getByRole('button', { name: 'Close chat' }).click();
}

function logOf(logsDir: string): StudyLogRecord[] {
  return readdirSync(logsDir)
    .filter((f) => f.startsWith('s-') && f.endsWith('.jsonl'))
    .flatMap((f) => readLog(`${logsDir}/${f}`));
}
const agentCalls = (log: StudyLogRecord[]) => log.filter((r) => r.type === 'tool.call' && r.direction === 'in');

describe.each(['desktop', 'phone'] as const)('the participant’s controls on %s', (viewport) => {
  it('approves and rejects proposed steps, by button, keyboard and chat', async () => {
    const { server } = await startStudyServer({
      webRoot: WEB_ROOT,
      study: DEMO,
      registry: new StudyRegistry(':memory:'),
    });
    const page = await onTask(server.url, viewport, `steps-${viewport}`, 'step-approval');
    await page.locator('[data-testid="chat-message"][data-role="agent"]').first().waitFor({ state: 'attached' });
    await write(
      page,
      'Two adult tickets for Orbital Drift tomorrow evening in IMAX, seats together',
      viewport === 'phone',
    );
    const proposal = page.getByTestId('agent-proposal');
    await proposal.waitFor();
    expect(await proposal.textContent()).toContain('Next step: select Orbital Drift.');
    await screenshot(page, `step-proposal-${viewport}`);
    expect(agentCalls(logOf(server.logsDir))).toHaveLength(0);

    // Approve with a click: the film is selected.
    await proposal.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => agentCalls(logOf(server.logsDir)).length, { timeout: 10_000 }).toBe(1);
    // The next proposal, rejected with the keyboard alone.
    await proposal.waitFor();
    const rejected = await proposal.textContent();
    await pressByKeyboard(page, '[data-testid="agent-proposal"] button:not(.button--primary)');
    // Rejected, the agent does not propose it again on its own: it asks what to do instead.
    await page
      .locator('[data-testid="chat-message"][data-role="agent"]', { hasText: 'You rejected that step' })
      .waitFor({ state: 'attached', timeout: 10_000 });
    expect(agentCalls(logOf(server.logsDir))).toHaveLength(1);
    expect(await proposal.count()).toBe(0);
    await write(page, 'go on', viewport === 'phone');
    await proposal.waitFor();
    expect(await proposal.textContent()).toBe(rejected);
    // A yes typed in the chat approves.
    await write(page, 'yes', viewport === 'phone');
    await expect.poll(() => agentCalls(logOf(server.logsDir)).length, { timeout: 10_000 }).toBe(2);
    await proposal.waitFor();
    await screenshot(page, `step-proposal-next-${viewport}`);

    const log = logOf(server.logsDir);
    const decisions = log.filter((r) => r.type === 'participant.proposal').map((r) => r.payload);
    expect(decisions).toEqual([
      expect.objectContaining({ decision: 'approve' }),
      expect.objectContaining({ decision: 'reject' }),
      expect.objectContaining({ decision: 'approve', comment: 'yes' }),
    ]);
    const proposed = log
      .filter((r) => r.type === 'agent.proposal')
      .map((r) => (r.payload as { proposalId: string }).proposalId);
    for (const d of decisions) expect(proposed).toContain((d as { proposalId: string }).proposalId);
  }, 60_000);

  it('pauses within one action and holds until resumed; takes over and hands back; each press logged', async () => {
    const { server } = await startStudyServer({
      webRoot: WEB_ROOT,
      study: DEMO,
      registry: new StudyRegistry(':memory:'),
    });
    const page = await onTask(server.url, viewport, `ctl-${viewport}`, 'autopilot');
    await page.locator('[data-testid="chat-message"][data-role="agent"]').first().waitFor({ state: 'attached' });
    await write(
      page,
      'Two adult tickets for Orbital Drift tomorrow evening in IMAX, seats together',
      viewport === 'phone',
    );
    await expect.poll(() => agentCalls(logOf(server.logsDir)).length, { timeout: 10_000 }).toBeGreaterThan(1);

    await pressByKeyboard(page, '[data-testid="agent-pause"]');
    await page.getByTestId('agent-status').filter({ hasText: 'paused' }).waitFor();
    const atPause = agentCalls(logOf(server.logsDir)).length;
    await sleep(700);
    const held = agentCalls(logOf(server.logsDir)).length;
    expect(held).toBeLessThanOrEqual(atPause + 1);
    await sleep(1200);
    expect(agentCalls(logOf(server.logsDir))).toHaveLength(held);
    await screenshot(page, `agent-paused-${viewport}`);

    await pressByKeyboard(page, '[data-testid="agent-pause"]');
    await page.getByTestId('agent-status').filter({ hasNotText: 'paused' }).waitFor();
    await expect.poll(() => agentCalls(logOf(server.logsDir)).length, { timeout: 10_000 }).toBeGreaterThan(held);

    await pressByKeyboard(page, '[data-testid="agent-take-over"]');
    await page.getByTestId('agent-status').filter({ hasText: 'You have the booking' }).waitFor();
    const atTakeOver = agentCalls(logOf(server.logsDir)).length;
    await sleep(1500);
    expect(agentCalls(logOf(server.logsDir)).length).toBeLessThanOrEqual(atTakeOver + 1);
    await screenshot(page, `agent-taken-over-${viewport}`);
    await pressByKeyboard(page, '[data-testid="agent-take-over"]');
    await page.getByTestId('agent-status').filter({ hasNotText: 'You have the booking' }).waitFor();
    // Handed back, the agent reads the page as it is and goes on with the request, and says so.
    await page
      .locator('[data-testid="chat-message"][data-role="agent"]', { hasText: 'I am back' })
      .waitFor({ state: 'attached', timeout: 10_000 });
    await expect
      .poll(() => agentCalls(logOf(server.logsDir)).length, { timeout: 10_000 })
      .toBeGreaterThan(atTakeOver + 1);

    const presses = logOf(server.logsDir).filter((r) => r.type === 'participant.control');
    expect(presses.map((r) => r.payload)).toEqual([
      expect.objectContaining({ control: 'pause', by: 'participant' }),
      expect.objectContaining({ control: 'resume', by: 'participant' }),
      expect.objectContaining({ control: 'take-over', by: 'participant' }),
      expect.objectContaining({ control: 'hand-back', by: 'participant' }),
    ]);
    for (const press of presses) expect(press.direction).toBe('internal');
  }, 60_000);
});
