/*
 * Small counts as people write them: digits, "one" … "twelve", and "a"/"an"/"single" for one.
 * Larger spelled numbers are not needed: a booking holds at most ten seats.
 */

const WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  single: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/** A regular-expression source matching one count: digits or a number word. */
export const COUNT = String.raw`(?:\d{1,2}|a|an|single|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;

/** A count without the articles, for places where "a" would read too much ("for a …"). */
export const SPELLED_OR_DIGITS = String.raw`(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

/** A regular-expression source matching an ordinal: "second", "2nd", "23rd". */
export const ORDINAL = String.raw`(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,2}(?:st|nd|rd|th))`;

/** The value of a count token, or undefined when it is not one. */
export function parseCount(token: string): number | undefined {
  const t = token.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  return WORDS[t];
}

/** The value of an ordinal token ("third" → 3, "3rd" → 3), or undefined. */
export function parseOrdinal(token: string): number | undefined {
  const t = token.trim().toLowerCase();
  const digits = /^(\d+)(?:st|nd|rd|th)$/.exec(t);
  if (digits) return Number(digits[1]);
  return ORDINALS[t];
}
