import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { checkBooking } from '@usher/booking';
import { AgentSupervisor, loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { describe, expect, it, vi } from 'vitest';
import { readLog, startTestServer } from '../testing/fixtures.ts';

/*
 * The demo study run by 20 simulated participants at once, headless: each opens the study link,
 * agrees, and does both tasks on a page of their own (a host over real sockets), alone or with
 * the condition's agent, which the supervisor starts beside them and which asks before booking.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
// The agents work at full speed here; the study's pace is for people.
const DEMO: Study = { ...LOADED, conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })) };

async function post(base: string, room: string, body: object) {
  const response = await fetch(`${base}/api/participant/step?room=${room}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ status: string; taskIndex: number; completion?: { code?: string } }>;
}

const said = (host: FaultyHost, text: string) => host.protocol.view().messageHistory.some((m) => m.text.includes(text));

describe('the demo study, 20 participants at once', () => {
  it('gives each a room and a balanced condition, staffs agent conditions, logs every task, and ends with the code', async () => {
    const registry = new StudyRegistry(':memory:');
    let supervisor: AgentSupervisor | null = null;
    const server = await startTestServer({
      study: {
        study: DEMO,
        registry,
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

    const participant = async (i: number) => {
      const link = await fetch(`${server.url}/s/demo-01?participant=P${i}`, { redirect: 'manual' });
      const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
      await post(server.url, room, { step: 'consent' });
      const record = registry.byRoom(room);
      const outcomes: boolean[] = [];
      let last: Awaited<ReturnType<typeof post>> | null = null;
      for (const planned of record?.plan.tasks ?? []) {
        const task = DEMO.tasks.find((t) => t.id === planned.taskId);
        if (!task) throw new Error(`no task ${planned.taskId}`);
        await post(server.url, room, { step: 'start-task' });
        const host = await FaultyHost.join({ url: server.url, room, scenario: task.world });
        if (planned.conditionId === 'autopilot') {
          host.say(task.goal ?? task.title);
          await vi.waitFor(() => expect(said(host, 'Shall I book it?')).toBe(true), { timeout: 20_000, interval: 50 });
          host.say('yes');
          await vi.waitFor(() => expect(host.protocol.engine.submitted()).not.toBeNull(), {
            timeout: 10_000,
            interval: 50,
          });
          const check = checkBooking(task.world, host.protocol.engine.submitted() as never, {
            text: '',
            ...task.success,
          });
          outcomes.push(check.hard.every((h) => h.ok));
          last = await post(server.url, room, { step: 'end-task', outcome: 'submitted' });
        } else {
          const first = host.protocol.view().uiSpec?.visibleItems[0]?.id as string;
          host.act('select', { itemId: first });
          last = await post(server.url, room, { step: 'end-task', outcome: 'done' });
        }
        host.close();
      }
      return { room, outcomes, condition: record?.plan.conditionId, end: last };
    };

    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => participant(i)));
    supervisor.stopAll();

    expect(new Set(results.map((r) => r.room)).size).toBe(20);
    expect(registry.conditionCounts(DEMO)).toEqual([10, 10]);
    for (const r of results.filter((r) => r.condition === 'autopilot')) expect(r.outcomes).toEqual([true, true]);
    for (const p of registry.participants(DEMO.id)) expect(p.status).toBe('done');
    for (const r of results) expect(r.end).toMatchObject({ status: 'done', completion: { code: 'USHER-DEMO-01' } });

    // One log per participant task, whole: its task record first, its end last, gapless.
    const logs = readdirSync(server.logsDir).map((f) => readLog(join(server.logsDir, f)));
    expect(logs).toHaveLength(40);
    const byCondition = { alone: 0, autopilot: 0 };
    for (const log of logs) {
      const first = log[0]?.payload as { conditionId: 'alone' | 'autopilot' };
      expect(log[0]?.type).toBe('study.task');
      expect(log.at(-1)?.type).toBe('study.task-ended');
      expect(log.map((r) => r.eventIndex)).toEqual(log.map((_, i) => i));
      byCondition[first.conditionId] += 1;
      const calls = log.filter((r) => r.type === 'tool.call').length;
      if (first.conditionId === 'autopilot') expect(calls).toBeGreaterThan(5);
      else expect(log.some((r) => r.type === 'participant.action')).toBe(true);
    }
    expect(byCondition).toEqual({ alone: 20, autopilot: 20 });
  }, 90_000);
});
