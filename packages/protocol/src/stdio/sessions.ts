import { z } from 'zod';
import { SessionIdSchema } from './runs.ts';

/* Sessions (ui-protocol-stdio §5.4–5.5): the runtime's own, persisted, listed and replayed. */

const Count = z.number().int().nonnegative();

export const SessionListParamsSchema = z.looseObject({
  /** Newest first; default 50. */
  limit: Count.max(10_000).optional(),
});
export type SessionListParams = z.infer<typeof SessionListParamsSchema>;

export const SessionSummarySchema = z.looseObject({
  session_id: z.string(),
  /** ISO time of the session's last record. */
  updated_at: z.string(),
  /** The session's latest run. */
  run_id: z.string().optional(),
  /** How many instructions (runs) the session holds. */
  message_count: z.number().int().nonnegative().optional(),
  last_user_message: z.string().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const SessionListResultSchema = z.looseObject({ sessions: z.array(SessionSummarySchema) });
export type SessionListResult = z.infer<typeof SessionListResultSchema>;

export const SessionHistoryParamsSchema = z.looseObject({
  session_id: SessionIdSchema,
  /** The newest runs to replay; default 20. */
  max_runs: Count.optional(),
  /** The most `agent.event`s to send in all (inputs included); default 1500. */
  max_events: Count.optional(),
});
export type SessionHistoryParams = z.infer<typeof SessionHistoryParamsSchema>;

/** Sent after the replayed events: how many runs and events went out, and whether some were left out. */
export const SessionHistoryResultSchema = z.looseObject({
  runs: Count,
  events_sent: Count,
  truncated: z.boolean().optional(),
});
export type SessionHistoryResult = z.infer<typeof SessionHistoryResultSchema>;
