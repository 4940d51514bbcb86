import type { Format } from '@usher/booking';
import { hits, span } from './match.ts';
import { APPROX, polarity } from './text.ts';
import type { Rule } from './types.ts';
import { FORMAT_WORDS, lexicon } from './vocabulary.ts';

/* Rules about where and how it is shown, and what it costs: distance, format, cheapest (limits: price-rules.ts). */

const KM_PER_MILE = 1.609;
const UNIT = '(km|kms|kilomet(?:er|re)s?|k|mi|miles?)';
const UP_TO =
  '(?:within|under|below|less than|(?:no|not|nothing) (?:more|further|farther) than|at most|max(?:imum)?|up to|closer than|(?:not|nothing) over)';

const toKm = (value: number, unit: string) =>
  unit.toLowerCase().startsWith('mi') ? Math.round(value * KM_PER_MILE * 10) / 10 : value;

/**
 * "Within 5 km", "under 3 miles", "5 km max"; miles are converted. A refused "more than" says the
 * same: "I'd rather not drive more than 8 miles", "won't travel over 6 miles".
 */
export const distanceRule: Rule = (scan) => [
  ...hits(
    scan,
    String.raw`${UP_TO}\s+(?:${APPROX}\s*)?(\d+(?:\.\d+)?)\s*${UNIT}(?:\s+(?:away|from (?:me|home|here)))?|(?:${APPROX}\s*)?(\d+(?:\.\d+)?)\s*${UNIT}\s+(?:or less|or closer|max(?:imum)?|tops|at most|radius)`,
    (m) => {
      const km = toKm(Number(m[1] ?? m[3]), m[2] ?? m[4] ?? '');
      return km > 0 ? { ...span(m), drafts: [{ set: { kind: 'distance', maxKm: km } }] } : undefined;
    },
  ),
  // "less than a mile", "within half a mile": one unit, or half of one, in words.
  ...hits(
    scan,
    String.raw`${UP_TO}\s+(a|one|half a)\s+(mile|kilomet(?:er|re)|km)(?:\s+(?:away|from (?:me|home|here|my \w+)))?`,
    (m) => {
      const km = toKm(/^half/i.test(m[1] ?? '') ? 0.5 : 1, m[2] ?? '');
      return km > 0 ? { ...span(m), drafts: [{ set: { kind: 'distance', maxKm: km } }] } : undefined;
    },
  ),
  ...hits(
    scan,
    String.raw`(?:(can'?t|cannot|mustn'?t|must not|shouldn'?t|should not|won'?t|isn'?t|is not)\s+(?:be\s+)?(?:any\s+)?)?(?:more|further|farther|over|beyond)(?:\s+than)?\s+(?:${APPROX}\s*)?(\d+(?:\.\d+)?)\s*${UNIT}(?:\s+(?:away|from (?:me|home|here)))?`,
    (m) => {
      // "It can't be more than 10 miles away": the refusal is in the words read.
      if (!m[1] && polarity(scan.original, m.index ?? 0, 6) !== 'negative') return undefined;
      const km = toKm(Number(m[2]), m[3] ?? '');
      return km > 0 ? { ...span(m), drafts: [{ set: { kind: 'distance', maxKm: km } }] } : undefined;
    },
  ),
];

/** "Nearby", "close to me", "not too far", "closest": a soft preference for the closest theater. */
export const closestRule: Rule = (scan) =>
  hits(
    scan,
    'nearby|(?:the|whichever is(?: the)?)\\s+(?:nearer|closer)(?: one)?|near (?:me|here|home|us)|close (?:to (?:me|home|here|us|where (?:I|we) live)|by)|somewhere (?:close|near)(?!\\s+(?:to\\s+)?the\\s+(?:middle|centre|center|front|back|screen|aisle|end|side)\\b)|closest|nearest|not (?:too|very|that|so) far(?: away)?(?!\\s+(?:back|forward|up|down|from the)\\b)|walking distance|around here|local',
    (m) => ({ ...span(m), drafts: [{ set: { kind: 'closest' } }] }),
  );

const formats = lexicon(FORMAT_WORDS);
/* In a fallback a plain word names the standard format: "otherwise regular is fine". */
const fallbackFormats = lexicon<Format>([
  ...FORMAT_WORDS,
  { pattern: '(?:standard|regular|normal|plain)(?: 2d)?', value: 'Standard' },
]);
const FALLBACK_BEFORE = String.raw`(?:otherwise|or else|else|if not|failing that)\s+(?:an?\s+|the\s+)?`;
const FALLBACK_AFTER = String.raw`\s+(?:(?:is|'s|would be|will be|is also|would also be)\s+(?:fine|ok|okay|good|alright|all right)|(?:will|would) do|works)(?:\s+(?:too|as well))?`;

/**
 * "IMAX", "in 3D", "2D"/"regular screening" (Standard); "no IMAX", "not 3D", "non-3D" exclude. A
 * fallback ("otherwise regular is fine", "2D would do too") widens the formats wanted so far.
 */
export const formatRule: Rule = (scan) => [
  ...hits(
    scan,
    `${FALLBACK_BEFORE}(${fallbackFormats.source})(?:${FALLBACK_AFTER})?|(${fallbackFormats.source})${FALLBACK_AFTER}`,
    (m) => {
      const format = fallbackFormats.lookup(m[1] ?? m[2] ?? '');
      if (!format || polarity(scan.original, m.index ?? 0) !== 'positive') return undefined;
      return { ...span(m), drafts: [{ set: { kind: 'format', is: [format] }, mode: 'widen' }] };
    },
  ),
  ...hits(scan, formats.source, (m) => {
    const format = formats.lookup(m[0]);
    if (!format) return undefined;
    const p = polarity(scan.original, m.index ?? 0);
    if (p === 'skip') return { ...span(m), drafts: [] };
    return {
      ...span(m),
      drafts: [{ set: { kind: 'format', ...(p === 'negative' ? { not: [format] } : { is: [format] }) } }],
    };
  }),
];

/** "Cheapest", "as cheap as possible", "not too expensive": a soft preference for the lowest total. */
export const cheapestRule: Rule = (scan) =>
  hits(
    scan,
    String.raw`(?:the\s+)?cheapest|as cheap as possible|cheap(?:er)?|lowest price|least expensive|inexpensive|budget[- ]friendly|affordable|not (?:too|very|that|so) expensive|(?:nothing|not(?:\s+(?:too|very|that|so))?)\s+(?:pricey|dear|spendy|expensive)|(?:on|to)\s+a\s+(?:tight\s+)?budget|(?:we're|i'm|we are|i am)\s+(?:a bit\s+|pretty\s+|quite\s+)?(?:skint|broke|strapped)|save (?:some )?money|low[- ]cost`,
    (m) => ({ ...span(m), drafts: [{ set: { kind: 'cheapest' } }] }),
  );
