import { SyncIdSchema } from '@usher/protocol/sync';
import { z } from 'zod';

const At = z.iso.datetime();

/**
 * One state change of the orchestrator, one line of its journal. Sessions and interactions are
 * the fold of these records in order ({@link SessionStore.apply}); nothing else is stored.
 */
export const JournalRecordSchema = z.discriminatedUnion('op', [
  /** A session was created. */
  z.object({ op: z.literal('session'), at: At, session_id: SyncIdSchema }),
  /** A user's message was sent to an agent as `chat_message`; its interaction is `waiting`. */
  z.object({
    op: z.literal('interaction'),
    at: At,
    session_id: SyncIdSchema,
    request_id: SyncIdSchema,
    message: z.string(),
    agent_id: SyncIdSchema,
  }),
  /** `context_created` (or `thread_created`) gave the session its thread on that agent. */
  z.object({
    op: z.literal('thread'),
    at: At,
    session_id: SyncIdSchema,
    acp_thread_id: SyncIdSchema,
    agent_id: SyncIdSchema,
  }),
  /** `message_added`: the interaction's answer so far (cumulative). */
  z.object({
    op: z.literal('response'),
    at: At,
    request_id: SyncIdSchema,
    message_id: SyncIdSchema,
    content: z.string(),
  }),
  /** `message_completed`: the interaction is `complete`. */
  z.object({ op: z.literal('complete'), at: At, request_id: SyncIdSchema }),
  /** `chat_response_error`, or the agent lost the request: the interaction is `error`. */
  z.object({ op: z.literal('error'), at: At, request_id: SyncIdSchema, message: z.string() }),
]);

export type JournalRecord = z.infer<typeof JournalRecordSchema>;
export type JournalOp = JournalRecord['op'];
export type RecordOf<T extends JournalOp> = Extract<JournalRecord, { op: T }>;
