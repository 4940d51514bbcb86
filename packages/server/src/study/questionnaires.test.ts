import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const work = mkdtempSync(join(tmpdir(), 'usher-questionnaires-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const NOW = new Date('2026-11-21T10:00:00.000Z');

/** A participant of the demo study (open mode: the room names them), at their first task's questionnaire. */
async function atQuestionnaire(logsDir?: string, registry = new StudyRegistry(':memory:')) {
  const server = await startTestServer({
    study: { study: DEMO, registry },
    now: () => NOW,
    ...(logsDir && { logsDir }),
  });
  const link = await fetch(`${server.url}/s/demo-01?participant=q1`, { redirect: 'manual' });
  const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
  // biome-ignore lint/suspicious/noExplicitAny: the answers are what the assertions check
  const call = async (route: string, body?: object): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${server.url}/api/participant${route}?room=${room}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'Content-Type': 'application/json' },
      ...(body && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  await call('/step', { step: 'consent' });
  await call('/step', { step: 'start-task' });
  const ended = await call('/step', { step: 'end-task', outcome: 'done' });
  const participant = registry.byRoom(room);
  if (!participant) throw new Error('not admitted');
  return { server, registry, call, ended: ended.body, participant };
}

describe('questionnaires in study mode', () => {
  it('asks the per-task questionnaire after a task, as the condition shows it, without giving attention checks away', async () => {
    const { ended, participant, call } = await atQuestionnaire();
    const condition = participant.plan.conditionId;
    expect(ended).toMatchObject({ status: 'task-questionnaire', taskIndex: 0, questionnaire: { kind: 'per-task' } });
    expect(ended.questionnaire.taskId).toBe(participant.plan.tasks[0]?.taskId);
    const items = ended.questionnaire.sections.flatMap((s: { items: { id: string }[] }) => s.items.map((i) => i.id));
    expect(items).toEqual(
      condition !== 'alone'
        ? ['effort', 'confident', 'useful', 'trust', 'obstacle']
        : ['effort', 'confident', 'obstacle'],
    );
    // A reload shows the same questionnaire: where the participant is, is stored.
    expect((await call('')).body.questionnaire).toEqual(ended.questionnaire);
  });

  it('refuses answers that do not fit, naming each item and changing nothing', async () => {
    const { server, registry, call, participant } = await atQuestionnaire();
    const wrong = await call('/questionnaire', {
      questionnaire: 'per-task',
      answers: { effort: 7, confident: 'yes', nonsense: 1 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('INVALID_ANSWERS');
    expect(wrong.body.error.problems).toEqual(
      expect.arrayContaining([
        { itemId: 'effort', problem: 'out-of-range', message: 'expected 0–4, not 7' },
        { itemId: 'confident', problem: 'wrong-kind', message: 'expected a whole number' },
        { itemId: 'nonsense', problem: 'unknown-item', message: 'no such item in this questionnaire' },
      ]),
    );
    const missing = await call('/questionnaire', { questionnaire: 'per-task', answers: { effort: 2 } });
    expect(missing.body.error.problems).toContainEqual(
      expect.objectContaining({ itemId: 'confident', problem: 'missing-required' }),
    );
    expect((await call('/questionnaire', { questionnaire: 'per-task', answers: [] })).body.error.code).toBe(
      'INVALID_MESSAGE',
    );
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`i${i}`, 1]));
    expect((await call('/questionnaire', { questionnaire: 'per-task', answers: tooMany })).status).toBe(400);
    const notNow = await call('/questionnaire', { questionnaire: 'post-study', answers: {} });
    expect([notNow.status, notNow.body.error.code]).toEqual([409, 'OUT_OF_STEP']);
    // A body that is not JSON is refused like one of the wrong shape, on this route and the step's.
    for (const route of ['/questionnaire', '/step']) {
      const broken = await fetch(`${server.url}/api/participant${route}?room=${participant.room}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"questionnaire": "per-task", "answers": {',
      });
      expect([broken.status, ((await broken.json()) as { error: { code: string } }).error.code]).toEqual([
        400,
        'INVALID_MESSAGE',
      ]);
    }
    expect(registry.questionnaireAnswers(DEMO.id)).toEqual([]);
    expect(registry.get(participant.id)?.status).toBe('task-questionnaire');
    expect(existsSync(join(server.logsDir, 'demo-01.questionnaires.jsonl'))).toBe(false);
  });

  it('stores accepted answers with participant, condition, task and time, logs them first, and moves on once', async () => {
    const { server, registry, call, participant } = await atQuestionnaire();
    const condition = participant.plan.conditionId as string;
    const answers = {
      effort: 0,
      confident: 6,
      ...(condition !== 'alone' && { useful: 5, trust: 4 }),
      obstacle: '  the seat map was small  ',
    };
    const at = '2026-11-21T10:00:05.000+01:00';
    const next = await call('/questionnaire', { questionnaire: 'per-task', answers, at });
    expect(next.body).toMatchObject({ status: 'briefing', taskIndex: 1 });
    expect((await call('/questionnaire', { questionnaire: 'per-task', answers })).status).toBe(409);
    const taskId = participant.plan.tasks[0]?.taskId;
    const stored = registry.questionnaireAnswers(DEMO.id);
    expect(stored.find((a) => a.itemId === 'obstacle')).toEqual({
      studyId: 'demo-01',
      participantId: participant.id,
      conditionId: condition,
      taskId,
      questionnaire: 'per-task',
      sectionId: 'about-task',
      itemId: 'obstacle',
      kind: 'text',
      value: 'the seat map was small',
      attentionExpected: null,
      answeredAt: NOW.toISOString(),
    });
    expect(stored).toHaveLength(Object.keys(answers).length);
    const log = readFileSync(join(server.logsDir, 'demo-01.questionnaires.jsonl'), 'utf8').trim().split('\n');
    expect(log.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        participantId: participant.id,
        conditionId: condition,
        taskId,
        questionnaire: 'per-task',
        submittedAt: NOW.toISOString(),
        page: { at },
        answers: expect.arrayContaining([expect.objectContaining({ itemId: 'effort', value: 0 })]),
      }),
    ]);
  });

  it('answers nothing it could not log: the participant stays on the questionnaire, nothing is stored', async () => {
    const logsDir = mkdtempSync(join(work, 'logs-'));
    // A folder where the questionnaire log belongs: every append fails.
    mkdirSync(join(logsDir, 'demo-01.questionnaires.jsonl'));
    const { registry, call, participant } = await atQuestionnaire(logsDir);
    const answers = {
      effort: 1,
      confident: 2,
      ...(participant.plan.conditionId !== 'alone' && { useful: 3, trust: 3 }),
    };
    const failed = await call('/questionnaire', { questionnaire: 'per-task', answers });
    expect(failed.status).toBe(500);
    expect(registry.questionnaireAnswers(DEMO.id)).toEqual([]);
    expect(registry.get(participant.id)?.status).toBe('task-questionnaire');
  });

  it('within subjects: skips a task questionnaire the condition shows nothing of, and asks at the end what every met condition shows', async () => {
    const scenario = new URL('../../../booking/scenarios/default.json', import.meta.url).pathname;
    const file = join(work, 'within.study.yaml');
    writeFileSync(
      file,
      `id: w
title: W
consent: ok
tasks:
  - { id: t1, title: T1, scenario: ${scenario}, briefing: b, success: { hard: [{ kind: adjacent }] } }
  - { id: t2, title: T2, scenario: ${scenario}, briefing: b, success: { hard: [{ kind: adjacent }] } }
conditions:
  - { id: alone, agent: none }
  - { id: helped, agent: autopilot }
assignment: { design: within }
questionnaires:
  perTask:
    - { id: s, conditions: [helped], items: [{ id: useful, kind: slider, text: Useful? }] }
  postStudy:
    - id: end
      items:
        - { id: prefer, kind: single, text: Which did you prefer?, options: [Alone, Helped], conditions: [helped] }
        - { id: alone-note, kind: text, text: What was booking alone like?, conditions: [alone], required: false }
`,
    );
    const study = loadStudyFile(file);
    const registry = new StudyRegistry(':memory:');
    const server = await startTestServer({ study: { study, registry }, now: () => NOW });
    const link = await fetch(`${server.url}/s/w?participant=w1`, { redirect: 'manual' });
    const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
    const post = async (route: string, body: object) =>
      (
        await fetch(`${server.url}/api/participant${route}?room=${room}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json() as Promise<{ status: string; questionnaire?: { sections: { items: { id: string }[] }[] } }>;
    const plan = registry.byRoom(room)?.plan;
    expect(plan?.conditionId).toBeNull();
    await post('/step', { step: 'consent' });
    const statuses: string[] = [];
    for (const planned of plan?.tasks ?? []) {
      await post('/step', { step: 'start-task' });
      const ended = await post('/step', { step: 'end-task', outcome: 'done' });
      statuses.push(ended.status);
      if (ended.status === 'task-questionnaire') {
        expect(planned.conditionId).toBe('helped');
        await post('/questionnaire', { questionnaire: 'per-task', answers: { useful: 80 } });
      }
    }
    // The task done alone had nothing to ask; at the end, the items of every condition met are shown.
    const order = plan?.tasks.map((t) => t.conditionId);
    expect(statuses).toEqual(
      order?.[0] === 'alone' ? ['briefing', 'task-questionnaire'] : ['task-questionnaire', 'post-study'],
    );
    const view = (await (await fetch(`${server.url}/api/participant?room=${room}`)).json()) as {
      status: string;
      questionnaire: { sections: { items: { id: string }[] }[] };
    };
    expect(view.status).toBe('post-study');
    expect(view.questionnaire.sections.flatMap((s) => s.items.map((i) => i.id))).toEqual(['prefer', 'alone-note']);
    expect(await post('/questionnaire', { questionnaire: 'post-study', answers: { prefer: 'Helped' } })).toMatchObject({
      status: 'done',
    });
    expect(registry.questionnaireAnswers('w').map((a) => [a.questionnaire, a.conditionId, a.taskId, a.itemId])).toEqual(
      [
        ['per-task', 'helped', plan?.tasks.find((t) => t.conditionId === 'helped')?.taskId, 'useful'],
        ['post-study', null, null, 'prefer'],
      ],
    );
  });

  it('moves on a participant whose questionnaire the study no longer has (restarted with another file)', async () => {
    const path = join(work, 'changed.sqlite');
    const first = await atQuestionnaire(undefined, new StudyRegistry(path));
    await first.server.close();
    first.registry.close();
    const registry = new StudyRegistry(path);
    const server = await startTestServer({ study: { study: { ...DEMO, questionnaires: {} }, registry } });
    const room = first.participant.room;
    const view = await (await fetch(`${server.url}/api/participant?room=${room}`)).json();
    expect(view).toMatchObject({ status: 'task-questionnaire', questionnaire: { kind: 'per-task', sections: [] } });
    const next = await fetch(`${server.url}/api/participant/questionnaire?room=${room}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ questionnaire: 'per-task', answers: {} }),
    });
    expect(await next.json()).toMatchObject({ status: 'briefing', taskIndex: 1 });
    expect(registry.questionnaireAnswers(DEMO.id)).toEqual([]);
    registry.close();
  });
});
