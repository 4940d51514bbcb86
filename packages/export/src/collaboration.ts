import type { DuckDBConnection } from '@duckdb/node-api';
import {
  type ConditionSummary,
  conditionFeatures,
  type MeasureRecord,
  measureTask,
  type Study,
  type SummaryInput,
  summariseConditions,
  type TaskMeasures,
} from '@usher/study';
import { MAX_EVENT_PAYLOAD_CHARS } from './logs.ts';
import { type Cell, loadTable } from './sql.ts';

/**
 * The collaboration measures (README "Data dictionary", `collaboration` and `conditions`):
 * @usher/study's `measureTask`, the function the console and `usher pilot` use too, run over each
 * participant task's records in log order; the results go back to DuckDB as `measures`.
 */

/**
 * Each record of the study's sessions as the measures read it, in task order. A `state.updated`
 * is cut to what they need (its source, action, stage and booking summary): its lists are the
 * bulk of the logs. A payload longer than the events table keeps is read as empty.
 */
const MEASURE_RECORDS = `
  SELECT r.participant_id, r.task_id, epoch_ms(r.ts) AS at, r.direction, r.type, r.peer,
         CASE
           WHEN r.type = 'state.updated' THEN CAST(json_object(
             'source', r.source, 'action', json_object('toolName', r.tool_name),
             'uiSpec', CASE WHEN r.stage IS NULL THEN NULL
                       ELSE json_object('stage', r.stage, 'state', json_object('booking', json_extract(l.payload, '$.uiSpec.state.booking'))) END)
             AS VARCHAR)
           WHEN strlen(l.payload) > ${MAX_EVENT_PAYLOAD_CHARS} THEN '{}'
           ELSE CAST(l.payload AS VARCHAR)
         END AS payload
  FROM records r JOIN log_rows l ON l.rowid = r.rid
  ORDER BY r.participant_id, r.task_id, r.session_started_at, r.file, r.event_index`;

export const MEASURE_COLUMNS = [
  ['time_to_booking_s', 'DOUBLE', (m) => m.timeToBookingS],
  ['actions', 'BIGINT', (m) => m.actions],
  ['agent_share', 'DOUBLE', (m) => m.agentShare],
  ['participant_share', 'DOUBLE', (m) => m.participantShare],
  ['experimenter_share', 'DOUBLE', (m) => m.experimenterShare],
  ['time_to_agent_first_action_s', 'DOUBLE', (m) => m.timeToAgentFirstActionS],
  ['interventions', 'BIGINT', (m) => m.interventions],
  ['pauses', 'BIGINT', (m) => m.pauses],
  ['take_overs', 'BIGINT', (m) => m.takeOvers],
  ['rejected_proposals', 'BIGINT', (m) => m.rejectedProposals],
  ['chat_corrections', 'BIGINT', (m) => m.chatCorrections],
  ['undone_agent_selections', 'BIGINT', (m) => m.undoneAgentSelections],
  ['time_to_first_intervention_s', 'DOUBLE', (m) => m.timeToFirstInterventionS],
  ['agent_questions', 'BIGINT', (m) => m.agentQuestions],
  ['participant_turns', 'BIGINT', (m) => m.participantTurns],
  ['agent_turns', 'BIGINT', (m) => m.agentTurns],
  ['experimenter_take_overs', 'BIGINT', (m) => m.experimenterTakeOvers],
  ['mistakes_caught', 'BIGINT', (m) => m.mistakesCaught],
  ['mistakes_missed', 'BIGINT', (m) => m.mistakesMissed],
  ['overridden_correct', 'BIGINT', (m) => m.overriddenCorrect],
] as const satisfies ReadonlyArray<readonly [string, 'DOUBLE' | 'BIGINT', (m: TaskMeasures) => number | null]>;

/** Computes every started participant task's measures into DuckDB's `measures`; returns them by task. */
export async function measureTasks(conn: DuckDBConnection, study: Study): Promise<Map<string, TaskMeasures>> {
  const conditions = await conn.runAndReadAll(`SELECT DISTINCT participant_id, task_id, condition_id FROM sessions`);
  const conditionOf = new Map(
    conditions.getRowObjectsJS().map((r) => [`${r.participant_id}\u0000${r.task_id}`, String(r.condition_id)]),
  );
  const measured = new Map<string, TaskMeasures>();
  const flush = (key: string | null, records: MeasureRecord[]) => {
    if (key === null) return;
    const [, taskId = ''] = key.split('\u0000');
    const condition = study.conditions.find((c) => c.id === conditionOf.get(key));
    measured.set(key, measureTask(records, conditionFeatures(condition, taskId)));
  };
  // Streamed in chunks, one task's records held at a time.
  const result = await conn.stream(MEASURE_RECORDS);
  let key: string | null = null;
  let records: MeasureRecord[] = [];
  const columns = result.columnNames();
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (const row of chunk.getRowObjects(columns)) {
      const k = `${row.participant_id}\u0000${row.task_id}`;
      if (k !== key) {
        flush(key, records);
        key = k;
        records = [];
      }
      let payload: unknown = null;
      try {
        payload = JSON.parse(String(row.payload));
      } catch {
        // Left null: the log's raw line was JSON, so only a payload cut above comes here.
      }
      records.push({
        at: Number(row.at),
        direction: String(row.direction),
        type: String(row.type),
        peer: row.peer === null ? null : String(row.peer),
        payload,
      });
    }
  }
  flush(key, records);
  await loadTable(
    conn,
    'measures',
    [['participant_id', 'VARCHAR'], ['task_id', 'VARCHAR'], ...MEASURE_COLUMNS.map(([n, t]) => [n, t] as const)],
    [...measured].map(([k, m]): Cell[] => [...k.split('\u0000'), ...MEASURE_COLUMNS.map(([, , f]) => f(m))]),
  );
  return measured;
}

/** The `conditions` summary's columns, in order, from @usher/study's {@link ConditionSummary}. */
const SUMMARY_COLUMNS = [
  ['condition_id', 'VARCHAR', (s) => s.conditionId],
  ['agent', 'VARCHAR', (s) => s.agent],
  ['pilot', 'BOOLEAN', (s) => s.pilot],
  ['participants', 'BIGINT', (s) => s.participants],
  ['tasks_started', 'BIGINT', (s) => s.tasksStarted],
  ['booked', 'BIGINT', (s) => s.booked],
  ['successes', 'BIGINT', (s) => s.successes],
  ['success_rate', 'DOUBLE', (s) => s.successRate],
  ['mean_time_on_task_s', 'DOUBLE', (s) => s.meanTimeOnTaskS],
  ['mean_time_to_booking_s', 'DOUBLE', (s) => s.meanTimeToBookingS],
  ['mean_agent_share', 'DOUBLE', (s) => s.meanAgentShare],
  ['mean_participant_share', 'DOUBLE', (s) => s.meanParticipantShare],
  ['mean_time_to_agent_first_action_s', 'DOUBLE', (s) => s.meanTimeToAgentFirstActionS],
  ['mean_interventions', 'DOUBLE', (s) => s.meanInterventions],
  ['tasks_with_intervention', 'BIGINT', (s) => s.tasksWithIntervention],
  ['mean_time_to_first_intervention_s', 'DOUBLE', (s) => s.meanTimeToFirstInterventionS],
  ['pauses', 'BIGINT', (s) => s.pauses],
  ['take_overs', 'BIGINT', (s) => s.takeOvers],
  ['rejected_proposals', 'BIGINT', (s) => s.rejectedProposals],
  ['chat_corrections', 'BIGINT', (s) => s.chatCorrections],
  ['undone_agent_selections', 'BIGINT', (s) => s.undoneAgentSelections],
  ['agent_questions', 'BIGINT', (s) => s.agentQuestions],
  ['mistakes_caught', 'BIGINT', (s) => s.mistakesCaught],
  ['mistakes_missed', 'BIGINT', (s) => s.mistakesMissed],
  ['over_reliance', 'DOUBLE', (s) => s.overReliance],
  ['overridden_correct', 'BIGINT', (s) => s.overriddenCorrect],
] as const satisfies ReadonlyArray<
  readonly [string, 'VARCHAR' | 'BOOLEAN' | 'DOUBLE' | 'BIGINT', (s: ConditionSummary) => Cell]
>;

/**
 * The per-condition summary into DuckDB's `condition_summary`, from the participant tasks as
 * exported (`out_participant_tasks`: condition, booking, success, time) and their measures.
 */
export async function summariseTasks(
  conn: DuckDBConnection,
  study: Study,
  measured: ReadonlyMap<string, TaskMeasures>,
): Promise<void> {
  const tasks = (
    await conn.runAndReadAll(
      `SELECT participant_id, task_id, condition_id, agent, pilot, booked, success, time_on_task_s, sessions
       FROM out_participant_tasks`,
    )
  ).getRowObjectsJS();
  const inputs: SummaryInput[] = tasks.map((t) => ({
    participantId: String(t.participant_id),
    conditionId: String(t.condition_id),
    agent: String(t.agent ?? 'none'),
    pilot: t.pilot === true,
    measures: Number(t.sessions) > 0 ? (measured.get(`${t.participant_id}\u0000${t.task_id}`) ?? null) : null,
    booked: t.booked === true,
    success: t.success === null ? null : t.success === true,
    timeOnTaskS: t.time_on_task_s === null ? null : Number(t.time_on_task_s),
  }));
  const summary = summariseConditions(
    inputs,
    study.conditions.map((c) => c.id),
  );
  await loadTable(
    conn,
    'condition_summary',
    SUMMARY_COLUMNS.map(([n, t]) => [n, t] as const),
    summary.map((s) => SUMMARY_COLUMNS.map(([, , f]) => f(s))),
  );
}
