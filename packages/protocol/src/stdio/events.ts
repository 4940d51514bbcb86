import { z } from 'zod';

/**
 * The AgentEvent types a run emits (DESIGN.md, "ui-protocol (stdio) decisions"): what a terminal
 * UI renders and what the external-sync door turns into streamed chat. Per tool call the order is
 * `step_start → tool_call → tool_result → step_complete`; a completed run ends with `final`.
 * Schemas are loose objects: a client must tolerate fields it does not know.
 */
export const AgentEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), content: z.string(), timestamp: z.number() }),
  z.looseObject({ type: z.literal('reasoning'), content: z.string(), timestamp: z.number() }),
  z.looseObject({
    type: z.literal('step_start'),
    step_id: z.string(),
    title: z.string(),
    step_number: z.number().int().positive(),
  }),
  z.looseObject({
    type: z.literal('tool_call'),
    tool: z.string(),
    args: z.record(z.string(), z.unknown()),
    tool_call_id: z.string(),
    display_name: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('tool_result'),
    tool: z.string(),
    result: z.unknown(),
    tool_call_id: z.string(),
    is_error: z.boolean().optional(),
  }),
  z.looseObject({
    type: z.literal('step_complete'),
    step_id: z.string(),
    status: z.enum(['completed', 'error']),
    duration_ms: z.number().nonnegative(),
  }),
  z.looseObject({ type: z.literal('final'), content: z.string() }),
  z.looseObject({ type: z.literal('hidden_user_message'), content: z.string() }),
  z.looseObject({ type: z.literal('compaction_start'), timestamp: z.number() }),
  z.looseObject({ type: z.literal('compaction_complete'), timestamp: z.number(), compacted: z.boolean() }),
]);

export type AgentEvent = z.infer<typeof AgentEventSchema>;
export type AgentEventType = AgentEvent['type'];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
