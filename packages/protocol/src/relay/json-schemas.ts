import { z } from 'zod';
import { EnvelopeSchema } from './envelope.ts';
import { MESSAGE_TYPES, MESSAGES } from './messages/index.ts';
import { StudyLogRecordSchema } from './study-log.ts';
import { allToolDefinitions } from './tools.ts';

/**
 * The relay contract's JSON Schemas, published in `schemas/relay/` for agents written in other
 * languages: the envelope and every payload, the tools, and the study-log record.
 */
export function relayJsonSchemas(): Record<string, unknown> {
  const payloads = Object.fromEntries(
    MESSAGE_TYPES.map((type) => [type, z.toJSONSchema(MESSAGES[type].payload, { io: 'input' })]),
  );
  return {
    'tools.json': allToolDefinitions(),
    'messages.json': { envelope: z.toJSONSchema(EnvelopeSchema, { io: 'input' }), payloads },
    'study-log-record.json': z.toJSONSchema(StudyLogRecordSchema),
  };
}
