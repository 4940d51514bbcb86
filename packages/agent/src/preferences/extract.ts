import { calendarRule } from './calendar.ts';
import { dateRule } from './dates.ts';
import { dismissRule } from './dismiss.ts';
import { PREFERENCE_KINDS } from './kinds.ts';
import { ageRatingRule, genreRule, ratingRule, runtimeRule, SUITABLE_FOR_SOMEONE, titleRule } from './movie-rules.ts';
import { partyRule } from './party.ts';
import { priceRule } from './price-rules.ts';
import { adjacentRule, centeredRule, rowMiddleRule, rowsRule, seatKindRule } from './seat-rules.ts';
import { correct } from './spelling.ts';
import { ALSO_SAID, blank, CHANGE_OF_MIND, clauseAt, clauseStrength, normalize } from './text.ts';
import { theaterRule } from './theater-rules.ts';
import {
  clock,
  earliestLatestRule,
  endTimeRule,
  laterEarlierRule,
  minutesOf,
  otherClockRule,
  periodRule,
  startTimeRule,
} from './times.ts';
import type { Draft, Fix, Hit, Op, PreferenceContext, Rule } from './types.ts';
import { cheapestRule, closestRule, distanceRule, formatRule } from './venue-rules.ts';

/**
 * Every rule, in the order they read the message. A rule's phrases are blanked before the next
 * rule runs, so the order settles overlaps: withdrawals before wishes ("forget the IMAX"), titles
 * before words inside them ("Midnight Static"), theaters before formats ("Riverside IMAX"), amounts with units before bare clock numbers
 * ("within 5 km", "under $40", "rated at least 7"), seats before counts ("2 premium seats"),
 * rows before dates ("the 2nd row"), end times before start times ("done by 10").
 */
export const RULES: ReadonlyArray<readonly [string, Rule]> = [
  ['dismiss', dismissRule],
  ['title', titleRule],
  ['theater', theaterRule],
  ['runtime', runtimeRule],
  ['rating', ratingRule],
  ['ageRating', ageRatingRule],
  ['distance', distanceRule],
  ['closest', closestRule],
  ['price', priceRule],
  ['cheapest', cheapestRule],
  ['seatKind', seatKindRule],
  ['rowMiddle', rowMiddleRule],
  ['rows', rowsRule],
  ['party', partyRule],
  ['otherClock', otherClockRule],
  ['endTime', endTimeRule],
  ['date', dateRule],
  ['calendar', calendarRule],
  ['period', periodRule],
  ['startTime', startTimeRule],
  ['earliestLatest', earliestLatestRule],
  ['laterEarlier', laterEarlierRule],
  ['format', formatRule],
  ['genre', genreRule],
  ['adjacent', adjacentRule],
  ['centered', centeredRule],
];

/** The operations one message asks for, in the order the rules found them. */
export function extract(text: string, context: PreferenceContext): Op[] {
  return readMessage(text, context).ops;
}

/** A message read: its operations, the words changed before reading, and the text no rule used. */
export interface Reading {
  ops: Op[];
  fixes: Fix[];
  /** The corrected, normalized message. */
  text: string;
  /** `text` with every phrase a rule used blanked. */
  rest: string;
}

export function readMessage(text: string, context: PreferenceContext): Reading {
  const corrected = correct(text, context);
  const original = normalize(corrected.text);
  let working = original;
  const ops: Op[] = [];
  for (const [, rule] of RULES) {
    for (const hit of nonOverlapping(rule({ text: working, original, context }))) {
      working = blank(working, hit.start, hit.end);
      for (const draft of hit.drafts) ops.push(toOp(draft, hit.start, original));
    }
  }
  return {
    ops: firmSuitability(insteadWithinMessage(alsoWithinMessage(consistentClocks(ops)), original), original),
    fixes: corrected.fixes,
    text: original,
    rest: working,
  };
}

/*
 * "The quiet harbor or winter kings, either's fine": said as also acceptable beside another of its
 * kind in the same message, a film is one of a list, not a fallback to an earlier wish.
 */
function alsoWithinMessage(ops: Op[]): Op[] {
  return ops.map((op) =>
    op.type === 'set' &&
    op.mode === 'widen' &&
    WIDENED_KINDS.includes(op.constraint.kind) &&
    ops.some((o) => o !== op && o.type === 'set' && o.constraint.kind === op.constraint.kind)
      ? { ...op, mode: 'replace' }
      : op,
  );
}

/** Kinds whose wishes are alternatives: a second one said to replace is either-or, or a correction. */
const ALTERNATIVE_KINDS: ReadonlyArray<string> = ['date', 'title', 'theater', 'genre', 'format'];
/** Words that take back what was just said in the same breath: "no wait", "sorry", "I mean". */
const SELF_CORRECTION =
  /(?:^|[\s,.;!?(-])(?:no,?\s+wait|wait,?\s+no|no,?\s+sorry|sorry,?\s+no|sorry|i mean|i meant|or rather|make (?:that|it)|scratch that|correction|hmm,?\s+no|no,?\s+actually|actually,?\s+no)(?=[\s,.;!?:-]|$)/i;

/*
 * "Her rehearsal has moved to Sunday. Could we do the same but on the Saturday instead?": of two
 * days (films, genres, theaters, formats) said in one message to replace the one held, the one said
 * with a change of mind is the wish, and the other is the reason for it; "fri, no wait, thurs": the
 * one said after a correction.
 */
function insteadWithinMessage(ops: Op[], original: string): Op[] {
  const changed = (op: Op) => {
    const [start, end] = clauseAt(original, op.at);
    return CHANGE_OF_MIND.test(original.slice(start, end));
  };
  // "2 tix fri, no wait, thurs", "lakeside. hmm, no, northgate": said again after a correction.
  const corrected = (earlier: Op, later: Op) =>
    later.at > earlier.at && SELF_CORRECTION.test(original.slice(earlier.at, later.at));
  // Wishes only: a refusal in the same message ("she can't stand thrillers. a comedy instead") stays.
  const replacing = (op: Op): op is Extract<Op, { type: 'set' }> =>
    op.type === 'set' &&
    op.mode === 'replace' &&
    ALTERNATIVE_KINDS.includes(op.constraint.kind) &&
    !('not' in op.constraint && op.constraint.not?.length) &&
    !('exclude' in op.constraint && op.constraint.exclude?.length);
  return ops.filter((op) => {
    if (!replacing(op)) return true;
    const same = ops.filter((o) => o !== op && replacing(o) && o.constraint.kind === op.constraint.kind);
    if (same.some((o) => corrected(op, o))) return false;
    return changed(op) || !same.some(changed);
  });
}

/*
 * "Start after 9 and finish by 1": a bare hour read as the evening ("after 9" is 21:00) that would
 * start after the end said in the same message is the morning's.
 */
function consistentClocks(ops: Op[]): Op[] {
  const ends = ops.flatMap((op) =>
    op.type === 'set' && op.constraint.kind === 'endTime' && op.constraint.before
      ? [minutesOf(op.constraint.before)]
      : [],
  );
  if (ends.length === 0) return ops;
  const end = Math.min(...ends);
  return ops.map((op) => {
    if (op.type !== 'set' || op.constraint.kind !== 'startTime' || !op.constraint.after) return op;
    const after = minutesOf(op.constraint.after);
    if (after < end || after < 13 * 60 || after - 12 * 60 >= end) return op;
    return { ...op, constraint: { ...op.constraint, after: clock(after - 12 * 60) } };
  });
}

/** "Which films would be suitable for him": the age rating the party implies is asked for. */
function firmSuitability(ops: Op[], original: string): Op[] {
  if (!SUITABLE_FOR_SOMEONE.test(original)) return ops;
  return ops.map((op) =>
    op.type === 'set' && op.implied && op.constraint.kind === 'ageRating' ? { ...op, firm: true } : op,
  );
}

/** The earliest, then longest, hits that do not overlap one another. */
function nonOverlapping(found: Hit[]): Hit[] {
  const sorted = [...found].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Hit[] = [];
  for (const hit of sorted) {
    if (hit.end > hit.start && !kept.some((k) => k.start < hit.end && hit.start < k.end)) kept.push(hit);
  }
  return kept;
}

/*
 * "A drama would be ok too", "or riverside, either is fine", "or the Old Mill as well": a film,
 * genre or theater said as also acceptable widens those wanted so far (which stay preferred), as a
 * fallback day or format does; "too" as a degree ("too scary") is not "also".
 */
const ALSO = new RegExp(
  String.raw`^\s*or\b|\beither (?:is|would be|will be|one is) (?:fine|ok|okay|good)\b|${ALSO_SAID.source}`,
  'i',
);
const WIDENED_KINDS: ReadonlyArray<string> = ['genre', 'title', 'theater'];

function alsoAcceptable(set: Extract<Draft, { set: unknown }>['set'], at: number, original: string): boolean {
  if (!WIDENED_KINDS.includes(set.kind)) return false;
  if (set.kind === 'genre' ? !set.include : set.kind === 'title' || set.kind === 'theater' ? !set.is : true)
    return false;
  const [start, end] = clauseAt(original, at);
  const clause = original.slice(start, end);
  const next = original.slice(end, clauseAt(original, Math.min(original.length, end + 1))[1]);
  return !CHANGE_OF_MIND.test(clause) && (ALSO.test(clause) || /^\W*either\b/i.test(next));
}

function toOp(draft: Draft, at: number, original: string): Op {
  if ('remove' in draft) return { type: 'remove', kind: draft.remove, value: draft.value, at, rank: draft.rank ?? 1 };
  const kind = draft.set.kind;
  // Preferences are soft by definition; otherwise the clause decides, and plain statements are hard.
  const strength = PREFERENCE_KINDS.includes(kind)
    ? 'soft'
    : (clauseStrength(original, at) ?? (draft.vague ? 'soft' : 'hard'));
  return {
    type: 'set',
    constraint: draft.set,
    strength,
    mode: draft.mode ?? (alsoAcceptable(draft.set, at, original) ? 'widen' : 'replace'),
    perTicket: draft.perTicket ?? false,
    ...(draft.implied ? { implied: true } : {}),
    at,
    rank: draft.rank ?? 1,
  };
}
