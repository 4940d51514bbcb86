import { ConstraintSchema, HardConstraintSchema } from '@usher/booking';
import { AgentEventSchema } from '@usher/protocol/stdio';
import { z } from 'zod';

/*
 * The records of a session file (`<sessions dir>/<session id>.jsonl`, one record a line), in the
 * order they happen: the session's header, then per run its input, its events, its end and the
 * conversation's wishes after it.
 */

const At = z.string();

export const SessionHeaderRecordSchema = z.object({
  type: z.literal('session'),
  session_id: z.string(),
  created_at: At,
  /** The record format; bumped when a record changes meaning. */
  format: z.literal(1),
});

export const RunRecordSchema = z.object({
  type: z.literal('run'),
  run_id: z.string(),
  input: z.object({ type: z.literal('text'), text: z.string() }),
  at: At,
});

export const EventRecordSchema = z.object({
  type: z.literal('event'),
  run_id: z.string(),
  seq: z.number().int().nonnegative(),
  event: AgentEventSchema,
});

export const StatusRecordSchema = z.object({
  type: z.literal('status'),
  run_id: z.string(),
  status: z.enum(['completed', 'error', 'cancelled']),
  message: z.string().optional(),
  at: At,
});

/** The conversation's preference model after a run, so a resumed session refines it further. */
export const ModelRecordSchema = z.object({
  type: z.literal('model'),
  model: z.object({ hard: z.array(HardConstraintSchema), soft: z.array(ConstraintSchema) }),
  at: At,
});

export const SessionRecordSchema = z.discriminatedUnion('type', [
  SessionHeaderRecordSchema,
  RunRecordSchema,
  EventRecordSchema,
  StatusRecordSchema,
  ModelRecordSchema,
]);
export type SessionRecord = z.infer<typeof SessionRecordSchema>;
export type EventRecord = z.infer<typeof EventRecordSchema>;
