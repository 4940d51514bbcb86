import {
  type DecodeResult,
  decodeMessage,
  type PayloadOverrides,
  STATE_SOURCES,
  StateActionSchema,
} from '@usher/protocol';
import { z } from 'zod';

/**
 * What the relay checks of a host's big frames (`state.updated`, `snapshot.state`: the uiSpec,
 * the chat and the toolSchema, 10–20 KB each): what safety needs, not every field. The payload
 * has exactly the contract's top-level fields (so nothing the host holds, such as backend data,
 * leaves it by a stray key) of the right kinds, and the `action` the relay logs as the
 * participant's is well formed. What is inside the uiSpec, the chat and the toolSchema is the
 * readers' to check: agents read liberally (DESIGN.md). The frame is forwarded as it came and its
 * payload logged as sliced from it, so nothing recursive runs on it here (`JSON.parse` is not
 * recursive), and no depth scan is needed.
 */
const view = {
  uiSpec: z.record(z.string(), z.unknown()).nullable(),
  messageHistory: z.array(z.unknown()),
  toolSchema: z.array(z.unknown()),
};

export const HOST_FRAME_CHECKS: PayloadOverrides = {
  'state.updated': z.strictObject({ source: z.enum(STATE_SOURCES), ...view, action: StateActionSchema.optional() }),
  'snapshot.state': z.strictObject({ sessionId: z.string().nullable(), ...view }),
};

/** A host frame's decoding; a refused reply also names the request it meant to answer, to answer its requester. */
export type HostDecodeResult = DecodeResult | (Extract<DecodeResult, { ok: false }> & { answers?: string });

/** Decodes a host's frame (already within the size cap) with {@link HOST_FRAME_CHECKS}. */
export function decodeHostFrame(text: string): HostDecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'INVALID_MESSAGE', message: 'frame is not valid JSON' };
  }
  const decoded = decodeMessage(value, HOST_FRAME_CHECKS);
  if (decoded.ok) return decoded;
  const answers = (value as { replyTo?: unknown } | null)?.replyTo;
  return typeof answers === 'string' && answers.length <= 128 ? { ...decoded, answers } : decoded;
}
