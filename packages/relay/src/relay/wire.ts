import { PROTOCOL_VERSION } from '@usher/protocol';
import { lastMember, lastRefusal, scanValue } from './json-scan.ts';

/**
 * Serializes an envelope around a payload that is already JSON, for the frames the relay makes
 * or has to change (its own errors, a request's id, a study session id).
 */
export function envelopeText(
  type: string,
  payloadJson: string,
  ids: { id?: string | undefined; replyTo?: string | undefined } = {},
): string {
  let text = `{"v":"${PROTOCOL_VERSION}","type":${JSON.stringify(type)}`;
  if (ids.id !== undefined) text += `,"id":${JSON.stringify(ids.id)}`;
  if (ids.replyTo !== undefined) text += `,"replyTo":${JSON.stringify(ids.replyTo)}`;
  return `${text},"payload":${payloadJson}}`;
}

const KNOWN_MEMBERS = new Set(['v', 'type', 'id', 'replyTo', 'payload']);
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The payload's text sliced from a frame, or why not: `tooDeep` when it nests past the limit. */
export type PayloadSlice = { ok: true; json: string } | { ok: false; tooDeep: boolean };

const NO_SLICE: PayloadSlice = { ok: false, tooDeep: false };

/**
 * The payload of a frame as the sender wrote it, sliced out of the frame's text so the relay can
 * log it without serializing it again. `text` must be the frame that `envelope` was parsed from
 * and checked (`v`, `type`, `id`, `replyTo` strings, `payload` an object). The envelope's members
 * must be those, each once, and the payload must come last. The frame is read in one pass
 * (json-scan.ts), which bounds its nesting (the payload's at `maxDepth`) and gives up on a key
 * named twice in any object, the envelope's included: a second `payload` would be the one a
 * parser keeps, and a key named twice inside the payload is read as its last value by the
 * relay's checks and by JavaScript readers but as its first by others (DuckDB, which the export
 * reads the logs with). It also leaves alone a key written with an escape, and an object of very
 * many keys. Any of these gives `{ok: false}`, and the caller serializes the parsed payload
 * instead, so the log says what was checked and forwarded.
 */
export function payloadSlice(text: string, envelope: object, maxDepth = 63): PayloadSlice {
  for (const key in envelope) if (!KNOWN_MEMBERS.has(key)) return NO_SLICE;
  let start = 0;
  while (isSpace(text.charCodeAt(start))) start++;
  if (text.charCodeAt(start) !== 0x7b) return NO_SLICE;
  // The envelope is one level more than its payload.
  const end = scanValue(text, start, maxDepth + 1, true);
  if (end < 0) return lastRefusal.tooDeep ? { ok: false, tooDeep: true } : NO_SLICE;
  const { keyStart, keyEnd, valueStart, valueEnd } = lastMember;
  if (keyEnd - keyStart !== 7 || !text.startsWith('payload', keyStart)) return NO_SLICE;
  return { ok: true, json: text.slice(valueStart, valueEnd) };
}
