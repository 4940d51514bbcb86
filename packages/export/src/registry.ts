import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/** A participant as the registry stores it (packages/study/src/registry), read without changing anything. */
export interface RegistryParticipant {
  id: string;
  externalId: string | null;
  recruitment: Record<string, unknown>;
  conditionId: string | null;
  plan: { tasks: Array<{ taskId: string; conditionId: string }> };
  status: string;
  taskIndex: number;
  createdAt: string;
  updatedAt: string;
}

export interface QuestionnaireAnswer {
  participant_id: string;
  condition_id: string | null;
  task_id: string | null;
  questionnaire: string;
  section_id: string;
  item_id: string;
  kind: string | null;
  value: string | null;
  attention_expected: string | null;
  answered_at: string | null;
}

export interface QuestionnaireScore {
  participant_id: string;
  condition_id: string | null;
  task_id: string | null;
  questionnaire: string;
  instrument: string;
  score: number | null;
  scored_at: string | null;
}

/** Arrivals the registry removed while still at consent (StudyRegistry.expireArrivals), counted per condition. */
export interface ExpiredArrivals {
  /** Null within subjects (no condition of their own). */
  conditionId: string | null;
  arrivals: number;
}

export interface RegistryRows {
  participants: RegistryParticipant[];
  /** Empty for a registry that never removed any (or was made before it could). */
  expiredArrivals: ExpiredArrivals[];
  /** Null when the registry has no such table (questionnaires came later to the registry). */
  answers: QuestionnaireAnswer[] | null;
  scores: QuestionnaireScore[] | null;
  /** What could not be read, and why. */
  notes: string[];
}

/** The registry could not be read; its message says why. */
export class RegistryReadError extends Error {
  override readonly name = 'RegistryReadError';
}

function parseJson<T>(text: unknown, fallback: T): T {
  try {
    return typeof text === 'string' ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Reads a study's participants (and, when the registry has them, its questionnaire answers and
 * scores) from the registry at `path`, opened read-only: a running server keeps writing to it.
 */
export function readRegistry(path: string, studyId: string): RegistryRows {
  if (!existsSync(path)) throw new RegistryReadError(`no registry at ${path} (the --data folder of usher serve)`);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new RegistryReadError(`cannot open the registry ${path}: ${(err as Error).message}`);
  }
  try {
    const tables = new Set(
      db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((t) => t.name),
    );
    if (!tables.has('participants')) throw new RegistryReadError(`${path} is not a study registry (no participants)`);
    const participants = db
      .prepare<[string], Record<string, unknown>>(
        'SELECT * FROM participants WHERE study_id = ? ORDER BY created_at, rowid',
      )
      .all(studyId)
      .map(
        (row): RegistryParticipant => ({
          id: String(row.id),
          externalId: row.external_id == null ? null : String(row.external_id),
          recruitment: parseJson(row.recruitment, {}),
          conditionId: row.condition_id == null ? null : String(row.condition_id),
          plan: planOf(parseJson(row.plan, null)),
          status: String(row.status),
          taskIndex: Number(row.task_index) || 0,
          createdAt: String(row.created_at),
          updatedAt: String(row.updated_at),
        }),
      );
    const notes: string[] = [];
    // The questionnaire tables are optional: a registry without them (or of another shape) still exports.
    const optional = <T>(table: string, sql: string): T[] | null => {
      if (!tables.has(table)) {
        notes.push(`no ${table} table in the registry: ${table} not exported`);
        return null;
      }
      try {
        return db.prepare<[string], T>(sql).all(studyId);
      } catch (err) {
        notes.push(`${table} could not be read (${(err as Error).message}): left out`);
        return null;
      }
    };
    const answers = optional<QuestionnaireAnswer>(
      'questionnaire_answers',
      `SELECT participant_id, condition_id, task_id, questionnaire, section_id, item_id, kind,
              CAST(value AS TEXT) AS value, CAST(attention_expected AS TEXT) AS attention_expected, answered_at
       FROM questionnaire_answers WHERE study_id = ? ORDER BY participant_id, answered_at, rowid`,
    );
    const scores = optional<QuestionnaireScore>(
      'questionnaire_scores',
      `SELECT participant_id, condition_id, task_id, questionnaire, instrument, score, scored_at
       FROM questionnaire_scores WHERE study_id = ? ORDER BY participant_id, scored_at, rowid`,
    );
    const expiredArrivals = tables.has('expired_arrivals')
      ? db
          .prepare<[string], { condition_id: unknown; arrivals: unknown }>(
            'SELECT condition_id, arrivals FROM expired_arrivals WHERE study_id = ? ORDER BY condition_id',
          )
          .all(studyId)
          .map((row) => ({
            conditionId: row.condition_id == null || row.condition_id === '' ? null : String(row.condition_id),
            arrivals: Number(row.arrivals) || 0,
          }))
      : [];
    return { participants, expiredArrivals, answers, scores, notes };
  } catch (err) {
    if (err instanceof RegistryReadError) throw err;
    throw new RegistryReadError(`cannot read the registry ${path}: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

/** The plan's tasks, keeping only well-formed entries (the registry wrote them; a reader stays liberal). */
function planOf(plan: unknown): RegistryParticipant['plan'] {
  const tasks = (plan as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return { tasks: [] };
  return {
    tasks: tasks.flatMap((t) =>
      typeof t?.taskId === 'string' && typeof t?.conditionId === 'string'
        ? [{ taskId: t.taskId, conditionId: t.conditionId }]
        : [],
    ),
  };
}
