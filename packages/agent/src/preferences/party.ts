import type { TicketTypeId } from '@usher/booking';
import { hits, span } from './match.ts';
import { COUNT, parseCount, SPELLED_OR_DIGITS } from './numbers.ts';
import { clauseAt } from './text.ts';
import type { Draft, Hit, Rule, Scan } from './types.ts';

/*
 * Who is coming: seat count and ticket mix. A message may name the party in several pieces
 * ("me and my wife and our two kids"), so this rule reads them all and decides once:
 * - typed counts ("two adults", "a child", "a senior") give a ticket mix;
 * - a stated total ("4 tickets", "for three people", "the two of us") gives the seat count, and
 *   people in it without a type are adults;
 * - companions ("me and my wife", "me and two friends", "with my dad") are counted with the
 *   speaker, as adults when a mix is given, but only when the message says the speaker comes
 *   along: "my husband uses a wheelchair" alone does not say who is coming.
 * Only the mix is emitted when there is one; the merge sets the seat count to its total.
 */

const TYPES: Array<[RegExp, TicketTypeId]> = [
  [/^(?:adults?|grown[- ]?ups?)$/i, 'adult'],
  [/^(?:kids?|child|children)$/i, 'child'],
  [/^(?:seniors?|pensioners?|oaps?)$/i, 'senior'],
];
const TYPE_WORD = '(adults?|grown[- ]?ups?|kids?|child|children|seniors?|pensioners?|oaps?)';

const COMPANION =
  'wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|friend|buddy|mate|mom|mum|mother|dad|father|sister|brother|colleague|date|son|daughter|nephew|niece|grandma|grandpa|grandmother|grandfather|cousin|aunt|uncle|roommate|flatmate';
const PLURAL_COMPANIONS = 'friends|colleagues|mates|buddies|cousins|kids|children|parents|sons|daughters';

/** Phrases that name the party, each with what it contributes. */
type Piece =
  | { type: 'typed'; ticket: TicketTypeId; n: number }
  | { type: 'total'; n: number }
  | { type: 'more'; n: number }
  | { type: 'companions'; n: number }
  | { type: 'self' }
  | { type: 'unknown' };

const PATTERNS: Array<[string, (m: RegExpExecArray) => Piece | undefined]> = [
  [
    `(${COUNT}|another)\\s+${TYPE_WORD}(?:'s)?(?:\\s+tickets?)?`,
    (m) => {
      const n = /^another$/i.test(m[1] ?? '') ? 1 : parseCount(m[1] ?? '');
      const ticket = TYPES.find(([re]) => re.test(m[2] ?? ''))?.[1];
      return n && ticket ? { type: 'typed', ticket, n } : undefined;
    },
  ],
  [
    // Not "a seat": "a wheelchair space and a seat next to it" does not say the party is one.
    `(${SPELLED_OR_DIGITS}|a couple of|a pair of)\\s+(?:(more|extra|additional|other)\\s+)?(?:tickets?|seats?|people|persons|guests|spots|places)`,
    (m) => {
      const n = /couple|pair/i.test(m[1] ?? '') ? 2 : parseCount(m[1] ?? '');
      if (!n) return undefined;
      return m[2] ? { type: 'more', n } : { type: 'total', n };
    },
  ],
  [String.raw`another (?:ticket|seat|person)|plus one|\+1`, () => ({ type: 'more', n: 1 })],
  [
    `(?:tickets?|seats?|table|room)\\s+for\\s+(${SPELLED_OR_DIGITS})(?!\\s*(?:am|pm|:|o'?clock|h\\b))(?:\\s+(?:people|persons|of us))?`,
    total(1),
  ],
  [
    `for\\s+(one|two|three|four|five|six|seven|eight|nine|ten|\\d{1,2}\\s+(?:people|persons|of us|guests))(?:\\s+(?:people|persons|of us))?(?!\\s*(?:am|pm|:|o'?clock))`,
    total(1),
  ],
  [`(?:party|group) of\\s+(${SPELLED_OR_DIGITS})`, total(1)],
  [
    `(?:we(?:'re| are| will be|'ll be)|there (?:are|will be|'ll be|'re))\\s+(${SPELLED_OR_DIGITS})(?:\\s+of us)?`,
    total(1),
  ],
  [`(?:the\\s+)?(${SPELLED_OR_DIGITS})\\s+of us`, total(1)],
  ['both of us|us two|us both', () => ({ type: 'total', n: 2 })],
  [
    'just (?:me|myself|for me|one)|only me|(?:by|for) myself|on my own|alone|solo|a single ticket',
    () => ({ type: 'total', n: 1 }),
  ],
  [
    `(${SPELLED_OR_DIGITS})\\s+(?:of my\\s+)?(?:${PLURAL_COMPANIONS})`,
    (m) => {
      const n = parseCount(m[1] ?? '');
      return n ? { type: 'companions', n } : undefined;
    },
  ],
  [`(?:my|our)\\s+(?:${PLURAL_COMPANIONS})`, () => ({ type: 'unknown' })],
  [`my\\s+(?:${COMPANION})`, () => ({ type: 'companions', n: 1 })],
  [
    String.raw`me\s+(?:and|&|\+|with|plus)|(?:and|&)\s+(?:me|i|myself)|(?:with|taking|bringing)(?=\s+(?:my|our)\b)`,
    () => ({ type: 'self' }),
  ],
];

function total(group: number) {
  return (m: RegExpExecArray): Piece | undefined => {
    const n = parseCount((m[group] ?? '').split(/\s+/)[0] ?? '');
    return n ? { type: 'total', n } : undefined;
  };
}

/* "Plus a child", "another adult": add to the party already known. */
const ADDING = /\b(?:plus|another|additional|extra|one more|as well)\b/i;

/** Seat count and ticket mix from every piece of the party the message names. */
export const partyRule: Rule = (scan) => {
  const found: Array<{ hit: Hit; piece: Piece }> = [];
  for (const [source, read] of PATTERNS) {
    hits(scan, source, (m) => {
      const hit: Hit = { ...span(m), drafts: [] };
      const piece = read(m);
      // Earlier patterns are more specific: "two adults" is not also "two … people".
      if (piece && !found.some((f) => f.hit.start < hit.end && hit.start < f.hit.end)) found.push({ hit, piece });
      return undefined;
    });
  }
  if (found.length === 0) return [];
  found.sort((a, b) => a.hit.start - b.hit.start);
  const first = found[0]?.hit as Hit;
  return [
    {
      ...first,
      drafts: decide(
        found.map((f) => f.piece),
        scan,
        first.start,
      ),
    },
    ...found.slice(1).map((f) => f.hit),
  ];
};

function decide(pieces: Piece[], scan: Scan, at: number): Draft[] {
  if (pieces.some((p) => p.type === 'unknown') && !pieces.some((p) => p.type === 'total' || p.type === 'typed'))
    return [];
  const typed: Partial<Record<TicketTypeId, number>> = {};
  let total: number | undefined;
  let more = 0;
  let companions = 0;
  let self = false;
  for (const p of pieces) {
    if (p.type === 'typed') typed[p.ticket] = (typed[p.ticket] ?? 0) + p.n;
    else if (p.type === 'total') total = p.n;
    else if (p.type === 'more') more += p.n;
    else if (p.type === 'companions') companions += p.n;
    else if (p.type === 'self') self = true;
  }
  const typedSum = (typed.adult ?? 0) + (typed.child ?? 0) + (typed.senior ?? 0);
  const listed = self ? 1 + companions : 0;
  const [start, end] = clauseAt(scan.original, at);
  const adding = ADDING.test(scan.original.slice(start, end));
  if (typedSum > 0) {
    const untyped = total !== undefined ? Math.max(0, total - typedSum) : listed;
    const mix = { ...typed, adult: (typed.adult ?? 0) + untyped };
    // Zero counts are left out: the model reads an unnamed ticket type as zero.
    const set = {
      kind: 'ticketMix' as const,
      ...(mix.adult > 0 ? { adult: mix.adult } : {}),
      ...(mix.child ? { child: mix.child } : {}),
      ...(mix.senior ? { senior: mix.senior } : {}),
    };
    return [{ set, mode: adding ? 'add' : 'replace' }];
  }
  if (total !== undefined || listed > 0) return [{ set: { kind: 'seatCount', count: (total ?? listed) + more } }];
  if (more > 0) return [{ set: { kind: 'seatCount', count: more }, mode: 'add' }];
  return [];
}
