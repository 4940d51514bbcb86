import { z } from 'zod';
import { UiSpecSchema } from '../ui-spec.ts';

/**
 * §4.1 `tool.call`. `reason` is mandatory and must say something; a missing or blank one is
 * `INVALID_PARAMS` (DESIGN.md), as are params that fail the tool's schema.
 */
export const ToolCallPayload = z.object({
  toolName: z.string().min(1).max(64),
  params: z.record(z.string(), z.unknown()).default({}),
  reason: z.string().max(2000).trim().min(1, 'a tool call needs a non-empty reason'),
});

/** §4.2 `tool.result` (DESIGN.md: `{ok, toolName, uiSpec?}`). */
export const ToolResultPayload = z.strictObject({
  ok: z.boolean(),
  toolName: z.string(),
  uiSpec: UiSpecSchema.nullable().optional(),
});

/** §4.1 `agent.message`: shown in the host's chat; only an invalid one is answered. */
export const AgentMessagePayload = z.object({ text: z.string().max(4000).trim().min(1) });

/**
 * `agent.status` (an extension, DESIGN.md): the agent tells the page it is acting (`working`) or
 * waiting for the participant (`idle`), so the page can show it. No reply; hosts that do not know
 * it ignore it; the relay logs and forwards it like `agent.message`.
 */
export const AgentStatusPayload = z.object({
  state: z.enum(['working', 'idle']),
  text: z.string().trim().min(1).max(200).optional(),
});
