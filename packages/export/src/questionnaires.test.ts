import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudyFile } from '@usher/study';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { exportStudy } from './export.ts';
import { readExportCsv, readExportTable } from './read.ts';
import { writeSyntheticStudy } from './testing/synthetic.ts';

const DEMO = loadStudyFile(new URL('../../../studies/demo.study.yaml', import.meta.url).pathname);
const work = mkdtempSync(join(tmpdir(), 'usher-export-q-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Answers and scores written straight into the registry's questionnaire tables (the registry
 * made them), including rows its own flow never writes (a post-study answer stored twice, once
 * with '' and once with NULL for its task), to show which one the export keeps.
 */
function addQuestionnaires(path: string) {
  const db = new Database(path);
  const participants = db
    .prepare<[], { id: string; condition_id: string }>('SELECT id, condition_id FROM participants ORDER BY rowid')
    .all();
  const answer = db.prepare(`INSERT INTO questionnaire_answers VALUES ('demo-01', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const score = db.prepare(`INSERT INTO questionnaire_scores VALUES ('demo-01', ?, ?, ?, ?, ?, ?, ?)`);
  participants.forEach((p, i) => {
    for (const task of ['imax-evening', 'family-matinee']) {
      answer.run(
        p.id,
        p.condition_id,
        task,
        'per-task',
        'tlx',
        'effort',
        'likert',
        String(i % 7),
        null,
        '2026-11-21T10:00:00Z',
      );
      answer.run(
        p.id,
        p.condition_id,
        task,
        'per-task',
        'tlx',
        'check',
        'attention',
        '"agree"',
        '"agree"',
        '2026-11-21T10:00:01Z',
      );
      score.run(p.id, p.condition_id, task, 'per-task', 'nasa-tlx', 10 + i, '2026-11-21T10:00:02Z');
    }
    // Post-study: no task; the second answer to the same item replaces the first.
    answer.run(
      p.id,
      p.condition_id,
      '',
      'post-study',
      'trust',
      'reliable',
      'likert',
      '2',
      null,
      '2026-11-21T11:00:00Z',
    );
    answer.run(
      p.id,
      p.condition_id,
      null,
      'post-study',
      'trust',
      'reliable',
      'likert',
      '5',
      null,
      '2026-11-21T11:00:05Z',
    );
    answer.run(
      p.id,
      p.condition_id,
      '',
      'post-study',
      'open',
      'comment',
      'text',
      JSON.stringify(i === 0 ? '=HYPERLINK("http://example.com","see")' : `it was, "fine"\nreally`),
      null,
      '2026-11-21T11:00:06Z',
    );
    score.run(p.id, p.condition_id, null, 'post-study', 'trust-scale', 4.5, '2026-11-21T11:00:07Z');
  });
  db.close();
  return participants;
}

describe('questionnaire tables', () => {
  it('exports answers and scores long, and one wide row per participant task with every item and score', async () => {
    const logsDir = join(work, 'logs');
    const registryPath = join(work, 'registry.sqlite');
    writeSyntheticStudy({ study: DEMO, participants: 4, logsDir, registryPath, seed: 3 });
    const participants = addQuestionnaires(registryPath);
    const outDir = join(work, 'out');
    const result = await exportStudy({ study: DEMO, registryPath, logsDir, outDir });
    expect(result.notes).toEqual([]);
    expect(result.tables.map((t) => [t.name, t.rows])).toEqual(
      expect.arrayContaining([
        ['questionnaire_answers', 4 * 7],
        ['questionnaire_scores', 4 * 3],
        ['questionnaire_wide', 8],
      ]),
    );
    const wide = await readExportTable(join(outDir, 'questionnaire_wide.parquet'));
    const first = participants[0]?.id;
    const row = wide.find((r) => r.participant_id === first && r.task_id === 'family-matinee');
    const other = wide.find((r) => r.participant_id === participants[1]?.id);
    expect(other?.['post.open.comment']).toBe('it was, "fine"\nreally');
    expect(row).toMatchObject({
      external_id: 'S0',
      'task.tlx.effort': '0',
      'task.tlx.check': 'agree',
      'score.task.nasa-tlx': 10,
      'post.trust.reliable': '5',
      // Parquet keeps the text exactly; the CSV shows a formula as text (below).
      'post.open.comment': '=HYPERLINK("http://example.com","see")',
      'score.post.trust-scale': 4.5,
    });
    expect(Object.keys(row ?? {})).not.toContain('status');
    const csv = await readExportCsv(join(outDir, 'questionnaire_wide.csv'));
    const csvRow = csv.find((r) => r.participant_id === first && r.task_id === 'family-matinee');
    expect(csvRow?.['post.open.comment']).toBe(`'=HYPERLINK("http://example.com","see")`);
    expect(csv.find((r) => r.participant_id === participants[1]?.id)?.['post.open.comment']).toBe(
      'it was, "fine"\nreally',
    );
    const long = await readExportTable(join(outDir, 'questionnaire_answers.parquet'));
    expect(long.filter((a) => a.participant_id === first && a.item_id === 'reliable').map((a) => a.value)).toEqual([
      '2',
      '5',
    ]);
  });
});

describe('questionnaire_wide', () => {
  it('orders numbered items as people number them: sus-2 before sus-10', async () => {
    const dir = mkdtempSync(join(work, 'order-'));
    const registryPath = join(dir, 'registry.sqlite');
    writeSyntheticStudy({ study: DEMO, participants: 1, logsDir: join(dir, 'logs'), registryPath, seed: 5 });
    const db = new Database(registryPath);
    const [p] = db.prepare<[], { id: string; condition_id: string }>('SELECT id, condition_id FROM participants').all();
    const answer = db.prepare(
      `INSERT INTO questionnaire_answers VALUES ('demo-01', ?, ?, NULL, 'post-study', 'sus', ?, 'likert', ?, NULL, ?)`,
    );
    for (const n of [10, 2, 1, 9, 3])
      answer.run(p?.id, p?.condition_id, `sus-${n}`, '3', `2026-11-21T11:00:${String(n).padStart(2, '0')}Z`);
    db.close();
    await exportStudy({ study: DEMO, registryPath, logsDir: join(dir, 'logs'), outDir: join(dir, 'out') });
    const [row] = await readExportCsv(join(dir, 'out', 'questionnaire_wide.csv'));
    expect(Object.keys(row ?? {}).filter((k) => k.startsWith('post.sus.'))).toEqual([
      'post.sus.sus-1',
      'post.sus.sus-2',
      'post.sus.sus-3',
      'post.sus.sus-9',
      'post.sus.sus-10',
    ]);
  });
});
