import { z } from 'zod';

/**
 * Which way an event went, seen from the host (DESIGN.md): `in` agent→host, `out` host→agent,
 * `internal` joins, leaves, resets, relay-made errors and participant UI actions.
 */
export const LOG_DIRECTIONS = ['in', 'out', 'internal'] as const;

/**
 * One line of a study log (external-agent-protocol §6). `id` and `replyTo` are the envelope's
 * own, as the agent sees them; `peer` names the agent-side connection a request came from or a
 * reply went to, or the connection an internal record is about (broadcasts carry none).
 */
export const StudyLogRecordSchema = z.object({
  sessionId: z.string(),
  eventIndex: z.number().int().min(0),
  timestamp: z.iso.datetime({ precision: 3 }),
  direction: z.enum(LOG_DIRECTIONS),
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  id: z.string().optional(),
  replyTo: z.string().optional(),
  peer: z.string().optional(),
});
export type StudyLogRecord = z.infer<typeof StudyLogRecordSchema>;
export type LogDirection = StudyLogRecord['direction'];
