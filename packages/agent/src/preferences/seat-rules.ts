import { hits, span } from './match.ts';
import { COUNT, ORDINAL, parseCount, parseOrdinal } from './numbers.ts';
import { clauseAt, clauseStrength, polarity } from './text.ts';
import type { Draft, Rule } from './types.ts';

/*
 * Rules about seats: rows, seat kinds, sitting together, the middle. Rows are lettered from the
 * screen (A nearest), as in every scenario seat map; rooms differ in how many rows they have, so
 * "the back" can only be approximated (see BACK_NOT_FIRST).
 */

const letter = (n: number) => String.fromCharCode(64 + n);
/** Rows A..(letter n). */
const firstRows = (n: number) => Array.from({ length: n }, (_, i) => letter(i + 1));

/**
 * "At the back" as "not in the first four rows": the smallest room has eight rows, so this keeps
 * its back half and never empties a larger room. Soft, because it is an approximation.
 */
export const BACK_NOT_FIRST = 4;
/** "Not too close to the screen": not in the first three rows; soft, as it is vague. */
export const NEAR_SCREEN_ROWS = 3;

const ROW_LABEL = '([a-z]{1,2})';

/** Rows: "second row" (B), "row C", "rows C-F", "front row" (A), "not the first three rows", "at the back". */
export const rowsRule: Rule = (scan) => [
  // "no further forward than row D", "nothing in front of row D", "no closer than the fourth row":
  // that row or further back; "no further back than row F", "nothing behind row F": that row or closer.
  ...hits(
    scan,
    String.raw`(?:no|not|nothing|never|none)\s+(?:(?:any\s+)?(?:further|farther|more)\s+(forward|front|back)\s+than|(closer|nearer)(?:\s+to\s+the\s+(?:screen|front))?\s+than|(in front of|ahead of|forward of|before|behind|beyond|past|further back than|farther back than))\s+(?:(?:the\s+)?(${ORDINAL})\s+row|rows?\s+([a-z]|\d{1,2}))\b`,
    (m) => {
      const label = m[5] ?? '';
      const n = m[4] ? parseOrdinal(m[4]) : /^\d/.test(label) ? Number(label) : label.toUpperCase().charCodeAt(0) - 64;
      if (!n || n < 1 || n > 26) return undefined;
      const back = m[1] === 'back' || /^(?:behind|beyond|past|further back|farther back)/i.test(m[3] ?? '');
      return {
        ...span(m),
        drafts: [{ set: back ? { kind: 'rows', allowed: firstRows(n) } : { kind: 'rows', notFirst: n - 1 } }],
      };
    },
  ),
  // "the fifth row or further back", "row G or further back", "row 4 or further back", "row C or closer":
  // a bound, not one row.
  ...hits(
    scan,
    String.raw`(?:(?:the\s+)?(${ORDINAL})\s+row|rows?\s+([a-z]|\d{1,2}))\s+(?:or|and)\s+(?:(?:further|farther|more)\s+(back|forward)|(behind|beyond|back|further|farther)|(closer|nearer|in front))\b`,
    (m) => {
      // "row 4 or further back": numbered from the screen, as "row D".
      const label = m[2] ?? '';
      const n = m[1] ? parseOrdinal(m[1]) : /^\d/.test(label) ? Number(label) : label.toUpperCase().charCodeAt(0) - 64;
      if (!n || n < 1 || n > 26) return undefined;
      const forward = m[3] === 'forward' || m[5] !== undefined;
      return {
        ...span(m),
        drafts: [{ set: forward ? { kind: 'rows', allowed: firstRows(n) } : { kind: 'rows', notFirst: n - 1 } }],
      };
    },
  ),
  ...hits(scan, String.raw`(?:the\s+)?(?:first|front)\s+(${COUNT})\s+rows`, (m) => {
    const n = parseCount(m[1] ?? '');
    if (!n || n > 20) return undefined;
    const negative = polarity(scan.original, m.index ?? 0) === 'negative';
    return {
      ...span(m),
      drafts: [{ set: negative ? { kind: 'rows', notFirst: n } : { kind: 'rows', allowed: firstRows(n) } }],
    };
  }),
  ...hits(scan, String.raw`(?:the\s+)?(?:(very\s+)?front|${ORDINAL})\s+row`, (m) => {
    const n = /front/i.test(m[0]) ? 1 : parseOrdinal(/\S+(?=\s+row$)/i.exec(m[0])?.[0] ?? '');
    if (!n || n > 26) return undefined;
    if (polarity(scan.original, m.index ?? 0) !== 'negative') {
      return { ...span(m), drafts: [{ set: { kind: 'rows', allowed: [letter(n)] } }] };
    }
    // Only the first row can be refused with this model ("not the front row"); "not the fifth row" cannot.
    return { ...span(m), drafts: n === 1 ? [{ set: { kind: 'rows', notFirst: 1 } }] : [] };
  }),
  ...hits(
    scan,
    String.raw`rows?\s+${ROW_LABEL}(?:\s*(?:-|to|through)\s*${ROW_LABEL}|(?:\s*(?:,|or|and)\s*${ROW_LABEL})+)?|rows?\s+(\d{1,2})(?:\s*(?:-|to|through|or|and)\s*(\d{1,2}))?`,
    (m) => {
      const labels = rowLabels(m);
      return labels ? { ...span(m), drafts: [{ set: { kind: 'rows', allowed: labels } }] } : undefined;
    },
  ),
  // "The back row", "the last two rows": the room's last rows, whatever its size; "at the back" is
  // vague. "Not the back row" refuses the last one.
  ...hits(
    scan,
    String.raw`(?:(?:one\s+of\s+)?the\s+)?(?:very\s+)?(?:last|back)\s+(?:(${COUNT})\s+rows|rows?)|(?:at|in|towards?|near)\s+the\s+(?:very\s+)?back(?!\s+(?:\w+\s+)?rows?\b)`,
    (m) => {
      const negative = polarity(scan.original, m.index ?? 0) === 'negative';
      const n = m[1] ? parseCount(m[1]) : /rows?$/i.test(m[0]) && !/rows$/i.test(m[0]) ? 1 : undefined;
      if (m[1] && (!n || n > 20)) return undefined;
      const draft: Draft = negative
        ? /row/i.test(m[0])
          ? { set: { kind: 'rows', notLast: n ?? 1 } }
          : { set: { kind: 'rows', notLast: NEAR_SCREEN_ROWS }, vague: true }
        : n !== undefined
          ? { set: { kind: 'rows', last: n } }
          : { set: { kind: 'rows', notFirst: BACK_NOT_FIRST }, vague: true };
      return { ...span(m), drafts: [draft] };
    },
  ),
  // "Near the front", "close to the screen", "front rows only": the first rows (the smallest room's
  // front half); soft, as it is vague.
  ...hits(
    scan,
    String.raw`(?<!not (?:too |so |that )?)(?:near|towards?|at|in) the front(?!\s+(?:\w+\s+)?rows?)|(?<!not (?:too |so |that )?)close to the screen|up front|(?<!\b(?:first|last|\d|two|three|four|five|six)\s+)front rows(?!\s+(?:are|is)\b)`,
    (m) => {
      const p = polarity(scan.original, m.index ?? 0);
      if (p === 'positive')
        return { ...span(m), drafts: [{ set: { kind: 'rows', allowed: firstRows(BACK_NOT_FIRST) }, vague: true }] };
      // "Not the front rows": as "not too close to the screen".
      return p === 'negative' && /rows$/i.test(m[0])
        ? { ...span(m), drafts: [{ set: { kind: 'rows', notFirst: NEAR_SCREEN_ROWS }, vague: true }] }
        : undefined;
    },
  ),
  ...hits(
    scan,
    String.raw`not (?:too |so |that )?(?:close|near) to the (?:screen|front)|not (?:right )?(?:up )?the front(?!\s+(?:\w+\s+)?rows?)|not (?:too |so |that )?near the (?:screen|front)|away from the (?:screen|front)|not (?:sit |sitting |be )?(?:right )?(?:at|in) the front(?!\s+(?:\w+\s+)?rows?)|not too far (?:forward|up front)`,
    (m) => ({ ...span(m), drafts: [{ set: { kind: 'rows', notFirst: NEAR_SCREEN_ROWS }, vague: true }] }),
  ),
];

/** Row letters from "row C", "rows C-F", "rows C or D", "row 3", "rows 8 to 10"; undefined for words like "row or". */
function rowLabels(m: RegExpExecArray): string[] | undefined {
  if (m[4] !== undefined) {
    // "row 3", "rows 8 to 10", "rows 4 or 5": numbered from the screen.
    const from = Number(m[4]);
    const to = m[5] === undefined ? from : Number(m[5]);
    if (!(from >= 1 && to >= from && to <= 26)) return undefined;
    const joined = /\b(?:or|and)\b/i.test(m[0])
      ? [from, to]
      : Array.from({ length: to - from + 1 }, (_, i) => from + i);
    return joined.map(letter);
  }
  // A two-letter word must be a written label ("AA"): "a row or two" names no row.
  if ((m[1] ?? '').length === 2 && !/^[A-Z]{2}$/.test(m[1] ?? '')) return undefined;
  const tail = m[0].replace(/^rows?\s+/i, '');
  const labels = tail.split(/\s*(?:,|\bor\b|\band\b|-|\bto\b|\bthrough\b)\s*/i).filter(Boolean);
  // A single letter may be lower case ("row c"); two letters must be written as labels ("AA").
  if (labels.length === 0 || !labels.every((l) => l.length === 1 || /^[A-Z]{2}$/.test(l))) return undefined;
  const upper = labels.map((l) => l.toUpperCase());
  if (m[2] !== undefined && upper.length === 2 && upper[0]?.length === 1 && upper[1]?.length === 1) {
    const [from, to] = [upper[0].charCodeAt(0), upper[1].charCodeAt(0)];
    if (from > to) return undefined;
    return Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
  }
  return upper;
}

/* Whom a seat is for: "for myself", "for my carer". */
const FOR_SOMEONE = String.raw`\s+for\s+(?:me|myself|him|her|them|us|(?:my|our|his|her|their)\s+[a-z]+)`;
/*
 * A seat beside the space, for a companion: "plus the seat next to it", "for myself and a normal
 * seat next to it for my carer". The seat is an ordinary one: it says no seat kind.
 */
const COMPANION_SEAT = new RegExp(
  String.raw`^(?:${FOR_SOMEONE})?\s*,?\s*(?:plus|and|with)\s+(?:the|a|an|one)\s+(?:(?:normal|regular|standard|ordinary|extra|second|companion|carer'?s?|plain)\s+)?(?:seat|chair|place|spot)\s+(?:right\s+)?(?:next to|beside|by|alongside)\s+(?:it|that|them)\b(?:${FOR_SOMEONE}\b)?`,
  'i',
);

/** Seat kinds: "premium seats", "recliners" (the premium seats), "a wheelchair space", "standard seats"; "no premium" means standard seats. */
export const seatKindRule: Rule = (scan) => [
  ...hits(
    scan,
    String.raw`(?:(${COUNT})\s+)?(?:(?:premium|vip|luxury)(?:\s+recliners?)?(?:\s+(?:seats?|seating|tickets?))?|recliners?(?:\s+(?:seats?|seating|chairs?))?|reclining\s+(?:seats?|chairs?))`,
    (m) => {
      if (polarity(scan.original, m.index ?? 0) === 'negative') {
        return { ...span(m), drafts: [{ set: { kind: 'seatKind', seatKind: 'standard' } }] };
      }
      return { ...span(m), drafts: [{ set: { kind: 'seatKind', seatKind: 'premium' } }, ...seatCount(m[1], m[0])] };
    },
  ),
  ...hits(
    scan,
    String.raw`(?:(${COUNT})\s+)?(?:wheelchair|accessible|disabled)(?:[- ]accessible)?\s+(?:spaces?|spots?|seats?|places?|seating)|wheelchair(?:[- ](?:user|access(?:ible)?))?|(?:in|use|uses|using) a wheelchair`,
    (m) => {
      if (polarity(scan.original, m.index ?? 0) !== 'positive') return { ...span(m), drafts: [] };
      const count = parseCount(m[1] ?? '') ?? 1;
      const drafts: Draft[] = [{ set: { kind: 'seatKind', seatKind: 'wheelchair', count } }];
      // "a wheelchair space plus the seat next to it": one more seat, beside the space; its words are
      // this phrase's, so "a normal seat" is no seat kind.
      const { start, end } = span(m);
      const companion = COMPANION_SEAT.exec(scan.original.slice(end));
      if (!companion) return { start, end, drafts };
      drafts.push({ set: { kind: 'seatCount', count: count + 1 } }, { set: { kind: 'adjacent' } });
      return { start, end: end + companion[0].length, drafts };
    },
  ),
  ...hits(scan, String.raw`(?:(${COUNT})\s+)?(?:standard|regular|normal)\s+seats?`, (m) => ({
    ...span(m),
    drafts: [{ set: { kind: 'seatKind', seatKind: 'standard' } }, ...seatCount(m[1], m[0])],
  })),
];

/** "2 premium seats" also says how many seats. */
function seatCount(token: string | undefined, phrase: string): Draft[] {
  const n = parseCount(token ?? '');
  return n && /(?:seats?|recliners?|chairs?)$/i.test(phrase) && !/^an?$/i.test(token ?? '')
    ? [{ set: { kind: 'seatCount', count: n } }]
    : [];
}

/** Someone named just before: "beside him", "next to my mum". */
const SOMEONE = /^\s+(?:him|her|them|my\s+[a-z]+|our\s+[a-z]+|the\s+(?:kids?|children))\b/i;

/**
 * "Together", "next to each other", "side by side", "I'll sit beside him", "next to my mum"; "not
 * together" drops the wish. "Don't split us up" / "can't be separated" asks for it.
 */
export const adjacentRule: Rule = (scan) => [
  ...hits(
    scan,
    String.raw`(?:sit(?:ting)?\s+|seats?\s+)?(?:together|next to each other|side by side|beside each other|adjacent(?:\s+seats)?)|(?:sit|sitting|seated|be|stay|seats?)\s+(?:right\s+)?(?:beside|next to|alongside|with)(?!\s+(?:each other|one another))(?=\s)`,
    (m) => {
      // "beside him", "next to my mum": the person may have been read by the party rule already.
      let { start, end } = span(m);
      if (/(?:beside|next to|alongside|with)$/i.test(m[0])) {
        const someone = SOMEONE.exec(scan.original.slice(end));
        if (!someone) return undefined;
        // The person's words are this phrase's too, unless the party rule read them.
        if (scan.text.slice(end, end + someone[0].length) === someone[0]) end += someone[0].length;
      }
      const p = polarity(scan.original, start);
      if (p === 'skip') return { start, end, drafts: [] };
      return { start, end, drafts: [p === 'negative' ? { remove: 'adjacent' } : { set: { kind: 'adjacent' } }] };
    },
  ),
  // "my wife in the recliner beside me", "a seat next to him": the two side by side.
  // Read in the whole message (the seat kind rule took "recliner"); the span is "beside me".
  ...hits(
    { ...scan, text: scan.original },
    String.raw`(?<=\b(?:recliners?|seats?|chairs?|ones?)\s+(?:right\s+|directly\s+|just\s+)?)(?:beside|next to|alongside)\s+(?:me|him|her|us|mine|them)\b`,
    (m) =>
      polarity(scan.original, m.index ?? 0) === 'positive' && scan.text.slice(m.index ?? 0, span(m).end) === m[0]
        ? { ...span(m), drafts: [{ set: { kind: 'adjacent' } }] }
        : undefined,
  ),
  // "all 5 of us in a row", "all 7 in one row": seated side by side.
  ...hits(scan, String.raw`\bin\s+(?:a|one|a single|1)\s+(?:row|line)\b(?!\s*(?:[a-z]\b|\d))`, (m) => {
    const p = polarity(scan.original, m.index ?? 0);
    if (p === 'skip') return { ...span(m), drafts: [] };
    return { ...span(m), drafts: [p === 'negative' ? { remove: 'adjacent' } : { set: { kind: 'adjacent' } }] };
  }),
  // "a wheelchair space with her seat right beside it", "him in the seat next to it".
  ...hits(
    scan,
    String.raw`\bseat\s+(?:right\s+|directly\s+|just\s+)?(?:beside|next to|alongside|by)\s+(?:it|that|that one|mine|me|him|her|the space|the wheelchair space)\b`,
    (m) => {
      const p = polarity(scan.original, m.index ?? 0);
      if (p === 'skip') return { ...span(m), drafts: [] };
      return { ...span(m), drafts: [p === 'negative' ? { remove: 'adjacent' } : { set: { kind: 'adjacent' } }] };
    },
  ),
  ...hits(scan, String.raw`split(?:\s+(?:us|them))?\s+up|separated|spread out|apart`, (m) => {
    const [start] = clauseAt(scan.original, m.index ?? 0);
    const before = scan.original.slice(start, m.index ?? 0);
    return REFUSED.test(before) ? { ...span(m), drafts: [{ set: { kind: 'adjacent' } }] } : undefined;
  }),
];

/** "Don't split us up", "we can't be separated"; not "we don't mind sitting apart". */
const REFUSED =
  /\b(?:don'?t|do not|can'?t|cannot|mustn'?t|must not|shouldn'?t|won'?t|not|never|no)\s+(?!mind\b)(?:(?!mind\b)[a-z']+\s+){0,2}$/i;

/* The row named after "the middle of": "the row", "a row", "each row", or a row by its label ("row G"). */
const OF_ROW = String.raw`\s+of\s+(?:(?:the|a|an|our|my|each|every|its|their|that)\s+)?rows?\b`;
/* "The middle of the row": "right in the centre of the row", "dead centre of a row", "mid-row". */
const MIDDLE_OF = String.raw`(?:(?:right|dead|smack(?:\s+bang)?|slap(?:\s+bang)?|bang|exactly|plumb|square)\s+)?(?:in\s+)?(?:the\s+)?(?:very\s+)?(?:middle|cent(?:er|re))(?:\s+(?:section|part|bit|seats?))?\s+of(?=\s)`;
const MID_ROW = String.raw`mid[- ]?rows?(?:\s+seats?)?|middle[- ]of[- ]the[- ]row(?:\s+seats?)?`;
/*
 * The ends of a row, as a seat is at one: "either end", "the end of the row", "end seats", "the
 * aisle end", "on the end". "At the end" alone is not one ("at the end of the day"). A refusal
 * the words themselves carry ("nowhere near", "away from") is group 1.
 */
const ROW_END = String.raw`(?:((?:nowhere|not\s+anywhere)\s+near|(?:well\s+)?away\s+from|far\s+from|clear\s+of)\s+)?(?:(?:at|on|in|near|by|to)\s+)?(?:(?:either|both)\s+ends?(?:${OF_ROW})?|(?:the\s+|an?\s+|any\s+)?(?:very\s+|far\s+)?ends?${OF_ROW}(?:\s+seats?)?|(?:the\s+|an?\s+|any\s+)?(?:aisle\s+|row\s+)?end(?:[- ]of[- ]row)?(?:\s+|-)(?:seats?|spots?|places?|spaces?)|(?:the\s+|an?\s+)?(?:aisle|row)\s+ends?|(?:the|an)\s+ends?(?=\s*(?:[,.;!?]|$|\s+(?:please|pls|thanks|either|or|and|but|of\s+(?:the\s+)?(?:seats|row))\b)))`;
/*
 * A refusal just before an end or a side, across the words that put someone there: "I'd rather not
 * be on the end", "don't want to be stuck at the side", "please don't put us on the end".
 */
const REFUSED_PLACE =
  /\b(?:not|never|no|don'?t|do not|doesn'?t|does not|won'?t|can'?t|cannot|avoid(?:ing)?|hate)(?:\s+(?:want|wanna|to|be|being|sit|sitting|seated|put|stick|stuck|end up|me|us|him|her|them|one of|any of|anywhere|please|really|right|just|the))*\s*$/i;

/** Whether the end or side at `index` is refused. */
function refusedPlace(text: string, index: number): boolean {
  if (polarity(text, index) === 'negative') return true;
  const [start] = clauseAt(text, index);
  return REFUSED_PLACE.test(text.slice(start, index));
}

/* "Not stuck off at the side", "not on the side of the row". */
const ROW_SIDE = String.raw`(?:(?:stuck|right)\s+)?(?:(?:off|out)\s+)?(?:at|on|to)\s+(?:the|one)\s+sides?(?:\s+of\s+(?:the|a)\s+row)?`;

/**
 * "The middle of the row, not at either end": every seat in the middle half of its row
 * (`rowMiddle`). Said plainly it rules the ends out ("right in the centre of the row", "no end
 * seats", "not on the end of a row", "nowhere near either end", "in the middle of the row please,
 * not the aisle end"); hedged ("ideally in the middle of the row", "I'd rather not be on the end")
 * it stays the soft preference for central seats. The ends and sides count only when refused: "an
 * end seat is fine" and "I get a headache from off to the side" say nothing here.
 */
export const rowMiddleRule: Rule = (scan) => {
  const wish = (start: number): Draft =>
    clauseStrength(scan.original, start) === 'soft' ? { set: { kind: 'centered' } } : { set: { kind: 'rowMiddle' } };
  return [
    ...hits(scan, MIDDLE_OF, (m) => {
      const { start, end } = span(m);
      // The row must follow: "the middle of the row", "the centre of row G" (whose label the rows rule reads).
      const row = new RegExp(`^${OF_ROW.replace(String.raw`\s+of`, '')}`, 'i').exec(scan.original.slice(end));
      if (!row) return undefined;
      const labelled = /^\s+rows?\s+[a-z]{1,2}\b/i.test(scan.original.slice(end));
      const through = labelled ? end : end + row[0].length;
      const p = polarity(scan.original, start);
      return { start, end: through, drafts: p === 'positive' ? [wish(start)] : [] };
    }),
    ...hits(scan, MID_ROW, (m) => {
      const p = polarity(scan.original, m.index ?? 0);
      return { ...span(m), drafts: p === 'positive' ? [wish(m.index ?? 0)] : [] };
    }),
    ...hits(scan, ROW_END, (m) => {
      const refused = m[1] !== undefined || refusedPlace(scan.original, m.index ?? 0);
      return refused ? { ...span(m), drafts: [wish(m.index ?? 0)] } : undefined;
    }),
    ...hits(scan, ROW_SIDE, (m) =>
      refusedPlace(scan.original, m.index ?? 0) ? { ...span(m), drafts: [wish(m.index ?? 0)] } : undefined,
    ),
  ];
};

/** "In the middle", "centered", "central seats": a soft preference for seats near the room's centre. */
export const centeredRule: Rule = (scan) =>
  hits(
    scan,
    String.raw`cent(?:ered|red)|central(?:\s+seats?)?|cent(?:er|re)\s+seats?|(?:dead|bang|smack|slap)(?:\s+in\s+the)?\s+(?:middle|cent(?:er|re))|in the (?:middle|cent(?:er|re))(?: of the (?:row|room|theater|theatre|cinema))?|(?:the\s+)?(?:middle|cent(?:er|re)) of the (?:row|room|theater|theatre|cinema)|middle (?:seats?|rows?)`,
    (m) => ({ ...span(m), drafts: [{ set: { kind: 'centered' } }] }),
  );
