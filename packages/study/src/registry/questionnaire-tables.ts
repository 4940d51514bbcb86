import type Database from 'better-sqlite3';
import type { Answer } from '../questionnaire/answers.ts';
import type { InstrumentName } from '../questionnaire/instruments.ts';
import type { QuestionnaireKind } from '../questionnaire/schema.ts';

/**
 * The registry's questionnaire tables, read by the export as they are (packages/study/README.md,
 * "Where answers are kept"): one row per answer, one per scored instrument. `task_id` is NULL for
 * the post-study questionnaire; partial unique indexes keep each answer and score once there too
 * (SQLite treats NULLs in a primary key as distinct).
 */
export function createQuestionnaireTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS questionnaire_answers (
      study_id           TEXT NOT NULL,
      participant_id     TEXT NOT NULL,
      condition_id       TEXT,
      task_id            TEXT NULL,
      questionnaire      TEXT NOT NULL,
      section_id         TEXT NOT NULL,
      item_id            TEXT NOT NULL,
      kind               TEXT NOT NULL,
      value              TEXT NOT NULL,
      attention_expected TEXT NULL,
      answered_at        TEXT NOT NULL,
      PRIMARY KEY (participant_id, questionnaire, task_id, item_id)
    );
    CREATE UNIQUE INDEX IF NOT EXISTS questionnaire_answers_post ON questionnaire_answers (participant_id, questionnaire, item_id)
      WHERE task_id IS NULL;
    CREATE INDEX IF NOT EXISTS questionnaire_answers_study ON questionnaire_answers (study_id);
    CREATE TABLE IF NOT EXISTS questionnaire_scores (
      study_id       TEXT NOT NULL,
      participant_id TEXT NOT NULL,
      condition_id   TEXT,
      task_id        TEXT NULL,
      questionnaire  TEXT NOT NULL,
      instrument     TEXT NOT NULL,
      score          REAL NOT NULL,
      scored_at      TEXT NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS questionnaire_scores_once ON questionnaire_scores
      (participant_id, questionnaire, IFNULL(task_id, ''), instrument);
    CREATE INDEX IF NOT EXISTS questionnaire_scores_study ON questionnaire_scores (study_id);
  `);
}

/** A submitted questionnaire: whose, which, and its checked answers and scores. */
export interface QuestionnaireRecord {
  studyId: string;
  participantId: string;
  /** The condition the answers speak of: the task's, or after a within-subjects study, null. */
  conditionId: string | null;
  /** The task just done; null for the post-study questionnaire. */
  taskId: string | null;
  questionnaire: QuestionnaireKind;
  answers: Answer[];
  scores: { instrument: InstrumentName; score: number }[];
}

/** One stored answer, as read back (its value parsed). */
export interface StoredAnswer {
  studyId: string;
  participantId: string;
  conditionId: string | null;
  taskId: string | null;
  questionnaire: QuestionnaireKind;
  sectionId: string;
  itemId: string;
  kind: string;
  value: unknown;
  attentionExpected: unknown;
  answeredAt: string;
}

export interface StoredScore {
  participantId: string;
  conditionId: string | null;
  taskId: string | null;
  questionnaire: QuestionnaireKind;
  instrument: InstrumentName;
  score: number;
  scoredAt: string;
}

export function insertQuestionnaire(db: Database.Database, record: QuestionnaireRecord, at: string): void {
  const answer = db.prepare(
    `INSERT INTO questionnaire_answers (study_id, participant_id, condition_id, task_id, questionnaire, section_id, item_id, kind, value, attention_expected, answered_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const score = db.prepare(
    `INSERT INTO questionnaire_scores (study_id, participant_id, condition_id, task_id, questionnaire, instrument, score, scored_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const { studyId, participantId, conditionId, taskId, questionnaire } = record;
  for (const a of record.answers) {
    answer.run(
      studyId,
      participantId,
      conditionId,
      taskId,
      questionnaire,
      a.sectionId,
      a.itemId,
      a.kind,
      JSON.stringify(a.value),
      a.attentionExpected === undefined ? null : JSON.stringify(a.attentionExpected),
      at,
    );
  }
  for (const s of record.scores) {
    score.run(studyId, participantId, conditionId, taskId, questionnaire, s.instrument, s.score, at);
  }
}

export function readAnswers(db: Database.Database, studyId: string): StoredAnswer[] {
  return db
    .prepare<[string], Record<string, string | null>>(
      'SELECT * FROM questionnaire_answers WHERE study_id = ? ORDER BY answered_at, rowid',
    )
    .all(studyId)
    .map((row) => ({
      studyId: row.study_id as string,
      participantId: row.participant_id as string,
      conditionId: row.condition_id ?? null,
      taskId: row.task_id ?? null,
      questionnaire: row.questionnaire as QuestionnaireKind,
      sectionId: row.section_id as string,
      itemId: row.item_id as string,
      kind: row.kind as string,
      value: JSON.parse(row.value as string),
      attentionExpected: row.attention_expected === null ? null : JSON.parse(row.attention_expected as string),
      answeredAt: row.answered_at as string,
    }));
}

export function readScores(db: Database.Database, studyId: string): StoredScore[] {
  return db
    .prepare<[string], Record<string, string | number | null>>(
      'SELECT * FROM questionnaire_scores WHERE study_id = ? ORDER BY scored_at, rowid',
    )
    .all(studyId)
    .map((row) => ({
      participantId: row.participant_id as string,
      conditionId: (row.condition_id as string | null) ?? null,
      taskId: (row.task_id as string | null) ?? null,
      questionnaire: row.questionnaire as QuestionnaireKind,
      instrument: row.instrument as InstrumentName,
      score: row.score as number,
      scoredAt: row.scored_at as string,
    }));
}
