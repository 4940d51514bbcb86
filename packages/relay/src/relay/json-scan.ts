/**
 * A validating scan of JSON text that builds nothing: it says whether `text` from `start` holds
 * one well-formed JSON value, where it ends, and bounds its nesting. It exists so that the relay
 * can log a host's 10–20 KB `state.updated` as valid JSON without `JSON.parse` building its
 * object tree (DESIGN.md: the relay checks hosts' frames as much as safety needs), and slice an
 * agent's payload out of its frame for the log.
 *
 * It accepts a strict subset of JSON and nothing outside it: no whitespace but spaces between
 * tokens (unless the caller allows JSON's other whitespace too), no escape in a key, no half of a
 * surrogate pair written as an escape, no key twice in an object and at most
 * {@link MAX_OBJECT_KEYS} keys in one. No character below U+0020 may stand anywhere: the caller
 * checks that over the whole text ({@link holdsControl}), as such a character outside a string is
 * whitespace and inside one is invalid. Whatever it refuses, the caller hands to `JSON.parse`,
 * which decides.
 *
 * One loop, without recursion or allocation, reads the text between strings a character at a
 * time and each string with one native search: a frame costs one pass of its length however it
 * nests and however often it repeats.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Returned for text that is not a value of the accepted subset, or nests deeper than allowed. */
export const INVALID = -1;

/** Why the last scan returned {@link INVALID}: true when it was the nesting (the value went deeper than allowed). */
export const lastRefusal = { tooDeep: false };

/**
 * Where the last member of the outermost object the last {@link scanValue} read lies: its key's
 * text (between the quotes) and its value's. All 0 when the value was not an object or was empty.
 */
export const lastMember = { keyStart: 0, keyEnd: 0, valueStart: 0, valueEnd: 0 };

const CONTROLS = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c));

/**
 * Whether `text` holds a character below U+0020. One native search for each of the 32 is several
 * times faster on a big frame than a regular expression's single pass, which reads a character
 * at a time.
 */
export function holdsControl(text: string): boolean {
  for (const c of CONTROLS) if (text.includes(c)) return true;
  return false;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
/** JSON's whitespace other than the space, allowed between tokens when the caller asks. */
const isOtherSpace = (c: number) => c === 0x0a || c === 0x0d || c === 0x09;

function skipSpaces(text: string, i: number, anySpace: boolean): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === SPACE || (anySpace && isOtherSpace(c))) i++;
    else return i;
  }
}

const HIGH = 1;
const LOW = 2;
/** Whether the `\uXXXX` escape whose `u` is at `u` writes the high half of a surrogate pair (D800–DBFF), the low half (DC00–DFFF), or neither (0). */
function surrogateEscape(text: string, u: number): number {
  if ((text.charCodeAt(u + 1) | 0x20) !== 0x64) return 0;
  const c = text.charCodeAt(u + 2) | 0x20;
  if (c === 0x38 || c === 0x39 || c === 0x61 || c === 0x62) return HIGH;
  return c >= 0x63 && c <= 0x66 ? LOW : 0;
}

/**
 * The index just past the escape whose backslash is at `j`, or {@link INVALID}. Half a surrogate
 * pair is not Unicode: a string holding one is left to the full decoder, which refuses it; a
 * whole pair (\uD83D\uDE00) is read as one.
 */
function escapeEnd(text: string, j: number): number {
  const e = text.charCodeAt(j + 1);
  if (e !== 0x75) {
    const simple =
      e === QUOTE ||
      e === BACKSLASH ||
      e === 0x2f ||
      e === 0x62 ||
      e === 0x66 ||
      e === 0x6e ||
      e === 0x72 ||
      e === 0x74;
    return simple ? j + 2 : INVALID;
  }
  for (let k = 2; k <= 5; k++) if (!isHex(text.charCodeAt(j + k))) return INVALID;
  const half = surrogateEscape(text, j + 1);
  if (half === 0) return j + 6;
  if (half === LOW || text.charCodeAt(j + 6) !== BACKSLASH || text.charCodeAt(j + 7) !== 0x75) return INVALID;
  for (let k = 8; k <= 11; k++) if (!isHex(text.charCodeAt(j + k))) return INVALID;
  return surrogateEscape(text, j + 7) === LOW ? j + 12 : INVALID;
}

/**
 * The first backslash at or after {@link backslashFrom} in the text being scanned (its index, or
 * the text's length for none): no backslash lies in between, whichever string of the scan asks
 * next. Each scan starts by forgetting the last one's: the cache is never keyed by the text
 * itself, since comparing two strings of equal content reads both whole, and a frame sent twice
 * would then cost a read of the whole frame for every string in it.
 */
let backslashFrom = 0;
let backslashAt = -1;

function forgetBackslash(): void {
  backslashFrom = 0;
  backslashAt = -1;
}

/** The first backslash after `i` (the text's length for none), searched once per stretch of text. */
function nextBackslash(text: string, i: number): number {
  if (backslashAt <= i || backslashFrom > i + 1) {
    const at = text.indexOf('\\', i + 1);
    backslashFrom = i + 1;
    backslashAt = at < 0 ? text.length : at;
  }
  return backslashAt;
}

/**
 * The index just past the string whose opening quote is at `i`, or {@link INVALID}. Most strings
 * hold no escape: one native search each, and the characters in between are already known to be
 * at or above U+0020 (the caller's check), which is all JSON asks of them.
 */
function stringEnd(text: string, i: number): number {
  const close = text.indexOf('"', i + 1);
  if (close < 0) return INVALID;
  let j = nextBackslash(text, i);
  if (j > close) return close + 1;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) {
      j = escapeEnd(text, j);
      if (j < 0) return INVALID;
    } else if (j < text.length) {
      j++;
    } else {
      return INVALID;
    }
  }
}

function numberEnd(text: string, i: number): number {
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

/** The most keys one object may have for the scan to accept it (a uiSpec's have about 10); more go to the full decoder. */
export const MAX_OBJECT_KEYS = 64;

/*
 * The scan's state, typed and never shrunk, so the hot path allocates nothing: it runs
 * synchronously, and each scan starts from empty stacks.
 *
 * For each open container (innermost last, up to the scan's depth): whether it is an object,
 * where its keys start in the key stack, and the lengths they have. For each key of the open objects: where its text
 * lies (between the quotes).
 */
let isObject = new Uint8Array(128);
let keysFrom = new Int32Array(128);
/** For each open object, a bit for each length (modulo 32) of its keys so far: a key of a new length is new. */
let keyLengths = new Int32Array(128);
let keyStart = new Int32Array(512);
let keyEnd = new Int32Array(512);
let keyTop = 0;

function growKeys(): void {
  const grow = (a: Int32Array) => {
    const grown = new Int32Array(a.length * 2);
    grown.set(a);
    return grown;
  };
  keyStart = grow(keyStart);
  keyEnd = grow(keyEnd);
}

/**
 * Reads the key whose opening quote is at `i`, in the object open at `depth` (0 for the outermost), and returns the index just past its closing quote; {@link INVALID} when it is not a plain
 * string, the object has it already, or the object has {@link MAX_OBJECT_KEYS} keys already. A key
 * named twice is read as its last value by JavaScript and as its first by DuckDB (the export's
 * reader), so an object with one is left to the full decoder, which serializes the value the
 * readers agree on; so is a key with an escape (its text is not its name).
 */
function readKey(text: string, i: number, depth: number): number {
  if (text.charCodeAt(i) !== QUOTE) return INVALID;
  const end = text.indexOf('"', i + 1);
  if (end < 0 || nextBackslash(text, i) < end) return INVALID;
  const start = i + 1;
  const length = end - start;
  const from = keysFrom[depth] as number;
  const lengthBit = 1 << (length & 31);
  const lengths = keyLengths[depth] as number;
  keyLengths[depth] = lengths | lengthBit;
  for (let k = (lengths & lengthBit) === 0 ? keyTop : from; k < keyTop; k++) {
    const other = keyStart[k] as number;
    if ((keyEnd[k] as number) - other !== length) continue;
    let n = 0;
    while (n < length && text.charCodeAt(other + n) === text.charCodeAt(start + n)) n++;
    if (n === length) return INVALID;
  }
  if (keyTop - from >= MAX_OBJECT_KEYS) return INVALID;
  if (keyTop === keyStart.length) growKeys();
  keyStart[keyTop] = start;
  keyEnd[keyTop] = end;
  keyTop++;
  return end + 1;
}

/** A member of the outermost object starts its value at `valueStart`: its key is the last one read. */
function topMember(valueStart: number): void {
  lastMember.keyStart = keyStart[keyTop - 1] as number;
  lastMember.keyEnd = keyEnd[keyTop - 1] as number;
  lastMember.valueStart = valueStart;
}

/**
 * Reads an object member's key at `i` (the object is open at `depth`), its colon and the spaces
 * after it; returns where the member's value starts, or {@link INVALID}.
 */
function memberValueStart(text: string, i: number, depth: number, anySpace: boolean): number {
  i = readKey(text, i, depth - 1);
  if (i < 0) return INVALID;
  i = skipSpaces(text, i, anySpace);
  if (text.charCodeAt(i) !== COLON) return INVALID;
  i = skipSpaces(text, i + 1, anySpace);
  if (depth === 1) topMember(i);
  return i;
}

/**
 * The index just past the JSON value that starts at `i` (no space before it), or {@link INVALID}
 * ({@link lastRefusal} says whether for its nesting). Objects and arrays may nest `depthLeft`
 * levels (the value's own counts as one). `anySpace` allows JSON's tabs and line breaks between
 * tokens as well as spaces.
 */
export function scanValue(text: string, i: number, depthLeft: number, anySpace = false): number {
  forgetBackslash();
  return valueEnd(text, i, depthLeft, anySpace);
}

function valueEnd(text: string, i: number, depthLeft: number, anySpace: boolean): number {
  lastRefusal.tooDeep = false;
  const top = lastMember;
  top.keyStart = top.keyEnd = top.valueStart = top.valueEnd = 0;
  if (depthLeft > isObject.length) {
    isObject = new Uint8Array(depthLeft);
    keysFrom = new Int32Array(depthLeft);
    keyLengths = new Int32Array(depthLeft);
  }
  keyTop = 0;
  /** Containers open. */
  let depth = 0;
  for (;;) {
    // A value starts at i.
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth >= depthLeft) {
        lastRefusal.tooDeep = true;
        return INVALID;
      }
      const object = c === OPEN_OBJECT;
      isObject[depth] = object ? 1 : 0;
      keysFrom[depth] = keyTop;
      keyLengths[depth] = 0;
      depth++;
      i = skipSpaces(text, i + 1, anySpace);
      const next = text.charCodeAt(i);
      if (next === (object ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        depth--;
        i++;
      } else if (object) {
        i = memberValueStart(text, i, depth, anySpace);
        if (i < 0) return INVALID;
        continue;
      } else {
        continue;
      }
    } else if (c === 0x74) {
      i = text.startsWith('true', i) ? i + 4 : INVALID;
    } else if (c === 0x66) {
      i = text.startsWith('false', i) ? i + 5 : INVALID;
    } else if (c === 0x6e) {
      i = text.startsWith('null', i) ? i + 4 : INVALID;
    } else {
      i = numberEnd(text, i);
    }
    if (i < 0) return INVALID;
    // A value ends at i: the containers it closes, up to the next value.
    for (;;) {
      if (depth === 0) return i;
      if (depth === 1) top.valueEnd = i;
      i = skipSpaces(text, i, anySpace);
      const next = text.charCodeAt(i);
      const object = isObject[depth - 1] === 1;
      if (next === COMMA) {
        i = skipSpaces(text, i + 1, anySpace);
        if (object) {
          i = memberValueStart(text, i, depth, anySpace);
          if (i < 0) return INVALID;
        }
        break;
      }
      if (next !== (object ? CLOSE_OBJECT : CLOSE_ARRAY)) return INVALID;
      depth--;
      if (object) keyTop = keysFrom[depth] as number;
      i++;
    }
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
  forgetBackslash();
  return readMembers(text, i, depthLeft, open);
}

function readMembers(
  text: string,
  i: number,
  depthLeft: number,
  open?: string,
): { members: Member[]; end: number } | null {
  if (depthLeft <= 0 || text.charCodeAt(i) !== OPEN_OBJECT) return null;
  const members: Member[] = [];
  i = skipSpaces(text, i + 1, false);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return { members, end: i + 1 };
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return null;
    const keyEnd = text.indexOf('"', i + 1);
    if (keyEnd < 0 || nextBackslash(text, i) < keyEnd) return null;
    const key = text.slice(i + 1, keyEnd);
    // A few members only: the duplicate check stays short, and the list small, whatever the text holds.
    if (members.length === MAX_MEMBERS || members.some((m) => m.key === key)) return null;
    i = skipSpaces(text, keyEnd + 1, false);
    if (text.charCodeAt(i) !== COLON) return null;
    const start = skipSpaces(text, i + 1, false);
    let end: number;
    if (key === open) {
      const inner = readMembers(text, start, depthLeft - 1);
      if (!inner) return null;
      end = inner.end;
      members.push({ key, start, end, members: inner.members });
    } else {
      end = valueEnd(text, start, depthLeft - 1, false);
      if (end < 0) return null;
      members.push({ key, start, end });
    }
    i = skipSpaces(text, end, false);
    const next = text.charCodeAt(i);
    if (next === CLOSE_OBJECT) return { members, end: i + 1 };
    if (next !== COMMA) return null;
    i = skipSpaces(text, i + 1, false);
  }
}
