import type { MemberPath, Span } from './frame-scan.ts';

/*
 * The large members of the states a connection has read (the page's records, the tools, the chat),
 * kept by their exact text with the value the contract's schema gave them. A state repeats most of
 * the last one (a chat line added, a seat chosen: the seat map's 28 KB of records unchanged), so a
 * member whose text is one of these is neither parsed nor checked again: the rest of the frame is,
 * with the member left out, and the kept value put back in its place.
 */

/** Which schema a member's value was checked against: the same text under another schema is another entry. */
type Kind = 'items' | 'tools' | 'history';
const KIND: Record<MemberPath, Kind> = {
  'payload.uiSpec.items': 'items',
  'payload.uiSpec.visibleItems': 'items',
  'payload.toolSchema': 'tools',
  'payload.messageHistory': 'history',
};

export interface MemberLimits {
  /** Most members kept (the least recently used goes first). */
  entries: number;
  /** Most characters of member text kept in all. */
  chars: number;
  /** Members shorter than this are read as they come: parsing them costs less than keeping them. */
  minChars: number;
}

export const MEMBER_LIMITS: MemberLimits = { entries: 8, chars: 256 * 1024, minChars: 1024 };

interface Entry {
  /** The member's text, a copy of its own (a key cut from a frame would hold the whole frame). */
  text: string;
  kind: Kind;
  value: unknown;
  /** The last state (by count) that carried it. */
  state: number;
}

/** A frame's text with its known members left out (`[]` in their place), and their kept values. */
export interface Lifted {
  text: string;
  values: Map<MemberPath, unknown>;
}

export class StateMembers {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  /** How many states were read: members no state of the last two carried are let go. */
  private states = 0;

  constructor(private readonly limits: MemberLimits = MEMBER_LIMITS) {}

  /** The frame with every member already kept left out; null when none is. */
  lift(text: string, spans: ReadonlyMap<MemberPath, Span>): Lifted | null {
    const values = new Map<MemberPath, unknown>();
    const cut: [number, number][] = [];
    for (const [path, span] of spans) {
      if (span.end - span.start < this.limits.minChars) continue;
      const member = text.slice(span.start, span.end);
      const entry = this.entries.get(member);
      if (!entry || entry.kind !== KIND[path]) continue;
      // Used again: it goes to the back of the line for eviction, under its own copy of the text.
      this.entries.delete(entry.text);
      entry.state = this.states;
      this.entries.set(entry.text, entry);
      values.set(path, entry.value);
      cut.push([span.start, span.end]);
    }
    if (cut.length === 0) return null;
    cut.sort((a, b) => a[0] - b[0]);
    let rest = '';
    let from = 0;
    for (const [start, end] of cut) {
      rest += `${text.slice(from, start)}[]`;
      from = end;
    }
    return { text: rest + text.slice(from), values };
  }

  /**
   * Keeps `value`, what the contract's schema gave for the member at `span` of `text` (a frame it
   * accepted). The value is frozen: several states share it, so nothing may change it.
   */
  keep(text: string, path: MemberPath, span: Span, value: unknown): void {
    const length = span.end - span.start;
    if (length < this.limits.minChars || length > this.limits.chars || !Array.isArray(value)) return;
    // A copy of its own, so the key does not hold the whole frame it was cut from.
    const member = Buffer.from(text.slice(span.start, span.end), 'utf8').toString('utf8');
    if (member.length !== length || member !== text.slice(span.start, span.end)) return;
    const kind = KIND[path];
    const known = this.entries.get(member);
    if (known?.kind === kind) {
      known.state = this.states;
      return;
    }
    this.forget(member);
    this.entries.set(member, { text: member, kind, value: deepFreeze(value), state: this.states });
    this.chars += length;
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.limits.entries && this.chars <= this.limits.chars) break;
      this.forget(key);
    }
  }

  /**
   * Ends a state's reading: what neither it nor the state before it carried is let go (a seat map
   * left behind, a stage's tools the page no longer offers). The tools that come and go between
   * two states (a choice made, the next stage) are kept; the agent holds the last state anyway, so
   * what is kept beyond it is about one state's worth.
   */
  settle(): void {
    for (const [member, entry] of this.entries) if (entry.state < this.states - 1) this.forget(member);
    this.states++;
  }

  /** Lets go of every member (the connection is closed for good). */
  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  /** How many members are kept, and their characters (for tests and the bench). */
  get size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }

  private forget(member: string): void {
    if (this.entries.delete(member)) this.chars -= member.length;
  }
}

/** Freezes `value` and everything in it, without recursion (its depth is bounded, but the stack is not ours). */
function deepFreeze<T>(value: T): T {
  const left: unknown[] = [value];
  while (left.length > 0) {
    const v = left.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const inner of Object.values(v)) left.push(inner);
  }
  return value;
}
