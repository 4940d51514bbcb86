import type { DuckDBConnection } from '@duckdb/node-api';
import type { Study } from '@usher/study';
import type { RegistryParticipant } from './registry.ts';
import { loadTable } from './sql.ts';

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * Hands the registry's participants and the study file's tasks and conditions to DuckDB:
 * `participants_in` (one row each), `plan_tasks` (one row per participant task: the export's
 * spine), `task_defs` and `condition_defs`.
 */
export async function stageRegistry(
  conn: DuckDBConnection,
  study: Study,
  participants: readonly RegistryParticipant[],
): Promise<void> {
  await loadTable(
    conn,
    'participants_in',
    [
      ['study_id', 'VARCHAR'],
      ['participant_id', 'VARCHAR'],
      ['external_id', 'VARCHAR'],
      ['prolific_pid', 'VARCHAR'],
      ['prolific_study_id', 'VARCHAR'],
      ['prolific_session_id', 'VARCHAR'],
      ['participant_param', 'VARCHAR'],
      ['condition_id', 'VARCHAR'],
      ['conditions', 'VARCHAR'],
      ['task_order', 'VARCHAR'],
      ['status', 'VARCHAR'],
      ['task_index', 'BIGINT'],
      ['tasks_total', 'BIGINT'],
      ['created_at', 'TIMESTAMPTZ'],
      ['updated_at', 'TIMESTAMPTZ'],
    ],
    participants.map((p) => [
      study.id,
      p.id,
      p.externalId,
      text(p.recruitment.PROLIFIC_PID),
      text(p.recruitment.STUDY_ID),
      text(p.recruitment.SESSION_ID),
      text(p.recruitment.participant),
      p.conditionId,
      p.plan.tasks.map((t) => t.conditionId).join(' '),
      p.plan.tasks.map((t) => t.taskId).join(' '),
      p.status,
      p.taskIndex,
      p.plan.tasks.length,
      p.createdAt,
      p.updatedAt,
    ]),
  );
  await loadTable(
    conn,
    'plan_tasks',
    [
      ['study_id', 'VARCHAR'],
      ['participant_id', 'VARCHAR'],
      ['external_id', 'VARCHAR'],
      ['condition_id', 'VARCHAR'],
      ['task_id', 'VARCHAR'],
      ['task_index', 'BIGINT'],
      ['status', 'VARCHAR'],
      ['created_at', 'TIMESTAMPTZ'],
    ],
    participants.flatMap((p) =>
      // A task twice in one plan (a malformed row) keeps its first place, so a task is one row.
      p.plan.tasks
        .map((t, i) => [study.id, p.id, p.externalId, t.conditionId, t.taskId, i, p.status, p.createdAt] as const)
        .filter((row, i, all) => all.findIndex((r) => r[4] === row[4]) === i),
    ),
  );
  await loadTable(
    conn,
    'task_defs',
    [
      ['task_id', 'VARCHAR'],
      ['hard_total', 'BIGINT'],
      ['soft_total', 'BIGINT'],
    ],
    study.tasks.map((t) => [t.id, t.success.hard.length, t.success.soft.length]),
  );
  await loadTable(
    conn,
    'condition_defs',
    [
      ['condition_id', 'VARCHAR'],
      ['agent', 'VARCHAR'],
    ],
    study.conditions.map((c) => [c.id, c.agent]),
  );
}
