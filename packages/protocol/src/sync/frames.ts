import { z } from 'zod';
import { capText, exceedsDepth, MAX_JSON_DEPTH } from '../bounds.ts';

/**
 * The external-sync WebSocket protocol (specs/external-sync-websocket.md, with the decisions in
 * DESIGN.md "external-sync decisions"): the frames between an orchestrator (the spec's "external
 * system") and an agent (the spec's "Zed side"). Both sides import these schemas: the agent side
 * in `@usher/runtime`, the external-system side in `@usher/orchestrator`.
 *
 * Extensions over the seed spec, each optional for a reader: `request_id` on `context_created`
 * and `message_added` (so an answer is tied to its request, not only to its session), and
 * `agent_ready`'s `data` (who the agent is and which requests it still answers).
 */

/** Where the reference orchestrator serves the protocol (the upstream path). */
export const SYNC_PATH = '/api/v1/external-agents/sync';

/** Frames above this are refused on both sides. */
export const MAX_SYNC_FRAME_BYTES = 1024 * 1024;

/** The longest instruction a `chat_message` may carry. */
export const MAX_MESSAGE_CHARS = 10_000;

/** An id as the protocol carries it: session, thread, request and message ids. */
export const SyncIdSchema = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** The fields of `chat_message`, each checked on its own so an error can echo the ids that were valid. */
export const ChatMessageFields = {
  helix_session_id: SyncIdSchema,
  acp_thread_id: SyncIdSchema.nullable(),
  message: z.string().trim().min(1, 'must not be empty').max(MAX_MESSAGE_CHARS),
  request_id: SyncIdSchema,
};

/** Orchestrator → agent: a user's message, new (`acp_thread_id: null`) or a follow-up in a thread. */
export const ChatMessageSchema = z.object({
  type: z.literal('chat_message'),
  data: z.object(ChatMessageFields),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** Any frame to the agent: a `type` and its `data`; the agent ignores a type it does not know. */
export const CommandEnvelopeSchema = z.looseObject({ type: z.string(), data: z.unknown().optional() });

const event = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ session_id: SyncIdSchema, event_type: z.literal(type), data });

/**
 * Agent → orchestrator, first on every connection: who the agent is (`agent_id` stays the same
 * across its reconnections) and `requests`, the request ids whose frames it will still deliver on
 * this connection: those it is answering and those whose last frames it sends again now. An
 * orchestrator may end any other request it had sent this agent: its answer is lost.
 */
export const AgentReadySchema = z.object({
  event_type: z.literal('agent_ready'),
  data: z.object({
    agent_id: SyncIdSchema,
    agent: z.string().max(200),
    version: z.string().max(50),
    requests: z.array(SyncIdSchema),
  }),
});

const ThreadData = z.object({
  acp_thread_id: SyncIdSchema,
  helix_session_id: SyncIdSchema,
  request_id: SyncIdSchema.optional(),
});

/** Sent once, when a `chat_message` without a thread created one. */
export const ContextCreatedSchema = event('context_created', ThreadData);
/** The later upstream name of `context_created`; orchestrators accept both, agents send `context_created`. */
export const ThreadCreatedSchema = event('thread_created', ThreadData);

/** The answer so far: `content` is cumulative for one `message_id`, so a reader overwrites. */
export const MessageAddedSchema = event(
  'message_added',
  z.object({
    acp_thread_id: SyncIdSchema,
    message_id: SyncIdSchema,
    role: z.literal('assistant'),
    content: z.string(),
    /** Unix seconds. */
    timestamp: z.number().int().nonnegative(),
    request_id: SyncIdSchema.optional(),
  }),
);

/** The answer is complete; ends the interaction of `request_id`. */
export const MessageCompletedSchema = event(
  'message_completed',
  z.object({ acp_thread_id: SyncIdSchema, message_id: SyncIdSchema, request_id: SyncIdSchema }),
);

/**
 * A request that could not be served, instead of `message_completed`: it ends the interaction in
 * `error`. Carries whichever ids the request had (none, when the `chat_message` lacked them).
 */
export const ChatResponseErrorSchema = z.object({
  session_id: SyncIdSchema.optional(),
  event_type: z.literal('chat_response_error'),
  data: z.object({
    acp_thread_id: SyncIdSchema.optional(),
    request_id: SyncIdSchema.optional(),
    message: z.string().min(1),
  }),
});

/** Every frame an agent sends, discriminated on `event_type`. */
export const AgentEventSchema = z.discriminatedUnion('event_type', [
  AgentReadySchema,
  ContextCreatedSchema,
  ThreadCreatedSchema,
  MessageAddedSchema,
  MessageCompletedSchema,
  ChatResponseErrorSchema,
]);
export type SyncAgentEvent = z.infer<typeof AgentEventSchema>;
export type SyncEventType = SyncAgentEvent['event_type'];
export type SyncEventOf<T extends SyncEventType> = Extract<SyncAgentEvent, { event_type: T }>;

/** The event types an agent may send, for telling an unknown type from a malformed known one. */
export const SYNC_EVENT_TYPES: readonly SyncEventType[] = AgentEventSchema.options.map((o) => o.shape.event_type.value);

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Parses one frame from an agent: not JSON, an unknown `event_type` and a malformed event are told apart. */
export function decodeAgentEvent(text: string): Decoded<SyncAgentEvent> {
  // Before anything recursive: a few KB of nesting must not exhaust the reader's stack.
  if (exceedsDepth(text)) return { ok: false, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const type = (json as { event_type?: unknown } | null)?.event_type;
  if (typeof type !== 'string' || !(SYNC_EVENT_TYPES as readonly string[]).includes(type)) {
    const named =
      typeof type === 'string' ? JSON.stringify(capText(type, 64)) : `of type ${type === null ? 'null' : typeof type}`;
    return { ok: false, reason: `unknown event_type ${named}` };
  }
  const event = AgentEventSchema.safeParse(json);
  if (!event.success) return { ok: false, reason: `malformed ${type}: ${z.prettifyError(event.error)}` };
  return { ok: true, value: event.data };
}

/** Builds a frame to send, checked against its schema first: a side never sends what it would refuse. */
export function encodeEvent(event: SyncAgentEvent): string {
  return JSON.stringify(AgentEventSchema.parse(event));
}

export function encodeChatMessage(message: ChatMessage): string {
  return JSON.stringify(ChatMessageSchema.parse(message));
}

/** `timestamp` fields are Unix seconds, as in the spec's examples. */
export function unixSeconds(now = Date.now()): number {
  return Math.floor(now / 1000);
}
