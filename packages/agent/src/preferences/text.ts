import type { Strength } from './types.ts';

/*
 * Message-level reading helpers shared by every rule: normalization, clauses, and the two
 * questions a rule asks about a phrase's surroundings (is it negated? is it hedged?).
 * Every transformation keeps string length, so an index means the same place everywhere.
 */

/** Straightens quotes and dashes and shortens "p.m." so that periods only end sentences. */
export function normalize(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u00a0/g, ' ')
    .replace(/\b([ap])\.m\./gi, (_m, letter: string) => `${letter}m  `)
    .replace(HEIGHT, (m) => ' '.repeat(m.length));
}

/** A person's height ("I'm 6'5\"", "5 ft 2", "six foot four"): no age, count or time. */
const HEIGHT =
  /\b\d\s*'\s*\d{1,2}\s*(?:"|'')?|\b(?:\d|four|five|six|seven)\s*(?:ft|foot|feet)(?:\s*(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven)\b(?:\s*(?:in|inches)\b)?)?/gi;

/* Commas split clauses too: "IMAX if possible, tomorrow" hedges only the IMAX. */
/* "Anything but X" is one clause: there "but" means "except". */
/* "And" or "or" before a hedge starts a new wish: "no 3D and preferably not too late" hedges only the time. */
const BOUNDARY =
  /[;:!?\n,]|\.(?!\d)|(?<!\b(?:anything|anywhere|anyone|everything|everywhere|all|nothing|nowhere|(?:any|every)\s+[a-z]+)\s+)\bbut\b|\b(?:though|although|however|whereas)\b|\b(?:and|or)\b(?=\s+(?:ideally|preferably|if possible|maybe|perhaps|possibly|hopefully)\b)/gi;

/** The clause (between punctuation or "but") around `index`, as [start, end). */
export function clauseAt(text: string, index: number): [number, number] {
  let start = 0;
  let end = text.length;
  for (const m of text.matchAll(BOUNDARY)) {
    const at = m.index ?? 0;
    // A colon inside a clock time ("19:30") is not a boundary.
    if (m[0] === ':' && /\d$/.test(text.slice(0, at)) && /^\d/.test(text.slice(at + 1))) continue;
    if (at + m[0].length <= index) start = at + m[0].length;
    else if (at >= index) {
      end = at;
      break;
    }
  }
  return [start, end];
}

/* "not a must" and "doesn't have to" contain hard words but soften. "I'd rather not" is a polite refusal, not a hedge. */
const SOFTENED =
  /\b(?:not (?:a )?must|not (?:strictly )?(?:essential|required|necessary)|doesn'?t have to|does not have to|don'?t have to|needn'?t)\b/i;
const HARD =
  /\b(?:must|need|needs|have to|has to|got to|definitely|only|required|absolutely|essential|non-negotiable)\b/i;
const HEDGE =
  /\b(?:ideally|preferably|prefer|preferred|(?:i|we)'?d rather(?! not)|would rather(?! not)|if possible|if (?:that'?s|that is|it'?s|it is) possible|if (?:it'?s|it is|that'?s|that is) not too (?:pricey|expensive|dear|much)|if you can|if we can|if available|if there'?s one|if there is one|if they (?:have|'ve got|got) (?:it|one|any|them)|if poss(?:ible)?|where possible|would be (?:nice|nicer|great|good|ideal|lovely|best|better|preferable|perfect)|(?:it|that)'?d be (?:nice|nicer|great|good|ideal|lovely|best|better|preferable|perfect)|nice to have|(?:would|i'?d) love(?!\s+to\s+(?:see|watch|go|book|take|get|catch|bring)\b)|maybe|perhaps|possibly|hopefully|hoping|(?:i|we) hope|bonus|optional)\b/i;

/**
 * How firmly the clause around `index` states its wish: `hard` for an explicit requirement
 * ("must", "need", "only"), `soft` for a hedge ("ideally", "if possible", "I'd prefer"), and
 * undefined for a plain statement, which the caller treats as hard unless the wish is vague.
 */
export function clauseStrength(text: string, index: number): Strength | undefined {
  const [start, end] = clauseAt(text, index);
  const clause = text.slice(start, end);
  if (SOFTENED.test(clause)) return 'soft';
  if (HARD.test(clause)) return 'hard';
  // "Scratch that, we'd rather see X" is a change of mind, not a hedge.
  if (CHANGE_OF_MIND.test(text) && !HEDGE.test(clause.replace(RATHER, ''))) return undefined;
  if (HEDGE.test(clause)) return 'soft';
  // An example says what the clause before it meant, as firmly: "preferably not too late, like before 9".
  const before = EXAMPLE.test(clause) ? previousClauseEnd(text, start) : undefined;
  return before === undefined ? undefined : clauseStrength(text, before);
}

/* A clause that gives an example of the wish before it: "like starting before 9", "say by 10". */
const EXAMPLE = /^\s*(?:(?:something|anything)\s+)?(?:like|say|meaning|as in)\b/i;

/** The example of the wish ending at `end` that follows it ("not too late, like starting before 9"), if any. */
export function exampleAfter(text: string, end: number): string | undefined {
  const from = end + (/^\s*,?\s*/.exec(text.slice(end))?.[0].length ?? 0);
  const clause = text.slice(from, clauseAt(text, from)[1]);
  return EXAMPLE.test(clause) ? clause : undefined;
}

/** An index inside the clause just before the one starting at `start`, or undefined at the first. */
function previousClauseEnd(text: string, start: number): number | undefined {
  for (const m of text.matchAll(BOUNDARY)) {
    const at = m.index ?? 0;
    if (at + m[0].length === start) return at > 0 ? at - 1 : undefined;
  }
  return undefined;
}

/**
 * "Sunday works too", "also Monday", "a drama as well": also acceptable. A "too" before the word it
 * qualifies ("too busy", "too late") is a degree, not "also".
 */
export const ALSO_SAID =
  /\b(?:also|as well)\b|\btoo\b(?!\s+(?!(?:please|pls|plz|thanks|thx|if|then|for|and|or|but|i|we)\b)[a-z])/i;

/** A word that makes an amount approximate ("about 4 km", "around 2 hours", "roughly $30"); the amount is read as said. */
export const APPROX = String.raw`(?:about|around|roughly|approx(?:imately|\.)?|circa|some|~)`;

/** Words that take back what was said before: after them, "rather" states the new wish. */
export const CHANGE_OF_MIND =
  /\b(?:scratch that|forget (?:that|it)|on second thought|changed? (?:my|our) minds?|instead|switch(?: it)? to|let'?s do|actually)\b/i;
const RATHER = /\b(?:(?:i|we)'?d rather|would rather)\b/gi;

const NEGATION =
  /\b(?:not (?:in the mood|up|feeling it|keen) for|in no mood for|sick of|tired of|fed up (?:with|of)|had enough of|bored of|(?:none of (?:us|them)|nobody|no one|noone)\s+(?:wants?|likes?|fancies|can (?:do|stand|sit))(?:\s+to\s+(?:be|sit|see|go)(?:\s+(?:in|at|on|near))?)?|no|not|nothing|never(?!\s+(?:seen|been|tried|watched|had|done|experienced|sat|used))|none|neither|nor|without|avoid|except|excluding|exclude|already (?:saw|seen|watched|been to)|(?:'ve|have|has) (?:already )?(?:seen|watched)|hate|hated|dislike|disliked|didn'?t (?:like|enjoy)|did not (?:like|enjoy)|(?:don'?t|do not|doesn'?t|won'?t|not) (?:want to |wanna )?(?:pay|paying) (?:extra )?for|don'?t want|do not want|don'?t (?:put|seat|stick) (?:me|us|him|her|them) (?:in|on|at|near|by)(?: (?:one|any|some) of)?(?: (?:those|these|the))?|don'?t (?:put|seat|give|stick|book|do)|do not (?:put|seat|give|book|do)|doesn'?t want|does not want|didn'?t want|don'?t like|do not like|doesn'?t like|can'?t stand|can'?t do|can'?t (?:cope|deal) with|can'?t handle|cannot (?:cope|deal) with|struggles? with|(?:i'?m|i am|we'?re|we are|they'?re|they are|he'?s|he is|she'?s|she is|(?:my|our|his|her|the)\s+[a-z]+(?:\s+(?:is|are)|'s))\s+(?:working|busy|away|at work|at school|tied up|unavailable|not (?:free|around|available)|at (?:their|his|her|my|our) [a-z]+'s)(?:\s+on)?|i work|cannot do|can'?t make|cannot make|won'?t|will not|wouldn'?t|rather not|not keen on|anything but|anywhere but|(?:any|every)\s+[a-z]+\s+but|anywhere other than|skip|steer clear of|stay away from|give (?:\w+ ){1,3}a miss|non|isn'?t|aren'?t|wasn'?t)\b/gi;
/* Words that turn a clause positive again after a negation: "nothing but …" is not here on purpose;
 * "so" after the thing refused ("can't do stairs so front rows only"), not "not so close". */
const PIVOT =
  /\b(?:something|someone|instead|prefer|want|like|love|please|is|are|be)\b|\S\s+so\b(?!\s+(?:close|near|far|much|many|early|late|keen|long|loud|scary|violent|high|low))/i;
const SKIP = /\b(?:instead of|rather than|in place of)\s+(?:the\s+|an?\s+)?$/i;
/* A refusal said after the thing: "the front row is a no-go", "3D is out", "IMAX is not an option", "3D gives me a migraine". */
const REFUSED_AFTER =
  /^(?:\s*[\w-]+){1,4}?(?:\s+(?:is|are|'s|'re)|'s|'re)\s+(?:a\s+)?(?:no-?go|no good|(?:not|no longer) (?:ok|okay|good|great|possible|an option|happening|ideal|doable)|out of the question|out(?!\s+(?:by|before|at|of|in|late|early|for))|a no|off the table|(?:(?:a bit|really|pretty|kinda|kind of|too)\s+)?(?:bad|awkward|tricky|impossible)|(?:a\s+)?problem)\b|^(?:\s*[\w-]+){1,4}?(?:'s|\s+(?:is|are))?\s+(?:doesn'?t|does not|won'?t|will not|isn'?t|is not|wouldn'?t) (?:work|suit|do)\b|^(?:\s*[\w-]+){1,3}?\s+(?:gives?|gave)\s+(?:me|us|him|her|them)\s+(?:a\s+|the\s+)?(?:migraines?|headaches?|a headache|nausea|motion sickness|nightmares|the creeps)\b|^(?:\s*[\w-]+){1,3}?\s+(?:makes?|made)\s+(?:me|us|him|her|them)\s+(?:feel\s+)?(?:sick|dizzy|nauseous|ill|queasy)\b|^(?:\s*[\w-]+){0,3}?(?:\s+|(?='s\s))(?:(?:is|are|was|were|'s)\s+)?(?:(?:so|really|very|too|a bit|quite)\s+)?(?:uncomfortable|unbearable|awful|terrible|horrible|painful|annoying|a nightmare|a pain|a waste)\b/i;
/*
 * "Sunday is too busy", "the evening's way too late", "IMAX would be too expensive": the thing
 * judged too much is refused. "Too" as "also" ("Sunday is fine too", "Sunday too please") is not.
 */
const TOO_MUCH_AFTER =
  /^(?:\s*[\w'-]+){1,4}?(?:'s|'re|\s+(?:is|are|would be|will be|was|seems|looks|gets))\s+(?:(?:a bit|a little|a tad|way|far|much|just|probably|kinda|rather|bit)\s+)?too\s+(?!(?:please|pls|plz|thanks|thx|if|then|for|and|or|but|i|we)\b)[a-z]/i;
/* "Tuesday once school's out", "Friday when work is out of the way": what follows is about something else. */
const SUBORDINATE_AFTER = /^(?:(?:\s*[\w-]+){1,3}?\s+)?(?:once|when|as soon as|until|till|til|since|because)\s/i;
/** At most this many words may sit between a negation and what it negates ("not a comedy or a drama"). */
const NEGATION_REACH = 4;

/**
 * The only words a refusal of a day or a part of the day reaches across: "not on the 24th", "not
 * this monday", "no sunday or monday evening", "not one of the late-night showings"; in "anything but horror
 * on monday" it ends with horror.
 */
export const DAY_BRIDGE =
  /^(?:on|in|at|the|a|an|this|that|those|these|one|being|out|next|coming|any|or|nor|and|either|for|of|today|tonight|tomorrow|weekends?|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?|\d{1,2}(?:st|nd|rd|th)?|jan\w*|feb\w*|mar\w*|apr\w*|may|june?|july?|aug\w*|sept?\w*|oct\w*|nov\w*|dec\w*)$/i;

/**
 * Whether the phrase at `index` is wanted (`positive`), refused (`negative`: "no horror", "not
 * in 3D", "nothing scary", "no romantic comedies or horror"), or only mentioned as what is being
 * replaced (`skip`: "3D instead of IMAX"). Looks back within the clause only, at most `reach`
 * words, and only across words of `bridge` when one is given.
 */
export function polarity(
  text: string,
  index: number,
  reach = NEGATION_REACH,
  bridge?: RegExp,
): 'positive' | 'negative' | 'skip' {
  const [start] = clauseAt(text, index);
  const before = text.slice(start, index);
  if (SKIP.test(before)) return 'skip';
  let last: RegExpExecArray | undefined;
  for (const m of before.matchAll(NEGATION)) last = m;
  if (!last) {
    const after = text.slice(index, clauseAt(text, index)[1]);
    if (SUBORDINATE_AFTER.test(after)) return 'positive';
    return REFUSED_AFTER.test(after) || TOO_MUCH_AFTER.test(after) ? 'negative' : 'positive';
  }
  const between = before.slice((last.index ?? 0) + last[0].length);
  const words = between.split(/[\s-]+/).filter(Boolean);
  if (words.length > reach || PIVOT.test(between)) return 'positive';
  // With a bridge, every word between must be one of its words: anything else is what the refusal was about.
  if (bridge && !words.every((w) => bridge.test(w))) return 'positive';
  return 'negative';
}

/** Blanks [start, end) with spaces so later rules cannot read the same words again. */
export function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);
}

/** Escapes a literal for use inside a regular expression. */
export function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
