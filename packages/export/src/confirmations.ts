import type { DuckDBConnection } from '@duckdb/node-api';
import { type ConfirmationRecord, unconfirmedSubmits } from '@usher/booking';
import { loadTable } from './sql.ts';

/**
 * Submits without the participant's confirmation, per participant task (README "Data
 * dictionary", `unconfirmed_submits`): @usher/booking's `unconfirmedSubmits`, the reading the
 * relay's guard and the agent use, run over each task's states and the participant's words in
 * log order, its counts handed back to DuckDB as `confirmations`.
 */
export async function countUnconfirmedSubmits(conn: DuckDBConnection): Promise<void> {
  const reader = await conn.runAndReadAll(
    `SELECT participant_id, task_id, type, source, said, stage, tool_name FROM records
     WHERE direction = 'out' AND type IN ('state.updated', 'user.message')
     ORDER BY participant_id, task_id, session_started_at, file, event_index`,
  );
  const counts = new Map<string, { participant: string; task: string; records: ConfirmationRecord[] }>();
  for (const row of reader.getRowObjectsJS()) {
    const key = `${row.participant_id}\u0000${row.task_id}`;
    let task = counts.get(key);
    if (!task) {
      task = { participant: String(row.participant_id), task: String(row.task_id), records: [] };
      counts.set(key, task);
    }
    const payload =
      row.type === 'user.message'
        ? { text: row.said ?? '' }
        : {
            source: row.source ?? undefined,
            uiSpec: row.stage === null ? null : { stage: row.stage },
            ...(row.tool_name !== null && { action: { toolName: row.tool_name } }),
          };
    task.records.push({ type: String(row.type), payload });
  }
  const out = [...counts.values()].map((t) => [t.participant, t.task, unconfirmedSubmits(t.records).length]);
  await loadTable(
    conn,
    'confirmations',
    [
      ['participant_id', 'VARCHAR'],
      ['task_id', 'VARCHAR'],
      ['unconfirmed_submits', 'BIGINT'],
    ],
    out,
  );
}
