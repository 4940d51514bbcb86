/**
 * A validating scan of JSON text that builds nothing: it says whether `text` from `start` holds
 * one well-formed JSON value, where it ends, and bounds its nesting. It exists so that the relay
 * can log a host's 10–20 KB `state.updated` as valid JSON without `JSON.parse` building its
 * object tree (DESIGN.md: the relay checks hosts' frames as much as safety needs).
 *
 * It accepts a strict subset of JSON and nothing outside it: no whitespace but spaces between
 * tokens, and no character below U+0020 anywhere (the caller checks that over the whole text, as
 * such a character outside a string is whitespace and inside one is invalid). Whatever it
 * refuses, the caller hands to `JSON.parse`, which decides.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;

/** Returned for text that is not a value of the accepted subset, or nests deeper than allowed. */
export const INVALID = -1;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const HIGH = 1;
const LOW = 2;
/** Whether the `\uXXXX` escape whose `u` is at `u` writes the high half of a surrogate pair (D800–DBFF), the low half (DC00–DFFF), or neither (0). */
function surrogateEscape(text: string, u: number): number {
  if ((text.charCodeAt(u + 1) | 0x20) !== 0x64) return 0;
  const c = text.charCodeAt(u + 2) | 0x20;
  if (c === 0x38 || c === 0x39 || c === 0x61 || c === 0x62) return HIGH;
  return c >= 0x63 && c <= 0x66 ? LOW : 0;
}
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

function skipSpaces(text: string, i: number): number {
  while (text.charCodeAt(i) === SPACE) i++;
  return i;
}

/**
 * The first backslash at or after `from` in the text being scanned (its index, or the text's
 * length for none): no backslash lies in between, whichever string of the scan asks next. Only
 * {@link scanMembers} starts a scan, and it forgets the last scan's backslash: the cache is never
 * keyed by the text itself, since comparing two strings of equal content reads both whole, and a
 * frame sent twice would then cost a read of the whole frame for every string in it.
 */
const escapes = { from: 0, at: -1 };

/** The index just past the string whose opening quote is at `i`, or {@link INVALID}. */
function scanString(text: string, i: number): number {
  const close = text.indexOf('"', i + 1);
  if (close < 0) return INVALID;
  // Most strings hold no escape: one native search each, and the characters in between are
  // already known to be at or above U+0020 (the caller's check), which is all JSON asks of them.
  // The next backslash is searched once and remembered, as the scan only moves forward.
  if (escapes.at <= i || escapes.from > i + 1) {
    const at = text.indexOf('\\', i + 1);
    escapes.from = i + 1;
    escapes.at = at < 0 ? text.length : at;
  }
  const backslash = escapes.at;
  if (backslash > close) return close + 1;
  for (let j = backslash; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    if (c !== BACKSLASH) continue;
    const e = text.charCodeAt(++j);
    if (e === 0x75) {
      // \uXXXX. Half a surrogate pair is not Unicode: a string holding one is left to the full
      // decoder, which refuses it; a whole pair (\uD83D\uDE00) is read as one.
      for (let k = 1; k <= 4; k++) if (!isHex(text.charCodeAt(j + k))) return INVALID;
      const half = surrogateEscape(text, j);
      if (half === LOW) return INVALID;
      if (half === HIGH) {
        if (text.charCodeAt(j + 5) !== BACKSLASH || text.charCodeAt(j + 6) !== 0x75) return INVALID;
        for (let k = 7; k <= 10; k++) if (!isHex(text.charCodeAt(j + k))) return INVALID;
        if (surrogateEscape(text, j + 6) !== LOW) return INVALID;
        j += 6;
      }
      j += 4;
    } else if (
      e !== QUOTE &&
      e !== BACKSLASH &&
      e !== 0x2f &&
      e !== 0x62 &&
      e !== 0x66 &&
      e !== 0x6e &&
      e !== 0x72 &&
      e !== 0x74
    ) {
      return INVALID;
    }
  }
  return INVALID;
}

function scanNumber(text: string, i: number): number {
  if (text.charCodeAt(i) === 0x2d) i++;
  if (text.charCodeAt(i) === 0x30) i++;
  else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
  else return INVALID;
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return INVALID;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return INVALID;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

function scanWord(text: string, i: number, word: string): number {
  return text.startsWith(word, i) ? i + word.length : INVALID;
}

/**
 * The index just past the JSON value that starts at `i` (no space before it), or
 * {@link INVALID}. Objects and arrays may nest `depthLeft` levels (the value's own counts as one).
 */
function scanValue(text: string, i: number, depthLeft: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return scanString(text, i);
  if (c === 0x7b) return scanObject(text, i, depthLeft);
  if (c === 0x5b) return scanArray(text, i, depthLeft);
  if (c === 0x74) return scanWord(text, i, 'true');
  if (c === 0x66) return scanWord(text, i, 'false');
  if (c === 0x6e) return scanWord(text, i, 'null');
  return scanNumber(text, i);
}

/** The most keys one object may have for the scan to accept it (a uiSpec's have about 10); more go to the full decoder. */
const MAX_OBJECT_KEYS = 64;

/**
 * Where the keys of the objects being scanned lie (start and end of each, innermost object last,
 * up to {@link keyTop}): the scan runs synchronously, and each object takes back its part before
 * it returns. Typed and never shrunk, so the hot path allocates nothing for it.
 */
let keySpans = new Int32Array(512);
let keyTop = 0;

/**
 * Whether the key whose text (quotes included) lies from `start` to `end` is new in the object whose
 * keys start at `base` in {@link keySpans}, and is recorded. A key named twice is read as its last
 * value by JavaScript and as its first by DuckDB (the export's reader), so an object with one is
 * left to the full decoder, which serializes the value the readers agree on; so is a key with an
 * escape (its text is not its name) and an object of more than {@link MAX_OBJECT_KEYS} keys.
 */
function newKey(text: string, start: number, end: number, base: number): boolean {
  // scanString has just found the key's first backslash, if any (escapes.at).
  if (escapes.at < end) return false;
  const length = end - start;
  for (let k = base; k < keyTop; k += 2) {
    const other = keySpans[k] as number;
    if ((keySpans[k + 1] as number) - other !== length) continue;
    let j = 1;
    while (j < length - 1 && text.charCodeAt(other + j) === text.charCodeAt(start + j)) j++;
    if (j >= length - 1) return false;
  }
  if (keyTop - base >= 2 * MAX_OBJECT_KEYS) return false;
  if (keyTop + 2 > keySpans.length) {
    const grown = new Int32Array(keySpans.length * 2);
    grown.set(keySpans);
    keySpans = grown;
  }
  keySpans[keyTop] = start;
  keySpans[keyTop + 1] = end;
  keyTop += 2;
  return true;
}

function scanObject(text: string, i: number, depthLeft: number): number {
  if (depthLeft <= 0) return INVALID;
  const base = keyTop;
  const value = scanObjectBody(text, i, depthLeft, base);
  keyTop = base;
  return value;
}

function scanObjectBody(text: string, i: number, depthLeft: number, base: number): number {
  i = skipSpaces(text, i + 1);
  if (text.charCodeAt(i) === 0x7d) return i + 1;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return INVALID;
    const keyStart = i;
    i = scanString(text, i);
    if (i < 0 || !newKey(text, keyStart, i, base)) return INVALID;
    i = skipSpaces(text, i);
    if (text.charCodeAt(i) !== 0x3a) return INVALID;
    i = scanValue(text, skipSpaces(text, i + 1), depthLeft - 1);
    if (i < 0) return INVALID;
    i = skipSpaces(text, i);
    const next = text.charCodeAt(i);
    if (next === 0x7d) return i + 1;
    if (next !== 0x2c) return INVALID;
    i = skipSpaces(text, i + 1);
  }
}

function scanArray(text: string, i: number, depthLeft: number): number {
  if (depthLeft <= 0) return INVALID;
  i = skipSpaces(text, i + 1);
  if (text.charCodeAt(i) === 0x5d) return i + 1;
  for (;;) {
    i = scanValue(text, i, depthLeft - 1);
    if (i < 0) return INVALID;
    i = skipSpaces(text, i);
    const next = text.charCodeAt(i);
    if (next === 0x5d) return i + 1;
    if (next !== 0x2c) return INVALID;
    i = skipSpaces(text, i + 1);
  }
}

/** One member of an object: its key (without escapes) and where its value's text lies. */
export interface Member {
  key: string;
  start: number;
  end: number;
  /** The members of the value, for the key the caller asked to open. */
  members?: Member[];
}

/** The most members {@link scanMembers} reads: an envelope and a big frame's payload have five at most. */
export const MAX_MEMBERS = 16;

/**
 * The members of the object that opens at `i`, each value checked by {@link scanValue} with
 * `depthLeft` levels, and the index just past its closing brace; null when the text is not such
 * an object, it has more than {@link MAX_MEMBERS} members, a key holds an escape, or a key comes
 * twice (a parser would keep the last one). The
 * value of the member named `open` is read the same way, in the same pass, and must be an object.
 */
export function scanMembers(
  text: string,
  i: number,
  depthLeft: number,
  open?: string,
): { members: Member[]; end: number } | null {
  escapes.from = 0;
  escapes.at = -1;
  return readMembers(text, i, depthLeft, open);
}

function readMembers(
  text: string,
  i: number,
  depthLeft: number,
  open?: string,
): { members: Member[]; end: number } | null {
  if (depthLeft <= 0 || text.charCodeAt(i) !== 0x7b) return null;
  const members: Member[] = [];
  i = skipSpaces(text, i + 1);
  if (text.charCodeAt(i) === 0x7d) return { members, end: i + 1 };
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return null;
    const keyEnd = text.indexOf('"', i + 1);
    if (keyEnd < 0) return null;
    const key = text.slice(i + 1, keyEnd);
    // A few members only: the duplicate check stays short, and the list small, whatever the text holds.
    if (members.length === MAX_MEMBERS || key.includes('\\') || members.some((m) => m.key === key)) return null;
    i = skipSpaces(text, keyEnd + 1);
    if (text.charCodeAt(i) !== 0x3a) return null;
    const start = skipSpaces(text, i + 1);
    let end: number;
    if (key === open) {
      const inner = readMembers(text, start, depthLeft - 1);
      if (!inner) return null;
      end = inner.end;
      members.push({ key, start, end, members: inner.members });
    } else {
      end = scanValue(text, start, depthLeft - 1);
      if (end < 0) return null;
      members.push({ key, start, end });
    }
    i = skipSpaces(text, end);
    const next = text.charCodeAt(i);
    if (next === 0x7d) return { members, end: i + 1 };
    if (next !== 0x2c) return null;
    i = skipSpaces(text, i + 1);
  }
}
