import { z } from 'zod';
import { ChatEntrySchema, StageSchema, ToolDefinitionSchema, UiSpecSchema } from '../ui-spec.ts';

/** §4.1 `snapshot.get`. */
export const SnapshotGetPayload = z.object({});

/** §4.2 `snapshot.state`: the three read surfaces, and the study session they belong to. */
export const SnapshotStatePayload = z.strictObject({
  sessionId: z.string().nullable(),
  uiSpec: UiSpecSchema.nullable(),
  messageHistory: z.array(ChatEntrySchema),
  toolSchema: z.array(ToolDefinitionSchema),
});

export const STATE_SOURCES = ['user', 'agent', 'host'] as const;

/** What caused a state change: the tool and params that were applied. */
export const StateActionSchema = z.strictObject({
  toolName: z.string(),
  params: z.record(z.string(), z.unknown()),
});

/**
 * §4.2 `state.updated`, the canonical sync event. `source` says who changed the state:
 * `user` (the participant acted), `agent` (a tool call was applied), `host` (stage load, reset).
 */
export const StateUpdatedPayload = z.strictObject({
  source: z.enum(STATE_SOURCES),
  uiSpec: UiSpecSchema.nullable(),
  messageHistory: z.array(ChatEntrySchema),
  toolSchema: z.array(ToolDefinitionSchema),
  action: StateActionSchema.optional(),
});

/** §4.2 `user.message`: what the participant wrote in the host's chat. */
export const UserMessagePayload = z.strictObject({
  text: z.string().max(4000).trim().min(1),
  stage: StageSchema.optional(),
});
