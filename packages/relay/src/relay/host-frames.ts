import {
  type DecodeResult,
  decodeMessage,
  holdsLoneSurrogate,
  NOT_UNICODE,
  type PayloadOverrides,
  STATE_SOURCES,
  StateActionSchema,
} from '@usher/protocol';
import { z } from 'zod';

/**
 * What the relay checks of a host's big frames (`state.updated`, `snapshot.state`, `tool.result`:
 * the uiSpec, the chat and the toolSchema, 10–20 KB each) and of `session.started` /
 * `session.ended` (whose ids the relay replaces with its own): what safety needs, not every field. The payload
 * keeps only the contract's top-level fields, of the right kinds: a top-level key the contract does
 * not name (a host's own extension, or backend data by mistake) is dropped before the frame is
 * forwarded or logged, and the relay says so once per room (inbound.ts, relay.ts); and the
 * `action` the relay logs as the participant's is well formed. What is inside the uiSpec, the chat and the toolSchema is the
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
  'state.updated': z.object({ source: z.enum(STATE_SOURCES), ...view, action: StateActionSchema.optional() }),
  'snapshot.state': z.object({ sessionId: z.string().nullable(), ...view }),
  // A tool result may carry the host's page, which is as much the readers' to check as in state.updated.
  'tool.result': z.object({ ok: z.boolean(), toolName: z.string(), uiSpec: view.uiSpec.optional() }),
  // The spec says only "string": a host's own session id is accepted, and the relay answers with its own.
  'session.started': z.object({ sessionId: z.string().min(1).max(128) }),
  'session.ended': z.object({
    sessionId: z.string().max(128),
    logFile: z.string().max(1024),
    stateReset: z.boolean(),
  }),
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
  const answers = (value as { replyTo?: unknown } | null)?.replyTo;
  const refused = (failure: Extract<DecodeResult, { ok: false }>): HostDecodeResult =>
    typeof answers === 'string' && answers.length <= 128 ? { ...failure, answers } : failure;
  if (holdsLoneSurrogate(text, value)) return refused({ ok: false, code: 'INVALID_MESSAGE', message: NOT_UNICODE });
  const decoded = decodeMessage(value, HOST_FRAME_CHECKS);
  return decoded.ok ? decoded : refused(decoded);
}
