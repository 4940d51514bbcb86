import { z } from 'zod';
import { EnvelopeSchema } from './envelope.ts';
import { MESSAGE_TYPES, MESSAGES } from './messages/index.ts';
import { StudyLogRecordSchema } from './study-log.ts';
import { allToolDefinitions } from './tools.ts';

/**
 * The JSON Schemas published beside the contract, for agents written in other languages.
 * `schemas/*.json` are this function's output, committed; a test fails when they are stale
 * (regenerate with `npm run schemas`).
 */
export function publishedSchemas(): Record<string, unknown> {
  const payloads = Object.fromEntries(
    MESSAGE_TYPES.map((type) => [type, z.toJSONSchema(MESSAGES[type].payload, { io: 'input' })]),
  );
  return {
    'tools.json': allToolDefinitions(),
    'messages.json': { envelope: z.toJSONSchema(EnvelopeSchema, { io: 'input' }), payloads },
    'study-log-record.json': z.toJSONSchema(StudyLogRecordSchema),
  };
}
