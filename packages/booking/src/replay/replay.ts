import type { ChatEntry, UiSpec } from '@usher/protocol';
import type { SubmittedBooking } from '../engine/booking.ts';
import { BookingEngine } from '../engine/engine.ts';
import type { Scenario } from '../scenario/schema.ts';

/** A study-log record as the replay reads it: what it needs, whatever else the line holds. */
export interface ReplayRecord {
  eventIndex: number;
  timestamp: string;
  direction: string;
  type: string;
  payload: Record<string, unknown>;
  id?: string;
  replyTo?: string;
  peer?: string;
}

/** One moment of a session: a record of its log, and the page as the participant saw it then. */
export interface ReplayFrame {
  record: ReplayRecord;
  /** The page's booking stage as last logged (null before the first state, or after the booking). */
  uiSpec: UiSpec | null;
  messages: ChatEntry[];
  /** For a logged state: where the state rebuilt from the log differs from it; null when they agree. */
  difference: string | null;
}

export interface Replay {
  frames: ReplayFrame[];
  /** Every logged state that the rebuilt one does not match, by event index. */
  differences: { eventIndex: number; message: string }[];
  /** Lines that could not be read (a torn last line, a foreign record), with why. */
  unreadable: { line: number; message: string }[];
  /** The state the log ends in, and the state rebuilt from its actions. */
  final: { logged: UiSpec | null; rebuilt: UiSpec | null; submitted: SubmittedBooking | null };
}

/** Nesting the replay follows when comparing states (the relay refuses frames deeper than 64). */
const MAX_DEPTH = 80;

/**
 * Replays a study session from its log alone (the console's replay, and the check that a log
 * tells the whole story): each moment's page is the last state the host logged, and each state
 * is rebuilt by applying the logged actions (the `action` of each `state.updated`, as the agent or
 * the participant) to a booking engine on the task's scenario, then compared with the logged one.
 * A difference is reported, never hidden: it means the log does not explain what the page showed.
 */
export function replayStudyLog(scenario: Scenario, log: string): Replay {
  const engine = new BookingEngine(scenario);
  const fresh = () => new BookingEngine(scenario).view().uiSpec;
  const frames: ReplayFrame[] = [];
  const differences: Replay['differences'] = [];
  const unreadable: Replay['unreadable'] = [];
  let uiSpec: UiSpec | null = null;
  let messages: ChatEntry[] = [];
  let logged: UiSpec | null = null;
  let seenState = false;

  const lines = log.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const record = readRecord(line);
    if (typeof record === 'string') {
      unreadable.push({ line: i + 1, message: record });
      return;
    }
    let difference: string | null = null;
    if (record.type === 'state.updated' && record.direction === 'out') {
      const payload = record.payload as {
        source?: unknown;
        uiSpec?: UiSpec | null;
        messageHistory?: ChatEntry[];
        action?: { toolName?: unknown; params?: unknown };
      };
      const action = payload.action;
      if (action && typeof action.toolName === 'string') {
        try {
          engine.apply(action.toolName, action.params ?? {}, payload.source === 'user' ? 'participant' : 'agent');
        } catch (err) {
          difference = `the logged ${action.toolName} could not be applied again: ${(err as Error).message}`;
        }
      } else if (
        payload.source === 'host' &&
        !same(asLogged(engine.view().uiSpec, payload.uiSpec ?? null), payload.uiSpec ?? null)
      ) {
        // A host's own state: after a reset (session start or end) the booking starts again.
        if (same(asLogged(fresh(), payload.uiSpec ?? null), payload.uiSpec ?? null)) engine.reset();
      }
      const rebuilt = asLogged(engine.view().uiSpec, payload.uiSpec ?? null);
      difference ??= firstDifference(payload.uiSpec ?? null, rebuilt, 'uiSpec');
      if (!seenState && difference && payload.source === 'host') {
        difference = `the page's first state was not where a booking starts (a page restored mid-booking?): ${difference}`;
      }
      seenState = true;
      uiSpec = payload.uiSpec ?? null;
      logged = uiSpec;
      messages = Array.isArray(payload.messageHistory) ? payload.messageHistory : messages;
      if (difference) differences.push({ eventIndex: record.eventIndex, message: difference });
    }
    frames.push({ record, uiSpec, messages, difference });
  });
  return {
    frames,
    differences,
    unreadable,
    final: { logged, rebuilt: engine.view().uiSpec, submitted: engine.submitted() },
  };
}

/** The rebuilt spec without `meta.revision` when the logged one has none (logs written before pages showed it). */
function asLogged(rebuilt: UiSpec | null, logged: UiSpec | null): UiSpec | null {
  if (!rebuilt?.meta || (logged?.meta && 'revision' in logged.meta)) return rebuilt;
  const { revision: _r, ...meta } = rebuilt.meta;
  return { ...rebuilt, meta };
}

function readRecord(line: string): ReplayRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON (a record cut short?)';
  }
  const r = value as Partial<ReplayRecord> | null;
  if (typeof r !== 'object' || r === null) return 'not a record';
  if (typeof r.type !== 'string' || typeof r.eventIndex !== 'number' || typeof r.timestamp !== 'string') {
    return 'a record without type, eventIndex or timestamp';
  }
  if (typeof r.payload !== 'object' || r.payload === null) return 'a record without a payload';
  return r as ReplayRecord;
}

function same(a: unknown, b: unknown): boolean {
  return firstDifference(a, b, '') === null;
}

/** The first path where two JSON values differ, said for a person; null when they are equal. */
export function firstDifference(logged: unknown, rebuilt: unknown, path: string, depth = 0): string | null {
  if (Object.is(logged, rebuilt)) return null;
  if (depth > MAX_DEPTH) return `${path}: nested too deeply to compare`;
  const show = (v: unknown) => {
    const text = JSON.stringify(v) ?? String(v);
    return text.length > 80 ? `${text.slice(0, 77)}…` : text;
  };
  if (typeof logged !== 'object' || typeof rebuilt !== 'object' || logged === null || rebuilt === null) {
    return `${path}: logged ${show(logged)}, rebuilt ${show(rebuilt)}`;
  }
  if (Array.isArray(logged) !== Array.isArray(rebuilt))
    return `${path}: logged ${show(logged)}, rebuilt ${show(rebuilt)}`;
  if (Array.isArray(logged) && Array.isArray(rebuilt)) {
    if (logged.length !== rebuilt.length) {
      return `${path}: logged ${logged.length} entries, rebuilt ${rebuilt.length}`;
    }
    for (let i = 0; i < logged.length; i++) {
      const d = firstDifference(logged[i], rebuilt[i], `${path}[${i}]`, depth + 1);
      if (d) return d;
    }
    return null;
  }
  const a = logged as Record<string, unknown>;
  const b = rebuilt as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const d = firstDifference(a[key], b[key], path ? `${path}.${key}` : key, depth + 1);
    if (d) return d;
  }
  return null;
}
