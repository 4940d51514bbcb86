/**
 * Bounds checked on a frame's text before anything recursive (`JSON.parse`, a schema check,
 * `JSON.stringify`) runs on it: a few kilobytes of `[[[[…` must not exhaust a reader's stack.
 */

/** Deepest nesting of objects and arrays a frame may have. mvp-0.2's deepest frame (a uiSpec) needs about 8. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the JSON text nests objects and arrays deeper than `limit`, found in one pass without
 * parsing (brackets inside strings do not count). Text that is not JSON is judged by its brackets
 * alone; the parser refuses it afterwards.
 */
export function exceedsDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > limit) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** Longest text of an error message a sender puts on the wire; longer ones are cut (see {@link capText}). */
export const MAX_ERROR_TEXT = 2000;

/**
 * `text` cut to at most `max` characters, saying how much was left out, so a message stays readable
 * and bounded. The cut never falls inside a surrogate pair (an emoji): half of one is not Unicode,
 * and a study log line holding it is refused by strict JSON readers (DuckDB's, the export's).
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = ` … (${text.length - max} more characters)`;
  let keep = Math.max(0, max - note.length);
  const last = text.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return `${text.slice(0, keep)}${note}`;
}

/** A UTF-16 unit of a surrogate pair without its other half: not Unicode text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** JSON text that may write one as an escape (`\ud83d` alone); a frame of UTF-8 cannot hold one otherwise. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Whether a value parsed from the JSON `text` holds a string (or a key) with half a surrogate pair,
 * which JSON's grammar lets an escape write (`"\ud83d"`) but which is not Unicode: strict readers
 * such as DuckDB (the export's) refuse the whole line of a study log that holds one. Only text that
 * writes such an escape is walked, without recursion (a host's frame is parsed before its depth is
 * known).
 */
export function holdsLoneSurrogate(text: string, value: unknown): boolean {
  if (!SURROGATE_ESCAPE.test(text)) return false;
  const left: unknown[] = [value];
  while (left.length > 0) {
    const v = left.pop();
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) left.push(item);
    } else if (typeof v === 'object' && v !== null) {
      for (const [key, inner] of Object.entries(v)) {
        if (LONE_SURROGATE.test(key)) return true;
        left.push(inner);
      }
    }
  }
  return false;
}
