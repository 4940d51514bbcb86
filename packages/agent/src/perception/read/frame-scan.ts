import { MAX_JSON_DEPTH } from '@usher/protocol';

/*
 * One pass over a frame's text before it is parsed: the depth bound (as `exceedsDepth` checks it),
 * and where the large members of a state lie in the text, so a member whose text did not change
 * since the last state need not be parsed and checked again (members.ts).
 */

/** The members of a state worth reading once: the page's records and the tools (tens of KB each). */
export const MEMBER_PATHS = [
  'payload.uiSpec.items',
  'payload.uiSpec.visibleItems',
  'payload.toolSchema',
  'payload.messageHistory',
] as const;
export type MemberPath = (typeof MEMBER_PATHS)[number];

/** Where one member's value lies in the text: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

export interface FrameScan {
  /** Nests objects and arrays deeper than the limit: refused before anything recursive runs. */
  tooDeep: boolean;
  /**
   * The members found, each an array or object met once; null when the text's shape makes them
   * unsafe to lift out (a key written with an escape or given twice on the way to a member, where
   * the parser's reading could differ from the scan's): the frame is then read whole.
   */
  members: Map<MemberPath, Span> | null;
}

/** The objects on the way to a member, and the keys in each that lead on (or are a member). */
const ON_THE_WAY: Record<string, ReadonlySet<string>> = {
  '': new Set(['payload']),
  payload: new Set(['uiSpec', 'toolSchema', 'messageHistory']),
  'payload.uiSpec': new Set(['items', 'visibleItems']),
};
const IS_MEMBER: ReadonlySet<string> = new Set(MEMBER_PATHS);
/** The keys seen at a level whose keys are not followed: none are ever added. */
const NONE: Set<string> = new Set();

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

interface Level {
  /** The path of this object when it is on the way to a member (keys are followed in it), else null. */
  path: string | null;
  /** Whether the next string at this level is a key (after `{` or `,` in an object). */
  expectKey: boolean;
  /** The last key read at this level, when it leads on. */
  key: string | null;
  /** The keys that lead on, seen so far at this level (a second one makes the scan unsafe). */
  seen: Set<string>;
  /** Where this container began, when it is a member. */
  start: number;
  member: MemberPath | null;
}

/**
 * Scans `text` once. Text that is not JSON is judged by its brackets alone, as `exceedsDepth`
 * judges it; the parser refuses it afterwards (a member lifted out of broken text is never used:
 * members.ts parses what is left around it).
 */
export function scanFrame(text: string, limit = MAX_JSON_DEPTH): FrameScan {
  const members = new Map<MemberPath, Span>();
  let safe = true;
  // Only the containers on the way to a member, and the members, have a level; what nests in
  // them otherwise is counted (`inside`), as its brackets and strings are all that matter.
  const levels: Level[] = [];
  let inside = 0;
  // Counted as `exceedsDepth` counts, stray closing brackets included, so both judge broken text alike.
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const open = i;
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
      if (i >= n) break;
      const level = inside === 0 ? levels[levels.length - 1] : undefined;
      if (level !== undefined && level.path !== null && level.expectKey) {
        level.expectKey = false;
        const key = text.slice(open + 1, i);
        const leads = ON_THE_WAY[level.path] as ReadonlySet<string>;
        // A key written with an escape may name a member: the parser's reading could differ from ours.
        if (key.includes('\\')) safe = false;
        if (level.seen.has(key)) safe = false;
        if (leads.has(key)) level.seen.add(key);
        level.key = leads.has(key) ? key : null;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > limit) return { tooDeep: true, members: null };
      if (inside > 0) {
        inside++;
        continue;
      }
      const parent = levels[levels.length - 1];
      const key = parent?.path != null ? parent.key : null;
      const path = parent === undefined ? '' : key === null ? null : parent.path ? `${parent.path}.${key}` : key;
      if (parent) parent.key = null;
      const member = path !== null && IS_MEMBER.has(path) ? (path as MemberPath) : null;
      const follows = c === OPEN_OBJECT && path !== null && Object.hasOwn(ON_THE_WAY, path);
      if (!follows && member === null) {
        inside++;
        continue;
      }
      levels.push({
        path: follows ? path : null,
        expectKey: c === OPEN_OBJECT,
        key: null,
        seen: follows ? new Set() : NONE,
        start: i,
        member,
      });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (inside > 0) {
        inside--;
        continue;
      }
      const level = levels.pop();
      if (level?.member) members.set(level.member, { start: level.start, end: i + 1 });
    } else if (c === COMMA && inside === 0) {
      const level = levels[levels.length - 1];
      if (level) {
        level.expectKey = true;
        level.key = null;
      }
    }
  }
  return { tooDeep: false, members: safe ? members : null };
}
