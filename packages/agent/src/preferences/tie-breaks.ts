/*
 * Preferences said only to break a tie: "the latest showing … if a few cinemas tie, the nearest
 * one", "the best rated, and if there's a tie the cheaper one". The model lists its soft wishes by
 * kind, not in the order said, so which wish comes first is read here, from the words.
 */

/**
 * A clause that says what decides between equals: a tie ("if two are the same price"), or a choice
 * among equals ("if it's on in more than one place, the closest", "if there's a choice, the cheaper").
 */
const TIE_CLAUSE =
  /\b(?:if|when|where)\b[^.!?;]*?\b(?:ties?|tied|tying|draws?|equal|the same|more than one|several|multiple|a choice|(?:many|a few|lots of|different|other) (?:places|cinemas|theaters|theatres|showings|options))\b[^.!?;]*|\b(?:to break (?:a|the) tie|as a tie-?break(?:er)?)\b[^.!?;]*/gi;

const WORDS: ReadonlyArray<readonly [RegExp, 'closest' | 'cheapest' | 'earliest' | 'latest' | 'highestRated']> = [
  [/\b(?:nearest|closest|nearer|closer)\b/i, 'closest'],
  [/\b(?:cheapest|cheaper|least expensive)\b/i, 'cheapest'],
  [/\b(?:earliest|earlier|soonest|sooner)\b/i, 'earliest'],
  [/\b(?:latest|later)\b/i, 'latest'],
  [/\b(?:best|better|highest|higher)[- ]?(?:rated|reviewed)?\b/i, 'highestRated'],
];

/**
 * The preferences a message names only inside a tie-break clause ("if it plays in many cinemas,
 * the nearest one please", "if a few come out at the same price, the soonest").
 */
export function tieBreaksSaid(text: string): Array<(typeof WORDS)[number][1]> {
  const found = new Set<(typeof WORDS)[number][1]>();
  for (const m of text.matchAll(TIE_CLAUSE)) {
    for (const [word, kind] of WORDS) if (word.test(m[0])) found.add(kind);
  }
  return [...found];
}
