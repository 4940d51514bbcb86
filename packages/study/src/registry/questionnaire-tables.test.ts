import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStudyFile } from '../study-file/load.ts';
import type { QuestionnaireRecord } from './questionnaire-tables.ts';
import { StudyRegistry } from './registry.ts';

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const work = mkdtempSync(join(tmpdir(), 'usher-registry-q-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const NOW = new Date('2026-11-21T10:00:00.000Z');

const record = (participantId: string, taskId: string | null): QuestionnaireRecord => ({
  studyId: DEMO.id,
  participantId,
  conditionId: 'alone',
  taskId,
  questionnaire: taskId ? 'per-task' : 'post-study',
  answers: [
    { sectionId: 's', itemId: 'effort', kind: 'likert', value: 3 },
    { sectionId: 's', itemId: 'check', kind: 'single', value: 'agree', attentionExpected: 'agree' },
  ],
  scores: [{ instrument: 'sus', score: 72.5 }],
});

describe('the registry’s questionnaire tables', () => {
  it('stores a questionnaire’s answers and scores with the step that moves the participant on, in the export’s columns', () => {
    const path = join(work, 'registry.sqlite');
    const registry = new StudyRegistry(path);
    const { participant: p } = registry.admit(DEMO, { recruitment: {}, now: NOW });
    registry.progress(p.id, { status: 'post-study' }, NOW);
    const stored = registry.recordQuestionnaire(
      record(p.id, null),
      { status: 'done' },
      { status: 'post-study', taskIndex: 0 },
      NOW,
    );
    expect(stored).toBe(true);
    expect(registry.get(p.id)?.status).toBe('done');
    registry.close();

    // What another reader (the export) sees, through SQLite alone.
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT * FROM questionnaire_answers ORDER BY item_id').all()).toEqual([
      {
        study_id: 'demo-01',
        participant_id: p.id,
        condition_id: 'alone',
        task_id: null,
        questionnaire: 'post-study',
        section_id: 's',
        item_id: 'check',
        kind: 'single',
        value: '"agree"',
        attention_expected: '"agree"',
        answered_at: NOW.toISOString(),
      },
      expect.objectContaining({ item_id: 'effort', value: '3', attention_expected: null }),
    ]);
    expect(db.prepare('SELECT instrument, score, task_id, scored_at FROM questionnaire_scores').all()).toEqual([
      { instrument: 'sus', score: 72.5, task_id: null, scored_at: NOW.toISOString() },
    ]);
    db.close();
  });

  it('stores nothing when the participant moved on meanwhile, or when the log cannot be written', () => {
    const registry = new StudyRegistry(':memory:');
    const { participant: p } = registry.admit(DEMO, { recruitment: {}, now: NOW });
    registry.progress(p.id, { status: 'task-questionnaire' }, NOW);
    const stale = { status: 'task' as const, taskIndex: 0 };
    expect(registry.recordQuestionnaire(record(p.id, 'imax-evening'), { status: 'briefing' }, stale, NOW)).toBe(false);
    const from = { status: 'task-questionnaire' as const, taskIndex: 0 };
    expect(() =>
      registry.recordQuestionnaire(record(p.id, 'imax-evening'), { status: 'briefing' }, from, NOW, () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(registry.questionnaireAnswers(DEMO.id)).toEqual([]);
    expect(registry.questionnaireScores(DEMO.id)).toEqual([]);
    expect(registry.get(p.id)?.status).toBe('task-questionnaire');
  });

  it('keeps each answer once, the post-study ones (task_id NULL) included', () => {
    const registry = new StudyRegistry(':memory:');
    const { participant: p } = registry.admit(DEMO, { recruitment: {}, now: NOW });
    for (const taskId of ['imax-evening', null]) {
      const from = { status: 'task-questionnaire' as const, taskIndex: 0 };
      registry.progress(p.id, from, NOW);
      expect(registry.recordQuestionnaire(record(p.id, taskId), from, from, NOW)).toBe(true);
      expect(() => registry.recordQuestionnaire(record(p.id, taskId), from, from, NOW)).toThrow(/UNIQUE/);
    }
    expect(registry.questionnaireAnswers(DEMO.id).map((a) => [a.taskId, a.itemId, a.value])).toEqual([
      ['imax-evening', 'effort', 3],
      ['imax-evening', 'check', 'agree'],
      [null, 'effort', 3],
      [null, 'check', 'agree'],
    ]);
    expect(registry.questionnaireScores(DEMO.id)).toHaveLength(2);
  });
});
