import { PROTOCOL_VERSION } from '@usher/protocol';

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
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index just past the JSON string that starts at `i` (at its opening quote). */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/**
 * The payload of a frame as the sender wrote it, sliced out of the frame's text so the relay can
 * log it without serializing it again. `text` must be the frame that `envelope` was parsed from
 * and checked (`v`, `type`, `id`, `replyTo` strings, `payload` an object). When those are its only
 * members, the payload is the only object-valued one, and when it is also the last its text runs
 * from after its key to the envelope's closing brace. Any other layout gives `undefined`, and the
 * caller serializes the parsed payload instead.
 */
export function payloadSlice(text: string, envelope: object): string | undefined {
  for (const key in envelope) if (!KNOWN_MEMBERS.has(key)) return undefined;
  let end = text.length - 1;
  while (end > 0 && isSpace(text.charCodeAt(end))) end--;
  if (text.charCodeAt(end) !== 0x7d) return undefined; // the envelope's closing brace
  let last = end - 1;
  while (last > 0 && isSpace(text.charCodeAt(last))) last--;
  if (text.charCodeAt(last) !== 0x7d) return undefined; // the last member is not an object: payload is not last

  let i = text.indexOf('{');
  for (;;) {
    i++;
    while (isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const key = text.slice(i + 1, keyEnd - 1);
    i = keyEnd;
    while (isSpace(text.charCodeAt(i))) i++;
    i++; // the colon
    while (isSpace(text.charCodeAt(i))) i++;
    if (key === 'payload') return text.slice(i, last + 1);
    if (text.charCodeAt(i) !== QUOTE) return undefined; // only payload may be anything but a string
    i = skipString(text, i);
    if (i < 0) return undefined;
    while (isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 0x2c) return undefined; // a comma must follow, as payload is still to come
  }
}
