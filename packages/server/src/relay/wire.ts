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
  // indexOf runs natively: a frame is mostly strings, and this is the relay's hot path.
  for (let j = text.indexOf('"', i + 1); j >= 0; j = text.indexOf('"', j + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return j + 1;
  }
  return -1;
}

/** The payload's text sliced from a frame, or why not: `tooDeep` when it nests past the limit. */
export type PayloadSlice = { ok: true; json: string } | { ok: false; tooDeep: boolean };

const NO_SLICE: PayloadSlice = { ok: false, tooDeep: false };

/**
 * The payload of a frame as the sender wrote it, sliced out of the frame's text so the relay can
 * log it without serializing it again. `text` must be the frame that `envelope` was parsed from
 * and checked (`v`, `type`, `id`, `replyTo` strings, `payload` an object). The envelope's members
 * must be those, each once, strings but for the payload, which must come last: its object is
 * scanned to its closing brace (strings skipped), which must be the envelope's last character, so
 * a second `payload` or any member after it (keys a parser would let override the first) makes it
 * give up, as does a key named twice in any object of the payload (readers differ on which value
 * counts). The scan also bounds the payload's nesting at `maxDepth`. Any other layout gives
 * `{ok: false}`, and the caller serializes the parsed payload instead.
 */
export function payloadSlice(text: string, envelope: object, maxDepth = 63): PayloadSlice {
  for (const key in envelope) if (!KNOWN_MEMBERS.has(key)) return NO_SLICE;
  let end = text.length - 1;
  while (end > 0 && isSpace(text.charCodeAt(end))) end--;
  if (text.charCodeAt(end) !== 0x7d) return NO_SLICE; // the envelope's closing brace
  let last = end - 1;
  while (last > 0 && isSpace(text.charCodeAt(last))) last--;
  if (text.charCodeAt(last) !== 0x7d) return NO_SLICE; // the last member is not an object: payload is not last

  const seen = new Set<string>();
  let i = text.indexOf('{');
  for (;;) {
    i++;
    while (isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== QUOTE) return NO_SLICE;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return NO_SLICE;
    const key = text.slice(i + 1, keyEnd - 1);
    if (seen.has(key)) return NO_SLICE;
    seen.add(key);
    i = keyEnd;
    while (isSpace(text.charCodeAt(i))) i++;
    i++; // the colon
    while (isSpace(text.charCodeAt(i))) i++;
    if (key === 'payload') {
      const close = closingBrace(text, i, maxDepth);
      if (close === TOO_DEEP) return { ok: false, tooDeep: true };
      if (close !== last) return NO_SLICE;
      // A key named twice is read as its last value by the relay's checks and by JavaScript
      // readers, but as its first by others (DuckDB, which the export reads the logs with): the
      // payload is serialized again from what was checked, so the log says what the host was sent.
      return duplicateKey(text, i, last) ? NO_SLICE : { ok: true, json: text.slice(i, last + 1) };
    }
    if (text.charCodeAt(i) !== QUOTE) return NO_SLICE; // only payload may be anything but a string
    i = skipString(text, i);
    if (i < 0) return NO_SLICE;
    while (isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 0x2c) return NO_SLICE; // a comma must follow, as payload is still to come
  }
}

const TOO_DEEP = -2;

/**
 * Whether an object in the valid JSON value from `start` to `end` (inclusive) names a key twice,
 * escapes read (`"a"` and `"\u0061"` are one key). One pass; a set per object, so an object of
 * many keys costs no more than its length.
 */
function duplicateKey(text: string, start: number, end: number): boolean {
  // For each open container, its keys so far (an object) or null (an array).
  const open: (Set<string> | null)[] = [];
  let atKey = false;
  for (let j = start; j <= end; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      const close = skipString(text, j);
      if (close < 0) return false;
      if (atKey) {
        const raw = text.slice(j + 1, close - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(j, close)) as string) : raw;
        const keys = open[open.length - 1] as Set<string>;
        if (keys.has(key)) return true;
        keys.add(key);
        atKey = false;
      }
      j = close - 1;
    } else if (c === 0x7b) {
      open.push(new Set());
      atKey = true;
    } else if (c === 0x5b) {
      open.push(null);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    } else if (c === 0x2c) {
      atKey = open[open.length - 1] != null;
    }
  }
  return false;
}

/** The index of the brace closing the object that opens at `start`, -1 if none, or {@link TOO_DEEP}. */
function closingBrace(text: string, start: number, maxDepth: number): number {
  if (text.charCodeAt(start) !== 0x7b) return -1;
  let depth = 0;
  for (let j = start; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      j = skipString(text, j) - 1;
      if (j < 0) return -1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return TOO_DEEP;
    } else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return j;
    }
  }
  return -1;
}
