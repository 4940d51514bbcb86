import type { DuckDBConnection } from '@duckdb/node-api';
import type { RegistryRows } from './registry.ts';
import { loadTable, sqlIdent } from './sql.ts';

/** Wide columns at most (items and scores): a registry with more is exported long only. */
export const MAX_WIDE_COLUMNS = 2000;

/** An answer's value as a cell: a JSON string unquoted, anything else (numbers, lists) as its JSON text. */
const CELL = `CASE WHEN json_valid(value) AND json_type(CAST(value AS JSON)) = 'VARCHAR'
  THEN (CAST(value AS JSON)->>'$') ELSE value END`;
/** Post-study rows have no task (`''` or NULL, or questionnaire `post-study`). */
const POST = `(questionnaire = 'post-study' OR coalesce(task_id, '') = '')`;

/**
 * The questionnaire tables, when the registry has them: `questionnaire_answers` and
 * `questionnaire_scores` (long, as stored), and `questionnaire_wide`, one row per participant
 * task with every item and score as a column (README "Data dictionary").
 */
export async function questionnaireTables(
  conn: DuckDBConnection,
  registry: Pick<RegistryRows, 'answers' | 'scores'>,
  notes: string[],
): Promise<Array<{ name: string; select: string }>> {
  const { answers, scores } = registry;
  if (answers === null && scores === null) return [];
  await loadTable(
    conn,
    'q_answers',
    [
      ['participant_id', 'VARCHAR'],
      ['condition_id', 'VARCHAR'],
      ['task_id', 'VARCHAR'],
      ['questionnaire', 'VARCHAR'],
      ['section_id', 'VARCHAR'],
      ['item_id', 'VARCHAR'],
      ['kind', 'VARCHAR'],
      ['value', 'VARCHAR'],
      ['attention_expected', 'VARCHAR'],
      ['answered_at', 'TIMESTAMPTZ'],
      // The registry's order (an answer's place in its questionnaire), which ties in time keep.
      ['seq', 'BIGINT'],
    ],
    (answers ?? []).map((a, seq) => [
      a.participant_id,
      a.condition_id,
      a.task_id,
      a.questionnaire,
      a.section_id,
      a.item_id,
      a.kind,
      a.value,
      a.attention_expected,
      a.answered_at,
      seq,
    ]),
  );
  await loadTable(
    conn,
    'q_scores',
    [
      ['participant_id', 'VARCHAR'],
      ['condition_id', 'VARCHAR'],
      ['task_id', 'VARCHAR'],
      ['questionnaire', 'VARCHAR'],
      ['instrument', 'VARCHAR'],
      ['score', 'DOUBLE'],
      ['scored_at', 'TIMESTAMPTZ'],
      ['seq', 'BIGINT'],
    ],
    (scores ?? []).map((s, seq) => [
      s.participant_id,
      s.condition_id,
      s.task_id,
      s.questionnaire,
      s.instrument,
      s.score,
      s.scored_at,
      seq,
    ]),
  );
  await conn.run(`
    CREATE TABLE q_cells AS
    SELECT participant_id, CASE WHEN ${POST} THEN NULL ELSE task_id END AS task_id,
           (CASE WHEN ${POST} THEN 'post.' ELSE 'task.' END) || section_id || '.' || item_id AS col,
           ${CELL} AS val, answered_at AS moment
    FROM q_answers`);
  await conn.run(`
    CREATE TABLE q_score_cells AS
    SELECT participant_id, CASE WHEN ${POST} THEN NULL ELSE task_id END AS task_id,
           'score.' || (CASE WHEN ${POST} THEN 'post.' ELSE 'task.' END) || instrument AS col, score AS val, scored_at AS moment
    FROM q_scores`);
  const tables = [];
  if (answers !== null) {
    tables.push({
      name: 'questionnaire_answers',
      select: `SELECT p.study_id, a.participant_id, p.external_id, a.condition_id, a.task_id, a.questionnaire,
                      a.section_id, a.item_id, a.kind, a.value, a.attention_expected, a.answered_at
               FROM q_answers a LEFT JOIN participants_in p USING (participant_id)
               ORDER BY p.created_at, a.participant_id, a.answered_at, a.seq`,
    });
  }
  if (scores !== null) {
    tables.push({
      name: 'questionnaire_scores',
      select: `SELECT p.study_id, s.participant_id, p.external_id, s.condition_id, s.task_id, s.questionnaire,
                      s.instrument, s.score, s.scored_at
               FROM q_scores s LEFT JOIN participants_in p USING (participant_id)
               ORDER BY p.created_at, s.participant_id, s.scored_at, s.seq`,
    });
  }
  const [row] = (
    await conn.runAndReadAll(
      'SELECT (SELECT count(DISTINCT col) FROM q_cells) + (SELECT count(DISTINCT col) FROM q_score_cells) AS n',
    )
  ).getRowObjectsJS();
  const columns = Number(row?.n ?? 0);
  if (columns > MAX_WIDE_COLUMNS) {
    notes.push(`questionnaire_wide left out: ${columns} items and scores, more than ${MAX_WIDE_COLUMNS} columns`);
    return tables;
  }
  tables.push({ name: 'questionnaire_wide', select: await wideSelect(conn) });
  return tables;
}

/** Item columns in the order people number them: "sus-2" before "sus-10". */
const ITEM_ORDER = new Intl.Collator('en', { numeric: true });

/**
 * One row per participant task: per-task items and scores of that task, post-study ones repeated
 * on each of the participant's rows. Each part is a DuckDB PIVOT (the last answer of an item counts).
 */
async function wideSelect(conn: DuckDBConnection): Promise<string> {
  const parts: string[] = [];
  const columns: string[] = [];
  const pivot = async (name: string, source: string, perTask: boolean) => {
    const [row] = (await conn.runAndReadAll(`SELECT count(*) AS n FROM ${source}`)).getRowObjectsJS();
    if (Number(row?.n ?? 0) === 0) return;
    const keys = perTask ? 'participant_id, task_id' : 'participant_id';
    await conn.run(`
      CREATE TABLE ${sqlIdent(name)} AS
      PIVOT (SELECT ${keys}, col, val, moment FROM ${source}) ON col USING arg_max(val, moment) GROUP BY ${keys}`);
    parts.push(`LEFT JOIN ${sqlIdent(name)} USING (${keys})`);
    // PIVOT orders its columns as text (sus-1, sus-10, sus-2): items are put in their numbers' order.
    const described = (await conn.runAndReadAll(`DESCRIBE ${sqlIdent(name)}`)).getRowObjectsJS();
    const own = described.map((d) => String(d.column_name)).filter((c) => c !== 'participant_id' && c !== 'task_id');
    columns.push(...own.sort(ITEM_ORDER.compare).map((c) => `${sqlIdent(name)}.${sqlIdent(c)}`));
  };
  await pivot('q_wide_task', 'q_cells WHERE task_id IS NOT NULL', true);
  await pivot('q_wide_post', 'q_cells WHERE task_id IS NULL', false);
  await pivot('q_wide_task_scores', 'q_score_cells WHERE task_id IS NOT NULL', true);
  await pivot('q_wide_post_scores', 'q_score_cells WHERE task_id IS NULL', false);
  return `SELECT pt.study_id, participant_id, pt.external_id, pt.condition_id, task_id, pt.task_index${columns.map((c) => `, ${c}`).join('')}
          FROM plan_tasks pt ${parts.join(' ')}
          ORDER BY pt.created_at, participant_id, pt.task_index`;
}
