import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBooking } from '@usher/booking';
import { exportStudy, readExportTable } from '@usher/export';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { PilotPage } from '@usher/study-host/pilot';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { readLog, startStudyServer } from '../testing/index.ts';

/*
 * The demo study run by 20 simulated participants at once, headless: each opens the study link,
 * agrees, and does both tasks on a page of their own (`usher pilot`'s page: a host over real
 * sockets), alone or with
 * the condition's agent, which the supervisor starts beside them and which asks before booking;
 * after each task they answer its questionnaire, and at the end SUS and the last questions.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
// The agents work at full speed here; the study's pace is for people.
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.filter((c) => c.guard !== 'each-step').map((c) => ({ ...c, paceMs: 0 })),
};

async function post(base: string, room: string, body: object, route = 'step') {
  const response = await fetch(`${base}/api/participant/${route}?room=${room}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ status: string; taskIndex: number; completion?: { code?: string } }>;
}

/**
 * SUS answers (items 1–10) and their scores, computed by hand: odd items answer − 1, even items
 * 5 − answer, the sum × 2.5. The first is the scored example of Brooke (1996): 22 × 2.5 = 55.
 */
const SUS_ANSWERS: [number[], number][] = [
  [[5, 4, 2, 1, 2, 3, 2, 4, 5, 2], 55],
  [[4, 2, 4, 2, 3, 1, 5, 1, 2, 2], 75],
  [[3, 3, 3, 3, 3, 3, 3, 3, 3, 3], 50],
  [[5, 1, 5, 1, 5, 1, 5, 1, 5, 1], 100],
];

/** What participant `i` answers after task `k` in `condition` (the agent's items only with the agent). */
function perTaskAnswers(i: number, k: number, condition: string): Record<string, number | string> {
  return {
    effort: (i + k) % 5,
    confident: 1 + ((i + 2 * k) % 7),
    ...(condition === 'autopilot' && { useful: 1 + (i % 7), trust: 7 - (i % 7) }),
    ...(i % 3 === 0 && { obstacle: `P${i} task ${k}: nothing` }),
  };
}

const said = (host: PilotPage, text: string) => host.protocol.view().messageHistory.some((m) => m.text.includes(text));

describe('the demo study, 20 participants at once', () => {
  it('gives each a room and a balanced condition, staffs agent conditions, logs every task, and ends with the code', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-participants-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const registryPath = join(work, 'registry.sqlite');
    const registry = new StudyRegistry(registryPath);
    onTestFinished(() => registry.close());
    const { server, supervisor } = await startStudyServer({ study: DEMO, registry });

    const participant = async (i: number) => {
      const link = await fetch(`${server.url}/s/demo-01?participant=P${i}`, { redirect: 'manual' });
      const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
      await post(server.url, room, { step: 'consent' });
      const record = registry.byRoom(room);
      const outcomes: boolean[] = [];
      let last: Awaited<ReturnType<typeof post>> | null = null;
      for (const [k, planned] of (record?.plan.tasks ?? []).entries()) {
        const task = DEMO.tasks.find((t) => t.id === planned.taskId);
        if (!task) throw new Error(`no task ${planned.taskId}`);
        await post(server.url, room, { step: 'start-task' });
        const host = await PilotPage.open({ url: server.url, room, scenario: task.world });
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
        expect(last).toMatchObject({ status: 'task-questionnaire' });
        const answers = perTaskAnswers(i, k, planned.conditionId);
        last = await post(server.url, room, { questionnaire: 'per-task', answers }, 'questionnaire');
      }
      expect(last).toMatchObject({ status: 'post-study' });
      const [sus] = SUS_ANSWERS[i % 4] as [number[], number];
      last = await post(
        server.url,
        room,
        {
          questionnaire: 'post-study',
          answers: {
            ...Object.fromEntries(sus.map((answer, k) => [`sus-${k + 1}`, answer])),
            attention: i === 7 ? 'Always' : 'Often',
          },
        },
        'questionnaire',
      );
      return { i, id: record?.id as string, room, outcomes, condition: record?.plan.conditionId, end: last };
    };

    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => participant(i)));
    await supervisor.stopAll();

    expect(new Set(results.map((r) => r.room)).size).toBe(20);
    expect(registry.conditionCounts(DEMO)).toEqual([10, 10]);
    for (const r of results.filter((r) => r.condition === 'autopilot')) expect(r.outcomes).toEqual([true, true]);
    for (const p of registry.participants(DEMO.id)) expect(p.status).toBe('done');
    for (const r of results) expect(r.end).toMatchObject({ status: 'done', completion: { code: 'USHER-DEMO-01' } });

    // One log per participant task, whole: its task record first, its end last, gapless.
    // Every answer once, in its participant's row, condition and task; SUS as computed by hand.
    const stored = registry.questionnaireAnswers(DEMO.id);
    const keys = stored.map((a) => `${a.participantId}|${a.questionnaire}|${a.taskId}|${a.itemId}`);
    expect(new Set(keys).size).toBe(keys.length);
    const scores = registry.questionnaireScores(DEMO.id);
    for (const r of results) {
      const plan = registry.get(r.id)?.plan;
      const mine = stored.filter((a) => a.participantId === r.id);
      for (const [k, planned] of (plan?.tasks ?? []).entries()) {
        const rows = mine.filter((a) => a.questionnaire === 'per-task' && a.taskId === planned.taskId);
        expect(Object.fromEntries(rows.map((a) => [a.itemId, a.value]))).toEqual(
          perTaskAnswers(r.i, k, planned.conditionId),
        );
        for (const row of rows) expect(row).toMatchObject({ conditionId: r.condition, sectionId: 'about-task' });
      }
      const post = mine.filter((a) => a.questionnaire === 'post-study');
      const [sus, score] = SUS_ANSWERS[r.i % 4] as [number[], number];
      expect(post.map((a) => [a.itemId, a.value, a.taskId, a.conditionId])).toEqual([
        ...sus.map((answer, k) => [`sus-${k + 1}`, answer, null, r.condition]),
        ['attention', r.i === 7 ? 'Always' : 'Often', null, r.condition],
      ]);
      expect(post.at(-1)?.attentionExpected).toBe('Often');
      expect(scores.filter((s) => s.participantId === r.id)).toEqual([
        expect.objectContaining({ questionnaire: 'post-study', instrument: 'sus', score, conditionId: r.condition }),
      ]);
    }
    // 20 × (10 SUS + 1 attention) + per task: 2 items alone, 4 with the agent, and an obstacle from every third.
    const obstacles = results.filter((r) => r.i % 3 === 0).length * 2;
    expect(stored).toHaveLength(20 * 11 + 10 * 2 * 2 + 10 * 2 * 4 + obstacles);
    // The questionnaire log holds the same, one submitted questionnaire a line.
    const logged = readFileSync(join(server.logsDir, 'demo-01.questionnaires.jsonl'), 'utf8').trim().split('\n');
    expect(logged).toHaveLength(60);
    expect(logged.reduce((n, line) => n + (JSON.parse(line) as { answers: unknown[] }).answers.length, 0)).toBe(
      stored.length,
    );

    // The export has every answer once, in its participant task's row, and the SUS scores computed by hand.
    const outDir = join(work, 'export');
    await exportStudy({ study: DEMO, registryPath, logsDir: server.logsDir, outDir });
    const exported = await readExportTable(join(outDir, 'questionnaire_answers.parquet'));
    expect(exported).toHaveLength(stored.length);
    const exportedKeys = exported.map((a) => `${a.participant_id}|${a.questionnaire}|${a.task_id}|${a.item_id}`);
    expect(new Set(exportedKeys)).toEqual(new Set(keys));
    const wide = await readExportTable(join(outDir, 'questionnaire_wide.parquet'));
    expect(wide).toHaveLength(40);
    for (const r of results) {
      const rows = wide.filter((w) => w.participant_id === r.id);
      expect(rows).toHaveLength(2);
      const [, score] = SUS_ANSWERS[r.i % 4] as [number[], number];
      for (const row of rows) {
        expect(row).toMatchObject({ condition_id: r.condition, 'score.post.sus': score });
        const k = registry.get(r.id)?.plan.tasks.findIndex((t) => t.taskId === row.task_id) as number;
        expect(String(row['task.about-task.confident'])).toBe(
          String(perTaskAnswers(r.i, k, r.condition as string).confident),
        );
      }
    }

    const logs = readdirSync(server.logsDir)
      .filter((f) => f.startsWith('s-'))
      .map((f) => readLog(join(server.logsDir, f)));
    expect(logs).toHaveLength(40);
    const byCondition = { alone: 0, autopilot: 0 };
    for (const log of logs) {
      const first = log[1]?.payload as { conditionId: 'alone' | 'autopilot' };
      expect(log[0]?.type).toBe('agent.manifest');
      expect(log[1]?.type).toBe('study.task');
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
