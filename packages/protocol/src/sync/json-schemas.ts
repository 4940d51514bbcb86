import { z } from 'zod';
import { AgentEventSchema, ChatMessageSchema, CommandEnvelopeSchema } from './frames.ts';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input' });

/**
 * The external-sync contract's JSON Schemas, published in `schemas/sync/` for orchestrators and
 * agents written in other languages: the frames to the agent, and each event an agent sends, by
 * its `event_type`.
 */
export function syncJsonSchemas(): Record<string, unknown> {
  return {
    'messages.json': {
      toAgent: { envelope: json(CommandEnvelopeSchema), chat_message: json(ChatMessageSchema) },
      fromAgent: Object.fromEntries(AgentEventSchema.options.map((o) => [o.shape.event_type.value, json(o)])),
    },
  };
}
