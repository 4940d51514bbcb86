import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MistakeRecord } from '@usher/agent';
import { FaultyHost } from '@usher/agent/testing';
import type { SubmittedBooking } from '@usher/booking';
import { exportStudy, readExportTable } from '@usher/export';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { readLog, startStudyServer } from '../testing/index.ts';

/*
 * A simulated study whose agent makes scripted mistakes: in the IMAX task a showing later than
 * the best and seats apart, in the matinee the next day. Half the participants say yes to
 * whatever the agent books; the other half object before booking ("we must sit next to each other",
 * "Saturday please"). The logs hold each mistake in order, the page never hears of one, and the
 * export's mistake columns say, row by row, which were caught.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const AUTOPILOT = LOADED.conditions.find((c) => c.agent === 'autopilot');
if (!AUTOPILOT) throw new Error('the demo study has no autopilot condition');
const STUDY: Study = {
  ...LOADED,
  conditions: [
    {
      ...AUTOPILOT,
      paceMs: 0,
      mistakes: [
        { task: 'imax-evening', stage: 'time', kind: 'later-showing' },
        { task: 'imax-evening', stage: 'seat', kind: 'seats-apart' },
        { task: 'family-matinee', stage: 'date', kind: 'next-day', id: 'sunday' },
      ],
    },
  ],
};

async function post(base: string, room: string, body: object, route = 'step') {
  const response = await fetch(`${base}/api/participant/${route}?room=${room}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ status: string }>;
}

const asks = (host: FaultyHost) =>
  host.protocol.view().messageHistory.filter((m) => m.text.includes('Shall I book it?')).length;

/** What the participant says to catch each task's mistakes, before saying yes. */
const OBJECTION: Record<string, string> = {
  'imax-evening': 'We must sit next to each other',
  'family-matinee': 'Saturday please',
};

/** Whether a submitted booking still holds a mistake's choice (the data dictionary's definition). */
function holds(booking: SubmittedBooking, chosen: MistakeRecord['chosen']): boolean {
  if ('showing' in chosen) return booking.showingId === chosen.showing;
  if ('date' in chosen) return booking.date === chosen.date;
  return [...booking.seats.map((s) => s.id)].sort().join(' ') === [...chosen.seats].sort().join(' ');
}

// Each runs with the agents in the server's thread and in an agent thread (usher serve --agent-threads).
describe.each([
  { where: "agents in the server's thread", agentThreads: 0 },
  { where: 'agents in an agent thread', agentThreads: 1 },
])('scripted agent mistakes in a simulated study, $where', ({ agentThreads }) => {
  it('logs each mistake in order, tells the page nothing, exports what each participant caught, and freezes the agent', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-mistakes-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const registryPath = join(work, 'registry.sqlite');
    const registry = new StudyRegistry(registryPath);
    onTestFinished(() => registry.close());
    const logsDir = join(work, 'logs');
    const { server, supervisor } = await startStudyServer({ study: STUDY, registry, logsDir, agentThreads });

    const participant = async (i: number) => {
      const catches = i % 2 === 0;
      const link = await fetch(`${server.url}/s/demo-01?participant=M${i}`, { redirect: 'manual' });
      const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
      await post(server.url, room, { step: 'consent' });
      const record = registry.byRoom(room);
      const tasks: Array<{ taskId: string; booking: SubmittedBooking; frames: string }> = [];
      for (const planned of record?.plan.tasks ?? []) {
        const task = STUDY.tasks.find((t) => t.id === planned.taskId);
        if (!task) throw new Error(`no task ${planned.taskId}`);
        await post(server.url, room, { step: 'start-task' });
        const host = await FaultyHost.join({ url: server.url, room, scenario: task.world });
        host.say(task.goal ?? task.title);
        await vi.waitFor(() => expect(asks(host)).toBe(1), { timeout: 20_000, interval: 50 });
        if (catches) {
          host.say(OBJECTION[task.id] as string);
          await vi.waitFor(() => expect(asks(host)).toBe(2), { timeout: 20_000, interval: 50 });
        }
        host.say('yes');
        await vi.waitFor(() => expect(host.protocol.engine.submitted()).not.toBeNull(), {
          timeout: 10_000,
          interval: 50,
        });
        tasks.push({
          taskId: task.id,
          booking: host.protocol.engine.submitted() as SubmittedBooking,
          frames: JSON.stringify(host.received),
        });
        await post(server.url, room, { step: 'end-task', outcome: 'submitted' });
        host.close();
        await post(
          server.url,
          room,
          { questionnaire: 'per-task', answers: { effort: 2, confident: 4, useful: 4, trust: 4 } },
          'questionnaire',
        );
      }
      return { i, catches, id: record?.id as string, tasks };
    };
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => participant(i)));
    supervisor.stopAll();

    // Each task's log: the manifest first, then every mistake declared for it, in the order made,
    // each before the agent's action that makes it.
    const logs = readdirSync(logsDir)
      .filter((f) => f.startsWith('s-'))
      .map((f) => readLog(join(logsDir, f)));
    expect(logs).toHaveLength(8);
    const made = new Map<string, MistakeRecord[]>();
    for (const log of logs) {
      expect(log[0]).toMatchObject({
        type: 'agent.manifest',
        direction: 'internal',
        payload: { manifest: { agent: 'autopilot', planner: 'rules', paceMs: 0, guard: 'before-submit' } },
      });
      const task = log[1]?.payload as { participantId: string; taskId: string };
      const mistakes = log.filter((r) => r.type === 'agent.mistake');
      for (const m of mistakes) expect(m.direction).toBe('internal');
      expect(mistakes.map((m) => (m.payload as unknown as MistakeRecord).mistakeId)).toEqual(
        task.taskId === 'imax-evening' ? ['later-showing', 'seats-apart'] : ['sunday'],
      );
      for (const m of mistakes) {
        const next = log.slice(m.eventIndex + 1).find((r) => r.type === 'tool.call');
        const chosen = (m.payload as unknown as MistakeRecord).chosen;
        const ids = JSON.stringify(next?.payload);
        const first = 'showing' in chosen ? chosen.showing : 'date' in chosen ? chosen.date : chosen.seats[0];
        expect(ids).toContain(first);
      }
      made.set(
        `${task.participantId}|${task.taskId}`,
        mistakes.map((m) => m.payload as unknown as MistakeRecord),
      );
    }

    // The page heard nothing of them: no frame it received names a mistake or what was right instead.
    for (const r of results) {
      for (const t of r.tasks) {
        expect(t.frames).not.toMatch(/mistake|agent\.manifest|"truth"/i);
        for (const m of made.get(`${r.id}|${t.taskId}`) ?? []) expect(t.frames).not.toContain(m.mistakeId);
      }
    }

    // The export: per participant task, the mistakes made and those caught before submitting.
    const outDir = join(work, 'export');
    await exportStudy({ study: STUDY, registryPath, logsDir, outDir });
    const rows = await readExportTable(join(outDir, 'participant_tasks.parquet'));
    expect(rows).toHaveLength(8);
    for (const r of results) {
      for (const t of r.tasks) {
        const mistakes = made.get(`${r.id}|${t.taskId}`) ?? [];
        const caught = mistakes.filter((m) => !holds(t.booking, m.chosen)).map((m) => m.mistakeId);
        // What the participant did decides it: saying yes keeps every mistake; objecting catches the
        // seats and the day, while the later showing still meets the wish for the evening.
        expect(caught).toEqual(r.catches ? (t.taskId === 'imax-evening' ? ['seats-apart'] : ['sunday']) : []);
        const row = rows.find((x) => x.participant_id === r.id && x.task_id === t.taskId);
        expect(row).toMatchObject({
          mistakes_made: String(mistakes.length),
          mistakes_caught: String(caught.length),
          mistake_ids: mistakes.map((m) => m.mistakeId).join(' '),
          mistakes_caught_ids: caught.length > 0 ? caught.join(' ') : null,
          agent_planner: 'rules',
          agent_pace_ms: '0',
          agent_guard: 'before-submit',
          agent_manifest_changed: false,
        });
        expect(row?.agent_manifest_hash).toMatch(/^[0-9a-f]{64}$/);
      }
    }
    await server.close();

    // The agent is frozen: another pace, or another planner, is refused at start with the field named.
    const paced: Study = { ...STUDY, conditions: STUDY.conditions.map((c) => ({ ...c, paceMs: 400 })) };
    await expect(startStudyServer({ study: paced, registry, logsDir })).rejects.toThrow(
      /conditions\.autopilot\.paceMs: 0 → 400/,
    );
    const llm: Study = { ...STUDY, conditions: STUDY.conditions.map((c) => ({ ...c, planner: 'llm' as const })) };
    await expect(startStudyServer({ study: llm, registry, logsDir })).rejects.toThrow(
      /conditions\.autopilot\.planner: "rules" → "llm"/,
    );
    expect(registry.agentManifests(STUDY.id)).toHaveLength(1);

    // Told to go on: the change is recorded in the registry and in the next study log.
    const again = await startStudyServer({ study: paced, registry, logsDir, agents: { llm: null, accept: true } });
    const manifests = registry.agentManifests(STUDY.id);
    expect(manifests).toHaveLength(2);
    expect(manifests[1]?.acceptedChange).toMatchObject({
      from: manifests[0]?.hash,
      changes: ['conditions.autopilot.paceMs: 0 → 400'],
    });
    const link = await fetch(`${again.server.url}/s/demo-01?participant=M9`, { redirect: 'manual' });
    const room = new URL(link.headers.get('location') as string, again.server.url).searchParams.get('room') as string;
    await post(again.server.url, room, { step: 'consent' });
    await post(again.server.url, room, { step: 'start-task' });
    const newest = readdirSync(logsDir)
      .filter((f) => f.startsWith('s-'))
      .map((f) => readLog(join(logsDir, f)))
      .find((log) => log[1]?.payload.participantId === registry.byRoom(room)?.id);
    expect(newest?.[0]?.payload).toMatchObject({
      manifest: { paceMs: 400 },
      acceptedChange: { changes: ['conditions.autopilot.paceMs: 0 → 400'] },
    });
  }, 120_000);
});
