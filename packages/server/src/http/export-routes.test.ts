import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { checkBooking, type SubmittedBooking } from '@usher/booking';
import { exportStudy, readExportTable } from '@usher/export';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { AgentSupervisor } from '@usher/study-host';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../server.ts';
import { readLog, startTestServer } from '../testing/index.ts';

/*
 * The demo study (two conditions: alone, autopilot) run by 20 simulated participants over real
 * sockets, as in study/participants.test.ts, then exported: alone participants book on their page
 * by picking the first options, autopilot ones ask the agent; one only agrees to the consent.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
// The booking side of the export; the questionnaires' side is in study/participants.test.ts.
const DEMO: Study = {
  ...LOADED,
  questionnaires: {},
  conditions: LOADED.conditions.filter((c) => c.guard !== 'each-step').map((c) => ({ ...c, paceMs: 0 })),
};
const SECRET = new TextEncoder().encode('an export test secret of at least forty-three characters');

const work = mkdtempSync(join(tmpdir(), 'usher-export-study-'));
const logsDir = join(work, 'logs');
const registryPath = join(work, 'registry.sqlite');
/** What each participant task's host saw submitted: the truth the export's success is checked against. */
const submitted = new Map<string, SubmittedBooking>();

async function post(base: string, room: string, body: object) {
  const response = await fetch(`${base}/api/participant/step?room=${room}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

const said = (host: FaultyHost, text: string) => host.protocol.view().messageHistory.some((m) => m.text.includes(text));

/** The participant books alone on the page: the first option of every stage, as many seats and adult tickets as wanted. */
function bookFirstOptions(host: FaultyHost, seats: number): void {
  for (let guard = 0; guard < 20; guard++) {
    const spec = host.protocol.view().uiSpec;
    if (!spec) return;
    const free = spec.visibleItems.filter((item) => !item.isDisabled);
    if (spec.stage === 'seat') for (const item of free.slice(0, seats)) host.act('select', { itemId: item.id });
    else if (spec.stage === 'ticket') host.act('setQuantity', { typeId: 'adult', quantity: seats });
    else if (spec.stage !== 'confirm') host.act('select', { itemId: free[0]?.id as string });
    host.act('next', {});
  }
}

async function runStudy(): Promise<void> {
  const registry = new StudyRegistry(registryPath);
  let supervisor: AgentSupervisor | null = null;
  const server = await startServer({
    port: 0,
    bind: '127.0.0.1',
    room: 'default',
    headlessHost: false,
    warn: () => {},
    logsDir,
    study: {
      study: DEMO,
      registry,
      registryPath,
      hooks: {
        taskStarted: (p, condition) => supervisor?.start(p.room, p.id, condition),
        taskEnded: (p) => supervisor?.stop(p.room),
      },
    },
  });
  supervisor = new AgentSupervisor({
    relayUrl: server.url,
    studyId: DEMO.id,
    episodesDir: null,
    llm: null,
    log: () => {},
  });
  const loggedSubmit = (room: string) => {
    const session = server.relay.status().find((r) => r.room === room)?.studySession;
    const log = session ? readLog(join(logsDir, `${session.sessionId}.jsonl`)) : [];
    return log.some((r) => r.type === 'state.updated' && (r.payload as { uiSpec: unknown }).uiSpec === null);
  };
  const participant = async (i: number) => {
    const link = await fetch(`${server.url}/s/demo-01?participant=P${i}`, { redirect: 'manual' });
    const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
    await post(server.url, room, { step: 'consent' });
    if (i === 0) return;
    const record = registry.byRoom(room);
    for (const planned of record?.plan.tasks ?? []) {
      const task = DEMO.tasks.find((t) => t.id === planned.taskId);
      if (!task) throw new Error(`no task ${planned.taskId}`);
      await post(server.url, room, { step: 'start-task' });
      const host = await FaultyHost.join({ url: server.url, room, scenario: task.world });
      if (planned.conditionId === 'autopilot') {
        host.say(task.goal ?? task.title);
        await vi.waitFor(() => expect(said(host, 'Shall I book it?')).toBe(true), { timeout: 20_000, interval: 50 });
        host.say('yes');
      } else {
        const wanted = task.success.hard.find((h) => h.kind === 'seatCount');
        bookFirstOptions(host, wanted?.kind === 'seatCount' ? wanted.count : 2);
      }
      await vi.waitFor(() => expect(host.protocol.engine.submitted()).not.toBeNull(), {
        timeout: 10_000,
        interval: 50,
      });
      // The submit's state.updated is in the log before the task ends (it travels on the host's socket).
      await vi.waitFor(() => expect(loggedSubmit(room)).toBe(true), { timeout: 10_000, interval: 20 });
      submitted.set(`${record?.id} ${task.id}`, host.protocol.engine.submitted() as SubmittedBooking);
      await post(server.url, room, { step: 'end-task', outcome: 'submitted' });
      host.close();
    }
  };
  await Promise.all(Array.from({ length: 20 }, (_, i) => participant(i)));
  await supervisor.stopAll();
  await server.close();
  registry.close();
}

describe('the export of a simulated study with two conditions', () => {
  beforeAll(runStudy, 90_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('has one row per participant task, and success agrees with checkBooking on every row', async () => {
    const out = join(work, 'export');
    const result = await exportStudy({ study: DEMO, registryPath, logsDir, outDir: out, now: () => new Date(0) });
    expect(result.problemCount).toBe(0);
    const rows = await readExportTable(join(out, 'participant_tasks.parquet'));
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => `${r.participant_id} ${r.task_id}`)).size).toBe(40);
    const byCondition = { alone: 0, autopilot: 0 } as Record<string, number>;
    for (const row of rows) {
      byCondition[String(row.condition_id)] = (byCondition[String(row.condition_id)] ?? 0) + 1;
      const booking = submitted.get(`${row.participant_id} ${row.task_id}`);
      if (!booking) {
        // The participant who only agreed to the consent.
        expect(row).toMatchObject({ external_id: 'P0', outcome: 'not-started', booked: false, success: false });
        continue;
      }
      const task = DEMO.tasks.find((t) => t.id === row.task_id);
      if (!task) throw new Error(`no task ${row.task_id}`);
      const check = checkBooking(task.world, booking, { text: '', ...task.success });
      expect(row.success).toBe(check.satisfied);
      expect(row.hard_met).toBe(String(check.hard.filter((h) => h.ok).length));
      expect(row.failed_wish).toBe(check.hard.find((h) => !h.ok)?.constraint.kind ?? null);
      expect(row).toMatchObject({ booked: true, outcome: 'booked', sessions: '1' });
      expect(Number(row.time_on_task_s)).toBeGreaterThanOrEqual(0);
      if (row.condition_id === 'autopilot') {
        expect(Number(row.agent_actions)).toBeGreaterThan(5);
        expect(row).toMatchObject({ submitted_by: 'agent', messages_from_participant: '2', overrides: '0' });
        expect(Number(row.messages_from_agent)).toBeGreaterThanOrEqual(2);
      } else {
        expect(row).toMatchObject({ submitted_by: 'participant', agent_actions: '0', messages_from_agent: '0' });
        expect(Number(row.participant_actions)).toBeGreaterThan(10);
      }
    }
    expect(byCondition).toEqual({ alone: 20, autopilot: 20 });
    // Both verdicts occur, so the comparison above could fail either way.
    expect(new Set(rows.filter((r) => r.booked).map((r) => r.success))).toEqual(new Set([true, false]));

    // One event row per log line; the raw logs copied as they are.
    const lines = readdirSync(logsDir).flatMap((f) => readLog(join(logsDir, f)));
    const events = await readExportTable(join(out, 'events.parquet'));
    expect(events).toHaveLength(lines.length);
    expect(readdirSync(join(out, 'logs')).sort()).toEqual(readdirSync(logsDir).sort());
    const participants = await readExportTable(join(out, 'participants.parquet'));
    expect(participants).toHaveLength(20);
    // This study asks no questionnaires: their tables are there, and empty.
    expect(result.tables.find((t) => t.name === 'questionnaire_answers')?.rows).toBe(0);
    expect(readFileSync(join(out, 'participant_tasks.csv'), 'utf8').split('\n')[0]).toContain('participant_id');
  });

  it('serves the export as a zip to experimenters only', async () => {
    const registry = new StudyRegistry(registryPath);
    const server = await startTestServer({
      logsDir,
      access: 'token',
      secret: SECRET,
      study: { study: DEMO, registry, registryPath },
    });
    try {
      const url = `${server.url}/api/studies/demo-01/export.zip`;
      const as = async (token: string | null) =>
        fetch(url, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
      const caps = server.capabilities;
      if (!caps) throw new Error('token mode has capabilities');
      expect((await as(null)).status).toBe(401);
      expect((await as(await caps.issue({ kind: 'agent' }))).status).toBe(403);
      expect((await as(await caps.issue({ kind: 'host', room: 'r-x' }))).status).toBe(403);
      const experimenter = await caps.issue({ kind: 'experimenter' });
      expect(
        (
          await fetch(`${server.url}/api/studies/other/export.zip`, {
            headers: { Authorization: `Bearer ${experimenter}` },
          })
        ).status,
      ).toBe(404);
      const response = await as(experimenter);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/zip');
      const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
      const names = Object.keys(files);
      for (const table of ['participant_tasks', 'events', 'participants', 'log_problems']) {
        expect(names).toContain(`${table}.csv`);
        expect(names).toContain(`${table}.parquet`);
      }
      expect(names.filter((n) => n.startsWith('logs/'))).toHaveLength(readdirSync(logsDir).length);
      const csv = new TextDecoder().decode(files['participant_tasks.csv']);
      expect(csv.trim().split('\n')).toHaveLength(41);
      const manifest = JSON.parse(new TextDecoder().decode(files['export.json'])) as { study: { id: string } };
      expect(manifest.study.id).toBe('demo-01');
    } finally {
      await server.close();
      registry.close();
    }
  });
});
