import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { PROTOCOL_VERSION } from '@usher/protocol';
import { readLog, startStudyServer, TestClient } from '@usher/server/testing';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { launchChromium, openPage, screenshot, WEB_ROOT } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const SECRET = new TextEncoder().encode('a-console-e2e-secret-of-enough-length-0123456789abcdef');
const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};

/**
 * Moves the replay to the first moment with a booking stage open. How many relay records (joins,
 * the agent's session) come before the host's first state depends on timing, so no fixed moment is.
 */
async function scrubToStage(page: Page): Promise<void> {
  const scrub = page.getByTestId('replay-scrub');
  const last = Number(await scrub.getAttribute('max'));
  const stage = page.getByTestId('replay').getByTestId('stage-title');
  for (let at = 0; at <= last; at++) {
    await scrub.fill(String(at));
    // The page shows that moment ("· 7/23") before it is looked at.
    await page
      .getByTestId('replay')
      .getByText(new RegExp(`· ${at + 1}/${last + 1}$`))
      .waitFor();
    if (await stage.isVisible()) return;
  }
  throw new Error(`no moment of the ${last + 1} replayed shows a booking stage`);
}

/** The demo study with access control, its agents supervised, and one participant (a page in Node) on an agent task. */
async function runningStudy() {
  // A registry file, as `usher serve` keeps: the export download reads it.
  const registryPath = join(mkdtempSync(join(tmpdir(), 'usher-console-e2e-')), 'registry.sqlite');
  onTestFinished(() => rmSync(dirname(registryPath), { recursive: true, force: true }));
  const registry = new StudyRegistry(registryPath);
  onTestFinished(() => registry.close());
  const { server } = await startStudyServer({
    webRoot: WEB_ROOT,
    access: 'token',
    secret: SECRET,
    study: DEMO,
    registry,
    registryPath,
  });
  const capabilities = server.capabilities as NonNullable<typeof server.capabilities>;

  const link = await fetch(`${server.url}/s/${DEMO.id}?PROLIFIC_PID=5f3c9e&condition=autopilot`, {
    redirect: 'manual',
  });
  const page = new URL(link.headers.get('location') as string, server.url);
  const room = page.searchParams.get('room') as string;
  const hostToken = page.searchParams.get('token') as string;
  const step = (body: object) =>
    fetch(`${server.url}/api/participant/step`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${hostToken}` },
      body: JSON.stringify(body),
    });
  await step({ step: 'consent' });
  await step({ step: 'start-task' });
  const taskId = registry.byRoom(room)?.plan.tasks[0]?.taskId;
  const task = DEMO.tasks.find((t) => t.id === taskId);
  if (!task) throw new Error('no task');
  const host = await FaultyHost.join({ url: server.url, room, scenario: task.world, token: hostToken });
  onTestFinished(() => host.close());
  const experimenter = await capabilities.issue({ kind: 'experimenter', name: 'Ada' });
  return { server, room, host, hostToken, task, step, experimenter };
}

describe('the experimenter’s console', () => {
  it('lists participants live, watches a room, steps in as the agent and hands back, and replays the session', async () => {
    const { server, room, host, step, experimenter } = await runningStudy();
    const page = await openPage(browser, 'desktop');

    // Without the experimenter's credential the console says what it needs.
    await page.goto(`${server.url}/console`);
    await page.getByRole('heading', { name: /needs an experimenter’s credential/ }).waitFor();

    await page.goto(`${server.url}/console?token=${experimenter}`);
    // The credential leaves the address bar at once.
    expect(page.url()).not.toContain('token=');
    const row = page.locator(`[data-testid="participant-row"][data-room="${room}"]`);
    await row.getByTestId('participant-stage').filter({ hasText: 'movie' }).waitFor();
    await page.getByTestId('console-live').filter({ hasText: 'Live' }).waitFor();
    await screenshot(page, 'console-participants');

    await row.getByRole('button', { name: /Watch/ }).click();
    const watch = page.getByTestId('watch');
    await watch.getByTestId('stage-title').waitFor();
    // The agent's side: its plan, as it works.
    await watch.getByTestId('agent-feed').getByText(/Plan:/).first().waitFor();
    await screenshot(page, 'console-watch');

    // Step in: the agent pauses, and the experimenter acts through the relay with a reason.
    await watch.getByTestId('take-over').click();
    await page.getByTestId('reason').fill('testing the wizard');
    await page.getByTestId('reason-confirm').click();
    await watch.getByTestId('hand-back').waitFor();
    await row.getByText('Experimenter').waitFor();

    // The participant acts on their page: the console follows, live.
    host.act('select', { itemId: host.protocol.view().uiSpec?.visibleItems[0]?.id as string });
    host.act('next');
    await row.getByTestId('participant-stage').filter({ hasText: 'theater' }).waitFor();
    await watch
      .getByTestId('stage-title')
      .filter({ hasText: /theater/i })
      .waitFor();

    await watch.getByTestId('wizard-reason').fill('the participant likes this theater');
    await watch.locator('[data-testid^="item-"]:not([disabled])').first().click();
    await vi.waitFor(() => expect(host.protocol.view().uiSpec?.state.selected).toBeTruthy(), { timeout: 5000 });
    await watch.getByLabel('Message to the participant').fill('I chose the nearest theater for you.');
    await watch.getByRole('button', { name: 'Send' }).click();
    await vi.waitFor(() =>
      expect(host.protocol.view().messageHistory.some((m) => m.text === 'I chose the nearest theater for you.')).toBe(
        true,
      ),
    );
    await screenshot(page, 'console-wizard');
    await watch.getByTestId('hand-back').click();
    await watch.getByTestId('take-over').waitFor();

    // The collaboration measures per condition, live from the logs: this participant's task has started, with its actions.
    const measures = page.getByTestId('measures');
    await measures.getByRole('row', { name: /Tasks started\s+.*1/ }).waitFor();
    await measures.getByRole('row', { name: /Booking met the task.*0 · 0%/ }).waitFor();

    // The task ends; its session replays from the log alone, every state checked.
    await step({ step: 'end-task', outcome: 'done' });
    await page.getByRole('button', { name: 'Replay' }).first().click();
    await page.getByTestId('sessions').getByRole('button', { name: 'Replay' }).first().click();
    await page.getByTestId('replay-check').filter({ hasText: 'Every state rebuilt from the log matches it' }).waitFor();
    await scrubToStage(page);
    await screenshot(page, 'console-replay');

    // A refusal (here, as the server answers while another export is being made) is shown, not saved.
    await page.route('**/export.zip', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'TOO_MANY_REQUESTS', message: 'an export is already being made' } }),
      }),
    );
    await page.getByTestId('export-data').click();
    await page.getByTestId('export-error').filter({ hasText: 'an export is already being made' }).waitFor();
    await screenshot(page, 'console-export-refused');
    await page.unroute('**/export.zip');

    // The study's data for analysis, downloaded as a zip from the tab bar.
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-data').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${DEMO.id}-export.zip`);
    const zip = readFileSync((await download.path()) as string);
    // A zip (its local header's signature), with the tables and the raw log named in its directory.
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const names = zip.toString('latin1');
    for (const name of ['participant_tasks.csv', 'events.csv', 'events.parquet', 'export.json', 'logs/']) {
      expect(names).toContain(name);
    }
    await page.getByTestId('export-data').filter({ hasText: 'Export data' }).waitFor();
    expect(await page.getByTestId('export-error').count()).toBe(0);
    await screenshot(page, 'console-export');

    const log = readLog(`${server.logsDir}/${(await import('node:fs')).readdirSync(server.logsDir)[0]}`);
    const wizardCall = log.find((r) => r.type === 'tool.call' && r.peer?.startsWith('experimenter-'));
    expect(wizardCall?.payload).toMatchObject({ toolName: 'select', reason: 'the participant likes this theater' });
    expect(log.find((r) => r.type === 'console.take-over')?.payload).toMatchObject({
      by: 'experimenter Ada',
      reason: 'testing the wizard',
    });
  }, 60_000);

  it('keeps going when a participant’s page sends a state it cannot draw, and says so', async () => {
    const { server, room, hostToken, experimenter } = await runningStudy();
    const page = await openPage(browser, 'desktop');
    await page.goto(`${server.url}/console?token=${experimenter}`);
    const row = page.locator(`[data-testid="participant-row"][data-room="${room}"]`);
    await row.getByRole('button', { name: /Watch/ }).click();
    const watch = page.getByTestId('watch');
    await watch.getByTestId('stage-title').waitFor();

    // A hostile participant replaces their page with their own client, and sends a state whose
    // outline the relay accepts but whose insides the console's components cannot draw.
    const hostile = await TestClient.join(server.url, 'host', room, hostToken);
    onTestFinished(() => hostile.close());
    hostile.send({
      v: PROTOCOL_VERSION,
      type: 'state.updated',
      id: 'h1',
      payload: {
        source: 'user',
        uiSpec: { stage: 'seat', display: { component: 'seatMap' } },
        messageHistory: [{ id: 'm1', role: 'agent', text: { not: 'text' } }],
        toolSchema: [null],
      },
    });
    await watch.getByText(/cannot show/).waitFor();
    // The console is still there: the list, and the room's last good page.
    await row.waitFor();
    await watch.getByTestId('stage-title').waitFor();
    await screenshot(page, 'console-unreadable-state');
    // Its replay, which reads the same state from the log, says so too.
    await page.getByRole('button', { name: 'Replay' }).first().click();
    await page.getByTestId('sessions').getByRole('button', { name: 'Replay' }).first().click();
    await page.getByTestId('replay-unreadable').waitFor();
    await scrubToStage(page);
  }, 60_000);

  it('ends a participant’s study from the console, and their page says so', async () => {
    const { server, experimenter } = await runningStudy();
    const participant = await openPage(browser, 'desktop');
    await participant.goto(`${server.url}/s/${DEMO.id}?participant=B1&condition=alone`);
    await participant.getByRole('button', { name: 'I agree, start the study' }).click();
    await participant.getByRole('button', { name: 'Start the task' }).click();
    await participant.getByTestId('task-bar').waitFor();
    const room = new URL(participant.url()).searchParams.get('room') as string;

    const console = await openPage(browser, 'desktop');
    await console.goto(`${server.url}/console?token=${experimenter}`);
    await console
      .locator(`[data-testid="participant-row"][data-room="${room}"]`)
      .getByRole('button', { name: /Watch/ })
      .click();
    await console.getByRole('button', { name: 'End…' }).click();
    await console.getByTestId('reason').fill('the participant asked to stop');
    await screenshot(console, 'console-end');
    await console.getByTestId('reason-confirm').click();
    await console
      .locator(`[data-testid="participant-row"][data-room="${room}"]`)
      .getByTestId('participant-status')
      .filter({ hasText: 'Dropped' })
      .waitFor();
    await participant.getByRole('heading', { name: 'This study has ended' }).waitFor({ timeout: 15_000 });
    await screenshot(participant, 'flow-ended-by-experimenter');
  }, 60_000);
});
