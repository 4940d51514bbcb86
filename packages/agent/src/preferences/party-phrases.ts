import type { TicketTypeId } from '@usher/booking';
import { COUNT, parseCount, SPELLED_OR_DIGITS } from './numbers.ts';
import { CHILD_UNDER, CHILD_WORDS, NOT_AN_AGE, PAIRS, RELATION, RELATIONS } from './people.ts';
import { clauseAt } from './text.ts';

/*
 * The phrases that name who is coming, each read into a piece of the party (party.ts decides from
 * all the pieces of a message at once): typed counts ("two adults"), totals ("4 tickets"),
 * companions ("my wife", "3 mates"), ages said of them ("she's 5", "(6 and 9)"), the speaker ("me
 * and …", "I'm 71", "I won't be going myself") and people who no longer come ("mum can't make it").
 * Earlier phrases are more specific: where two overlap, the earlier one is read.
 */

/* Teenagers are 13 to 19: an adult's ticket in every world whose children are under 12. "Under-12s", "under 5s": children. */
const TYPE_WORDS: Array<[string, TicketTypeId]> = [
  [
    'adults?|grown[- ]?ups?|leaders?|teachers?|helpers?|carers?|chaperones?|volunteers?|coaches?|teens|teenagers?',
    'adult',
  ],
  ['kids?|child|children|little ones|kiddos|kiddies|under[- ]?(?:[2-9]|1[0-2])s', 'child'],
  ['seniors?|pensioners?|oaps?', 'senior'],
];
const TYPES: Array<[RegExp, TicketTypeId]> = TYPE_WORDS.map(([words, ticket]) => [
  new RegExp(`^(?:${words})$`, 'i'),
  ticket,
]);
const TYPE_WORD = `(${TYPE_WORDS.map(([words]) => words).join('|')})`;
/** Words that describe counted tickets or people without being the count's noun. */
const DESCRIBING =
  '(?:imax|3d|2d|standard|regular|normal|premium|recliner|reclining|vip|luxury|comfy|big|good|cheap|cheapest|uni|university|college|student|broke|skint|poor|hungry|tired|mature|grad|postgrad|exchange|international)';
export const COUNTED_DESCRIBED = String.raw`(?<!\brows?\s+|[$£€]\s*)\b(${SPELLED_OR_DIGITS})(?!\s*(?:am|pm|o'?clock)\b)(?=\s+(?:of the\s+)?(?:(?:${DESCRIBING}\s+){1,2}(?:tickets?|seats?|people|persons|students)|(?:(?!(?:for|of|to|in|on|at|with|per|a|an|each|dollars?|bucks?|quid|pounds?|euros?|usd|gbp|minutes?|mins?|hours?|hrs?|km|kms|miles?|stars?|percent)\b)[a-z][a-z'-]*\s+){1,3}(?:tickets|seats)|(?:${DESCRIBING}\s+){0,2}(?:recliners|loungers))\b)`;
const AGE = String.raw`(\d{1,2})(?:\s*(?:years?|yrs?|y/?o)(?:[- ]old)?)?`;
const YEAR_OLD = String.raw`(\d{1,2})[- ](?:years?|yrs?)[- ]olds?|(\d{1,2})\s*y/?o`;
/** "my 8 year old daughter": read in the whole message, since "suitable for a 6 year old" is a rating and a person. */
export const AGED = String.raw`(?:(my|our|his|her|their|a|an|the)\s+)?(?:(${SPELLED_OR_DIGITS})\s+)?(?:${YEAR_OLD})(?:\s+(${RELATIONS}|${RELATION}))?`;
/** A word before a relation that does not change who they are: "my little boy", "our eldest daughter". */
const KIN_ADJECTIVE = String.raw`(?:(?:little|young|younger|youngest|elderly|old|older|oldest|eldest|big|baby|teenage|middle|wee|lovely|dear|best|closest)\s+)?`;

/** More ages in a list after the first: "4, 7 and 10", "6 & 9". */
const AGE_MORE = String.raw`(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\d{1,2}(?!\d))*`;
/** After a relation word: it names the owner of what follows ("my daughter's sleepover"), not one coming. */
const OWNER_AFTER =
  /^'s\s+(?!(?:coming|going|joining|also|too|in|here|gonna|been|not|a|an|the|only|just|now|got|had|on|off|over|under|aged|age|\d)\b)[a-z]/i;
/** After someone else's relative: what they allow or think, not that they come ("their mum only lets them …"). */
const SOMEONE_ELSES_SAY =
  /^\s+(?:(?:only|just|never|always|usually|really|won'?t|doesn'?t|does not|wouldn'?t)\s+)?(?:lets?|allows?|says?|said|wants?|insists?|thinks?|prefers?|rules?|minds?|approves?|agrees?|likes?|let|allow)\b/i;
/** After a relative: what they do to get the party there and back, not that they come. */
const TAKES_US_THERE =
  /^(?:'s|\s+(?:can|could|will|'ll|is|is going to|is gonna|has offered to|offered to))?\s+(?:drop(?:ping)?\s+(?:us|them|me|him|her)\s+off|drop(?:ping)?\s+off|driv(?:e|es|ing)\s+(?:us|them|me|him|her)|giv(?:e|es|ing)\s+(?:us|them|me|him|her)\s+a\s+lift|pick(?:s|ing)?\s+(?:us|them|me|him|her)\s+up|collect(?:s|ing)?\s+(?:us|them|me|him|her))\b/i;
/** Before people a clause says when something happens to them: "once the kids are in bed". */
const ELSEWHERE_BEFORE = /\b(?:once|while|whilst|when|until|till|til|after|before|as soon as)\s+$/i;
/** After a family word used like a name: said to come ("grandma's coming too", "nan is joining us"). */
const JOINS = String.raw`(?:'s|\s+is|'ll be|\s+will be)\s+(?:also\s+)?(?:coming|joining|tagging along|coming along)`;
const NOT_TIME = String.raw`(?!\s*(?:am|pm|:|\.\d|o'?clock|h\b|ish))`;
/** Family words people use like a name, without "my": "grandad and the kids". */
const NAME_LIKE =
  'mum|mom|mommy|mummy|dad|daddy|grandad|granddad|grandpa|grandma|gran|granny|nan|nana|nanna|auntie|grandmother|grandfather';

/** After "just me": the list goes on with someone else ("just me, my mum and …"), so it is no party of one. */
const LIST_GOES_ON = String.raw`,\s*(?:and\s+)?(?:(?:(?:my|our|his|her|their|the|a|an|${SPELLED_OR_DIGITS})\s+(?:[\w'-]+\s+){0,2}?)?(?:${RELATIONS}|${RELATION}|${NAME_LIKE})|him|her|them)(?!\w)`;
/** Before "and I": a person ("my wife", "the kids", "Sam", "him"), or words an earlier rule read. */
const LISTED_PERSON = new RegExp(
  String.raw`(?:(?:\b(?:${RELATIONS}|${RELATION}|${NAME_LIKE}|him|her|them|he|she|year[- ]olds?|y/?o)|\b[A-Z][\w'-]*|[,)]|^|\s{2})\s*)$`,
);

/** Words before people named as companions: "me and …", "with …", "taking …". */
const LISTED_BEFORE = /(?:\band|&|\+|\bplus|\bwith|\btaking|\bbringing|\btake|\bbring)\s+$/i;

/** Phrases that name the party, each with what it contributes. */
export type Piece =
  | { type: 'typed'; ticket: TicketTypeId; n: number }
  /** `us` when said as "the two of us", `third` when a "him" or "her" stands in its clause. */
  | { type: 'total'; n: number; us?: boolean; third?: boolean }
  | { type: 'more'; n: number }
  /** Companions: `n` undefined when the words give no number ("my kids"). */
  | {
      type: 'person';
      n?: number;
      ticket?: TicketTypeId;
      ages: number[];
      related: boolean;
      pronoun?: boolean;
      /** A son, a daughter, a nephew: a child when the message speaks of kids, of any age otherwise. */
      offspring?: boolean;
      /** The relation word as written ("kids", "husband"), to know the same people named twice. */
      words?: string;
      /** A ticket said of them ("he's on an adult ticket now"): it outweighs their age. */
      ticketSaid?: boolean;
      /** Named as the owner of something ("my daughter's sleepover", "his mum's rule"), not as someone coming. */
      owner?: 'mine' | 'theirs';
      /** Someone's own companions ("two of his friends"): as old as a child named, when one is. */
      theirs?: boolean;
      /** "Him and me" with no one named: one person, counted only when no one else is. */
      standsFor?: boolean;
      /** Coming in the speaker's place ("his grandad's taking him instead of me"). */
      inPlaceOfSpeaker?: boolean;
      /** Said on top of the tickets counted ("1 ticket plus my carer"): one more than the count. */
      beyondCount?: boolean;
    }
  /** An age or a ticket word said of the companion(s) named just before; `all` of every one ("both in their 80s"). */
  | {
      type: 'about';
      ages: number[];
      ticket?: TicketTypeId;
      all?: boolean;
      pronoun?: boolean;
      we?: boolean;
      n?: number;
      /** "All around the same age": the age of the first person named with one. */
      same?: boolean;
    }
  /** One ticket type for the whole party ("all adults"); `n` when the words count it ("both"). */
  | { type: 'allOf'; ticket: TicketTypeId; n?: number }
  /** The speaker comes; `age` when they say it ("I'm 71"), `ticket` when they name theirs ("adult for me"). */
  | { type: 'self'; age?: number; ticket?: TicketTypeId }
  /** The speaker is not coming ("I won't be going myself"): the people named are the party. */
  | { type: 'notSelf' }
  /** Said of the speaker but no party ("I'm 6'5\""): read, so it is neither an age nor a doubt. */
  | { type: 'said' }
  /** Someone already coming who no longer is ("one of the kids can't make it", "my brother can't come"). */
  | { type: 'dropped'; n: number; ticket?: TicketTypeId; words: string };

/** People named as several ("my parents", "my two kids"): "both" after them is of them, not of the speaker. */
const SEVERAL_NAMED = new RegExp(String.raw`\b(?:${RELATIONS}|two|2|three|3|four|4)\b`, 'i');

/** Whether an age said of "both" or "all" includes the speaker: "my wife and I are both", "both of us", "we're all". */
function speakerAmong(m: RegExpExecArray): boolean {
  const before = m.input.slice(Math.max(0, (m.index ?? 0) - 20), m.index);
  if (/\b(?:we(?:'re|\s+are)?|(?:and|&)\s+(?:i|me|myself)(?:\s+are)?)\s*$/i.test(before) || /\bof us\b/i.test(m[0]))
    return true;
  // "me and my wife, both over 65", "me and my wife (both 70)": said right after a list that names
  // the speaker.
  const [start] = clauseAt(m.input, Math.max(0, (m.index ?? 0) - 2));
  return (
    (/,\s*$/.test(before) || m[0].startsWith('(')) &&
    /\b(?:me|myself|i)\s+(?:and|&|\+)\s|(?:and|&)\s+(?:me|i|myself)\b/i.test(m.input.slice(start, m.index))
  );
}

const countOf = (token: string | undefined) => (token === undefined ? undefined : parseCount(token));

function person(words: string, n: number | undefined, ages: number[] = []): Piece {
  const w = words.toLowerCase().trim();
  const known = n ?? PAIRS[w] ?? (new RegExp(`^(?:${RELATIONS})$`, 'i').test(w) ? undefined : 1);
  const ticket = CHILD_WORDS.test(w) || YOUNG_WORDS.test(w) ? 'child' : undefined;
  const offspring = OFFSPRING_WORDS.test(w);
  return {
    type: 'person',
    n: known,
    ages,
    related: true,
    words: w,
    ...(ticket ? { ticket } : {}),
    ...(offspring && { offspring }),
  };
}

/** The speaker's parents and grandparents: when the party has a senior's ticket, theirs. */
export const ELDER_WORDS =
  /^(?:mum|mom|mommy|mummy|mother|dad|daddy|father|grandad|granddad|grandpa|grandma|gran|granny|nan|nana|nanna|grandmother|grandfather|parents|grandparents)$/i;

/** Words that say the person is young ("our 2 boys", "my lad"): a child's ticket unless an age says otherwise. */
export const YOUNG_WORDS = /^(?:little (?:girl|boy|one)s?|boys?|girls?|lads?|lass(?:es)?|nippers?|youngsters?)$/i;
/** Children of someone, of any age: a child's ticket when the message speaks of kids ("for the kids"). */
export const OFFSPRING_WORDS = /^(?:sons?|daughters?|nephews?|nieces?|grandsons?|granddaughters?)$/i;
/** A message that speaks of kids: the sons and daughters in it are children. */
export const KIDS_SAID = /\b(?:kids|children|family|kid[- ]friendly|little ones|for the kid)\b/i;

export const PATTERNS: Array<[string, (m: RegExpExecArray) => Piece | undefined]> = [
  // "1 ticket plus my carer", "2 seats + my mum": someone on top of the tickets counted (tickets
  // counted by type are read with the people named: "2 adult tickets plus my son, he's 8").
  [
    String.raw`(?<=\b(?:\d{1,2}|one|two|three|four|five|a)\s+(?:tickets?|seats?)\s*,?\s*)(?:plus|\+)\s+(?:my|our|a|an|his|her)\s+(${RELATION})(?!\w)`,
    (m) => {
      const base = person(m[1] ?? '', 1);
      return base.type === 'person' ? { ...base, beyondCount: true } : undefined;
    },
  ],
  [
    // "his grandad's taking him instead of me", "my dad is coming instead of me": someone comes in
    // the speaker's place.
    String.raw`(?:(?:my|our|his|her|their|the)\s+)?(${RELATION})(?:'s|\s+is|\s+will|'ll|\s+can)?\s+(?:be\s+)?(?:taking|bringing|going|coming|take|bring|go|come)(?:\s+(?:him|her|them|along))?(?:\s+with\s+(?:him|her|them))?\s+(?:instead of me|in my place|rather than me)\b`,
    (m) => {
      const base = person(m[1] ?? '', 1);
      return base.type === 'person' ? { ...base, related: true, inPlaceOfSpeaker: true } : undefined;
    },
  ],
  [
    // "one of them is 13 actually", "the eldest is 13": one of the party known, of that age.
    String.raw`(?:\bone of (?:them|the (?:kids|children|boys|girls)|my (?:kids|children|boys|girls))|\bthe (?:eldest|oldest|youngest|older|younger|big|little)(?:\s+(?:one|kid|child|boy|girl|son|daughter))?)(?:'s|\s+is)\s+(?:actually\s+|now\s+|only\s+|just\s+|already\s+)?(\d{1,2})${NOT_AN_AGE}${NOT_TIME}(?!\s*(?:mins?|minutes?|hours?|miles?|km|%|stars?|pm|am)\b)`,
    // One of the children at a child's age is as they were: nothing changes.
    (m) =>
      Number(m[1]) < CHILD_UNDER ? { type: 'said' } : { type: 'person', n: 1, ages: [Number(m[1])], related: true },
  ],
  [
    // "grandad is 73", "nan's 80": a family word used like a name, with an age.
    String.raw`(?<!\b(?:my|our|his|her|their|the|your)\s+)\b(?:${NAME_LIKE})(?:'s|\s+is)\s+(?:now\s+|actually\s+)?(\d{1,2})${NOT_AN_AGE}${NOT_TIME}(?!\s*(?:mins?|minutes?|hours?|miles?|km|%|stars?)\b)`,
    (m) => ({ type: 'about', ages: [Number(m[1])] }),
  ],
  [
    // "One of them is a senior actually", "two of us are pensioners": of the party known, that many
    // take that ticket, the party's size staying.
    // "4 of us - 2 are under 12", "4 tickets, 2 are children": the same, said after the count.
    String.raw`(${SPELLED_OR_DIGITS})(?:\s+of\s+(?:them|us|those|the adults))?\s+(?:is|are|'s|will be)\s+(?:actually\s+|also\s+|really\s+)?(?:an?\s+)?(senior|pensioner|oap|child|kid|children|under[- ]?(?:1[0-2]|[2-9])|over[- ]?(?:6[5-9]|[7-9]\d))s?\b`,
    (m) => {
      const n = countOf(m[1]);
      const ticket: TicketTypeId = /^(?:senior|pensioner|oap|over)/i.test(m[2] ?? '') ? 'senior' : 'child';
      return n ? { type: 'about', ages: [], ticket, pronoun: true, n } : undefined;
    },
  ],
  [
    // "my husband (72) and I (70)", "me (34), my dad (66)": the speaker's age in brackets.
    String.raw`(?:(?<=\b(?:and|&)\s+)(?:i|me|myself)|(?<=(?:^|[,.;:!?]|\bfor|\bjust|\bit's)\s*)me)\s*\(\s*(\d{1,2})\s*\)`,
    (m) => ({ type: 'self', age: Number(m[1]) }),
  ],
  [
    // "4 friends from school, all around the same age": as old as the one whose age was said.
    String.raw`(?:(?:all|both)\s+)?(?:(?:around|about|roughly|much|pretty much|more or less)\s+)?the same age(?:\s+as\s+(?:her|him|them|my\s+[a-z]+))?`,
    () => ({ type: 'about', ages: [], same: true }),
  ],
  [
    // "one of the kids can't make it", "my brother can't come after all", "two of us have dropped out".
    String.raw`(?:(${SPELLED_OR_DIGITS})\s+of\s+(?:the|my|our)\s+(kids|children|little ones|adults|grown[- ]?ups|seniors|${RELATIONS})|(${SPELLED_OR_DIGITS})\s+of\s+(?:us|them)|(?:my|our|the)\s+(?:[a-z]+'s\s+)?(${RELATION}|${RELATIONS}))\s+(?:now\s+|also\s+|just\s+)?(?:(?:can'?t|cannot|can no longer|won'?t|will not|isn'?t|aren'?t|is not|are not|is no longer|are no longer|couldn'?t)(?:\s+(?:come|make it|coming|going|join(?:ing)?(?:\s+us)?|be there|go|attend)(?:\s+after all)?)|(?:(?:has|have|'s|'ve)\s+)?(?:dropped|pulled|backed)\s+out|(?:(?:has|have|'s|'ve)\s+)?(?:bailed|cancelled|canceled))(?=\s*(?:[,.;!?)]|$|after all|anymore|any more|now|today|tonight|so|but|and|on us))`,
    (m) => {
      const n = parseCount(m[1] ?? m[3] ?? 'one');
      if (!n) return undefined;
      const words = (m[2] ?? m[4] ?? '').toLowerCase();
      const typed = TYPES.find(([re]) => re.test(words))?.[1];
      const ticket = typed ?? (CHILD_WORDS.test(words) || YOUNG_WORDS.test(words) ? 'child' : undefined);
      return { type: 'dropped', n, words, ...(ticket ? { ticket } : {}) };
    },
  ],
  [
    // "Mum's not feeling up to it", "my brother is no longer coming", "dad's not well enough": one
    // person named, said not to come. A family word used like a name may open the clause alone.
    String.raw`(?:(?<=(?:^|[,.;!?]\s*|\b(?:so|but|and|now|sadly|unfortunately)\s+))(?=${NAME_LIKE})|(?:my|our|the)\s+)(?:[a-z]+'s\s+)?(${RELATION}|${RELATIONS})(?:'s|'re|\s+is|\s+are)(?:\s+now)?\s+(?:not|no longer)\s+(?:coming|going|joining(?:\s+us)?|(?:feeling\s+)?up (?:to|for) it|well enough|well|able to (?:come|make it|go|join us))`,
    (m) => {
      const words = (m[1] ?? '').toLowerCase();
      const typed = TYPES.find(([re]) => re.test(words))?.[1];
      const ticket = typed ?? (CHILD_WORDS.test(words) || YOUNG_WORDS.test(words) ? 'child' : undefined);
      return { type: 'dropped', n: PAIRS[words] ?? 1, words, ...(ticket ? { ticket } : {}) };
    },
  ],
  [`(?:party|group|family|gang|crew|bunch|team|table) of\\s+(${SPELLED_OR_DIGITS})`, total(1)],
  // "We're down to 2", "down to three now": the party's new size.
  [
    `(?:(?:we're|we are|it's|that's)\\s+)?down\\s+to\\s+(${SPELLED_OR_DIGITS})(?!\\s*(?:am|pm|:|o'?clock|miles?|km|\\$|dollars?|quid))`,
    total(1),
  ],
  // "One less", "one fewer", "minus one": someone of the party known is not coming.
  [
    String.raw`\b(one|two|1|2)\s+(?:less|fewer)(?!\s+(?:than|mile|km|star|dollar|pound|minute|hour))|\bminus\s+(one|two|1|2)\b(?!\s*(?:star|mile|km))|take\s+(one|two|1|2)\s+(?:off|away)`,
    (m) => {
      const n = parseCount(m[1] ?? m[2] ?? m[3] ?? '');
      return n ? { type: 'dropped', n, words: '' } : undefined;
    },
  ],
  // Before the typed counts: "my mum (a pensioner)" is one person, not a second one.
  [
    String.raw`\(\s*(?:a\s+)?(?:pensioner|senior|oap)\s*\)|(?:who(?:'s| is)|(?:she|he)(?:'s| is))\s+(?:a\s+)?(?:pensioner|senior|oap|retired)`,
    () => ({ type: 'about', ages: [], ticket: 'senior' }),
  ],
  [
    // "3 tickets, all adults", "we're both seniors": the type of everyone counted.
    // "We're both retired": a pensioner's ticket for each.
    // "Both in our seventies": an age in words past the senior age, read as retired.
    `(?:(?:we|they)(?:'re|\\s+are)\\s+)?(all|both)\\s+(?:of (?:us|them)\\s+)?(?:are\\s+)?(${TYPE_WORD.slice(1, -1)}|retired|retirees|in (?:our|their) (?:seventies|eighties|nineties|late sixties))(?!'?s?[-\\s]*(?:films?|movies?|shows?|stuff|things|friendly))`,
    (m) => {
      // "My husband and I are both retired": a senior's ticket for those named, the speaker among them.
      if (/^(?:retire|in )/i.test(m[2] ?? ''))
        return {
          type: 'about',
          ages: [],
          ticket: 'senior',
          all: true,
          we: speakerAmong(m),
          ...(/^both$/i.test(m[1] ?? '') && { n: 2 }),
        };
      const ticket = TYPES.find(([re]) => re.test(m[2] ?? ''))?.[1];
      if (!ticket) return undefined;
      const n = /^both$/i.test(m[1] ?? '') ? 2 : undefined;
      // Named in a list ("me and both kids", "taking both kids"), they are companions, not everyone.
      if (LISTED_BEFORE.test(m.input.slice(0, m.index)) && !/^(?:we|they)/i.test(m[0]))
        return { type: 'person', n, ages: [], related: true, ticket };
      return { type: 'allOf', ticket, ...(n ? { n } : {}) };
    },
  ],
  [
    // "a senior ticket for her", "child's one for him": the ticket of someone already named.
    String.raw`(?:(?:a|an|one)\s+)?(adult|child|kid|senior|pensioner)(?:'s)?\s+(?:(?:ticket|one|price|fare)\s+)?for\s+(?:him|her)\b`,
    (m) => {
      const ticket = TYPES.find(([re]) => re.test(m[1] ?? ''))?.[1];
      return ticket ? { type: 'about', ages: [], ticket, pronoun: true } : undefined;
    },
  ],
  [
    // "just me as the adult", "me as the only grown-up": the speaker comes, as an adult; not "just me".
    String.raw`(?:(?:just|only)\s+)?(?:me|myself)\s+as\s+the\s+(?:only\s+|one\s+)?(?:adult|grown[- ]?up)`,
    () => ({ type: 'self', ticket: 'adult' }),
  ],
  [
    // "that makes me a senior", "I'm a pensioner", "me being a senior": the speaker's ticket, not one more.
    String.raw`(?:makes?\s+me|(?:i'?m|i am)(?:\s+(?:also|now|technically|officially))?|me being)\s+(?:a|an)\s+(senior|pensioner|oap|adult)\b(?!'?s?[-\s]*(?:films?|movies?|shows?))`,
    (m) => {
      const ticket = TYPES.find(([re]) => re.test(m[1] ?? ''))?.[1];
      return ticket ? { type: 'self', ticket } : undefined;
    },
  ],
  [
    // "adult for me", "a senior ticket for myself": the speaker comes, on that ticket.
    String.raw`(?:(?:a|an|one)\s+)?(adult|senior|pensioner)(?:'s)?\s+(?:(?:ticket|one|price|fare)\s+)?for\s+(?:me|myself)\b`,
    (m) => {
      const ticket = TYPES.find(([re]) => re.test(m[1] ?? ''))?.[1];
      return ticket ? { type: 'self', ticket } : undefined;
    },
  ],
  [
    // "he'll need a senior ticket", "she gets a child's ticket", "he's on an adult ticket now", "she
    // counts as a child", "he pays adult": the ticket of someone already named, whatever their age.
    String.raw`(?:he|she)(?:'s|'ll|\s+is|\s+will)?\s+(?:be\s+)?(?:now\s+|still\s+|already\s+|technically\s+)?(?:(?:on|needs?|gets?|has|have|pays?|goes on|should (?:get|have|pay|be on)|qualif(?:y|ies) for|counts? as)\s+)?(?:(?:a|an|the)\s+)?(adult|child|kid|senior|pensioner)(?:'s)?(?:\s+(?:ticket|price|fare|discount|rate)s?\b|(?=\s+(?:now|these days|anyway|already)\b|\s*[,.;!?)]|\s*$))`,
    (m) => {
      const ticket = TYPES.find(([re]) => re.test(m[1] ?? ''))?.[1];
      return ticket ? { type: 'about', ages: [], ticket, pronoun: true } : undefined;
    },
  ],
  [
    // "we are both 78", "they're both 8": everyone's age.
    String.raw`(?:we|they)(?:'re|\s+are)\s+(?:both|all)\s+(\d{1,2})(?!\s*(?:mins?|minutes?|hours?|km|miles?|%|:|am|pm)\b)`,
    (m) => ({ type: 'about', ages: [Number(m[1])], all: true, ...(/^we/i.test(m[0]) && { we: true }) }),
  ],
  [
    // "my husband and I are both 80", "both of us are 72", "my parents, both 70": everyone's age;
    // the speaker's too when they are among those who are ("and I are", "of us").
    String.raw`(?:(?:are|'re)\s+(?:both|all)|(?<=,\s*)(?:both|all)|(?:both|all)\s+of\s+(?:us|them)(?:\s+are)?|(?:both|all)(?=\s+aged))\s+(?:aged\s+)?(\d{1,2})(?:\s*(?:years?|yrs?)(?:[- ]old)?)?${NOT_AN_AGE}${NOT_TIME}(?!\s*(?:mins?|minutes?|hours?|km|miles?|mi|%|quid|dollars|bucks|stars?|tickets?|seats?)\b)`,
    (m) => ({
      type: 'about',
      ages: [Number(m[1])],
      all: true,
      ...(speakerAmong(m) && { we: true }),
      ...(/\bboth\b/i.test(m[0]) && { n: 2 }),
    }),
  ],
  [
    // "all well over 70", "both under 10": everyone's ticket by an age bound.
    String.raw`(all|both)\s+(?:of (?:us|them)\s+)?(?:are\s+)?(?:well\s+|way\s+|a bit\s+)?(over|above|past|under|below)\s+(\d{1,2})${NOT_TIME}(?!\s*(?:mins?|minutes?|hours?|km|miles?|mi|%|quid|dollars|bucks|stars?)\b)`,
    (m) => {
      const bound = Number(m[3]);
      const age = /^(?:under|below)$/i.test(m[2] ?? '') ? bound - 1 : bound + 1;
      return { type: 'about', ages: [age], all: true, ...(speakerAmong(m) && { we: true }) };
    },
  ],
  [
    `(${COUNT}|another)\\s+(?:more\\s+|extra\\s+|additional\\s+)?${TYPE_WORD}(?:'s)?(?:\\s+tickets?)?`,
    (m) => {
      const n = /^another$/i.test(m[1] ?? '') ? 1 : parseCount(m[1] ?? '');
      const ticket = TYPES.find(([re]) => re.test(m[2] ?? ''))?.[1];
      return n && ticket ? { type: 'typed', ticket, n } : undefined;
    },
  ],
  [
    // "my 8 year old daughter", "our two 7-year-olds", "a 6 year old"
    AGED,
    (m) => {
      const age = Number(m[3] ?? m[4]);
      const n = countOf(m[2]) ?? (m[5] ? PAIRS[m[5].toLowerCase()] : undefined) ?? 1;
      return {
        type: 'person',
        n,
        ages: Array(n).fill(age),
        related: m[5] !== undefined || /^(?:my|our|his|her|their)$/i.test(m[1] ?? ''),
      };
    },
  ],
  [
    // "my son's 8th birthday", "my mum's 70th": the son, 8 (turning 8, so still a child's ticket at 8).
    `(?:my|our)\\s+(${RELATION})'s\\s+(\\d{1,2})(?:st|nd|rd|th)(?:\\s+birthday)?(?!\\s+(?:row|of|place|anniversary))`,
    (m) => {
      const base = person(m[1] ?? '', 1);
      return base.type === 'person' ? { ...base, n: 1, ages: [Number(m[2])] } : undefined;
    },
  ],
  [
    // "two kids under 10", "the children, all under 8": an age bound of the children just named.
    String.raw`(?<=\b(?:kids?|children|child|little ones|boys|girls|grandkids|grandchildren)\s*,?\s+)(?:(?:both|all|each)\s+)?(?:under|below|younger than)\s+(\d{1,2})${NOT_TIME}(?!\s*(?:mins?|minutes?|hours?|miles?|km|%|stars?|quid|dollars|bucks|pounds)\b)`,
    (m) => ({ type: 'about', ages: [Math.max(0, Number(m[1]) - 1)] }),
  ],
  [
    // "me and the kids (3 of them, 4 6 and 9)": how many the people just named are, and their ages.
    String.raw`\(\s*(${SPELLED_OR_DIGITS})\s+of\s+(?:them|'em)\s*(?:[,:;-]\s*(?:aged\s+|ages\s+)?(\d{1,2}(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*|\s)\s*\d{1,2})*))?\s*\)`,
    (m) => {
      const n = countOf(m[1]);
      const ages = (m[2]?.match(/\d{1,2}/g) ?? []).map(Number);
      if (!n || (ages.length > 0 && ages.length !== n)) return undefined;
      return { type: 'about', ages, n };
    },
  ],
  [
    // "4 friends (all 7 or 8)", "(both 10)": one age, the youngest said, for each of the people just named.
    // "My husband and I (both 76)": everyone named, the speaker among them.
    String.raw`\(\s*(?:all|both|each)\s+(?:aged\s+)?(\d{1,2})(?:\s*(?:or|-|to|and|/)\s*\d{1,2})?\s*\)`,
    (m) =>
      speakerAmong(m) &&
      !(/\bboth\b/i.test(m[0]) && SEVERAL_NAMED.test(m.input.slice(clauseAt(m.input, m.index ?? 0)[0], m.index)))
        ? { type: 'about', ages: [Number(m[1])], all: true, we: true, ...(/\bboth\b/i.test(m[0]) && { n: 2 }) }
        : { type: 'about', ages: [Number(m[1])], ...(/\bboth\b/i.test(m[0]) && { n: 2 }) },
  ],
  [
    // "4 friends all 10", "3 mates, both aged 9": the same, said without brackets right after them.
    String.raw`(?<=\b(?:${RELATIONS})\s*,?\s*)(?:all|both|each)\s+(?:aged\s+)?(\d{1,2})(?:\s*(?:or|-|to|/)\s*\d{1,2})?${NOT_AN_AGE}${NOT_TIME}(?=\s*(?:[,.;!?)]|$|and\b|plus\b|\+))`,
    (m) => ({ type: 'about', ages: [Number(m[1])] }),
  ],
  [
    // "the kids are 5 and 7", "my boys are 6 and 9": the ages of the people named, one each.
    String.raw`(?:the|my|our)\s+${KIN_ADJECTIVE}(?:${RELATIONS})\s+(?:are|'re)\s+(?:both\s+|all\s+)?\d{1,2}(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\d{1,2}(?!\d))+${NOT_AN_AGE}${NOT_TIME}`,
    (m) => ({ type: 'about', ages: (m[0].match(/\d{1,2}/g) ?? []).map(Number) }),
  ],
  [
    // "my dad is 72", "my son turns 8", "my mom who is 68", "my grandparents are both over 70"
    `(?:my|our|his|her|their)\\s+${KIN_ADJECTIVE}(${RELATIONS}|${RELATION})(?:'s\\s+(?:turning\\s+)?|\\s*,?\\s+(?:who\\s+)?(?:is|are|'s|aged|turns|turned|is turning)\\s+)(?:actually\\s+|really\\s+|now\\s+|only\\s+|just\\s+)?(?:both\\s+)?(?:over\\s+|above\\s+)?${AGE}${NOT_TIME}(?:\\s*,?\\s*(?:not|rather than|instead of)\\s+\\d{1,2}(?!\\d))?`,
    (m) => {
      const base = person(m[1] ?? '', undefined);
      if (base.type !== 'person') return undefined;
      const n = base.n ?? 1;
      return { ...base, n, ages: Array(n).fill(Number(m[2])) };
    },
  ],
  // "two of his friends": counted before whose they are.
  [
    `(${SPELLED_OR_DIGITS})\\s+of\\s+(my|our|his|her|their)\\s+(${RELATIONS})`,
    (m) => {
      const base = person(m[3] ?? '', countOf(m[1]));
      return base.type === 'person' && /^(?:his|her)$/i.test(m[2] ?? '') ? { ...base, theirs: true } : base;
    },
  ],
  [
    `(?:my|our|his|her|their|the)\\s+(?:(${SPELLED_OR_DIGITS})\\s+)?${KIN_ADJECTIVE}(${RELATIONS}|${RELATION}|little (?:girl|boy|one)s?)(?!\\w)`,
    (m) => {
      const base = person(m[2] ?? '', countOf(m[1]));
      // "Once the kids are in bed", "while my son is at school": the time of the film, not someone coming.
      if (ELSEWHERE_BEFORE.test(m.input.slice(0, m.index ?? 0)) && !LISTED_BEFORE.test(m.input.slice(0, m.index)))
        return { type: 'said' };
      // "my daughter's sleepover", "his mum's rule": the owner of a thing, not said to be coming;
      // someone else's ("his mum's") counts only in a list of those who are.
      const after = m.input.slice((m.index ?? 0) + m[0].length);
      // "my husband can drop us off": who takes the party there, not one of it.
      if (TAKES_US_THERE.test(after)) return { type: 'said' };
      // "their mum only lets them see PG": someone else's, said of what they allow, not that they come.
      const acts = /^(?:his|her|their)\b/i.test(m[0]) && SOMEONE_ELSES_SAY.test(after);
      const owner = OWNER_AFTER.test(after) || acts;
      if (!owner || base.type !== 'person') return base;
      return { ...base, owner: /^(?:his|her|their)\b/i.test(m[0]) ? 'theirs' : 'mine' };
    },
  ],
  // "2 students, friday", "four colleagues": a group counted, with no one's before it, is the party
  // itself; "3 of my friends" are companions.
  [
    `(${SPELLED_OR_DIGITS})\\s+(of my\\s+)?(${RELATIONS})`,
    (m) => {
      const base = person(m[3] ?? '', countOf(m[1]));
      return base.type === 'person' && !m[2] ? { ...base, related: false } : base;
    },
  ],
  // "grandad and the 3 grandkids", "me and mum": family words used like names, in a list of people;
  // "grandma's coming too", "nan is joining us": said to come.
  [
    `(?:(?<=(?:\\band|&|\\+|\\bplus)\\s+)(?:${NAME_LIKE})|(?:${NAME_LIKE})(?=\\s*(?:and|&|\\+|plus)\\s|${JOINS}))(?!\\w)`,
    (m) => person(m[0], 1),
  ],
  [`(?:a|an|one)\\s+(?:fellow\\s+)?(${RELATION})(?!\\w)`, (m) => ({ ...person(m[1] ?? '', 1), related: true })],
  [
    // "w my 2 (4 & 6)", "taking my 3 (5, 7, 9)": the count of the ages in brackets that follow, read with them.
    String.raw`(?:my|our)\s+(${SPELLED_OR_DIGITS})\s*\(\s*(\d{1,2}(?:\s*(?:and|&|,)\s*\d{1,2})*)\s*\)`,
    (m) => {
      const ages = (m[2]?.match(/\d{1,2}/g) ?? []).map(Number);
      return countOf(m[1]) === ages.length ? { type: 'person', n: ages.length, ages, related: true } : undefined;
    },
  ],
  [
    // "she's 5", "he's turning 7", "she turned 12", "they're 5 and 8", "who is 68", "whos 6", "(6 and 9)", "(4, 7 and 11)", "aged 70",
    // "aged 4, 7 and 10", "ages 6 and 9", "my grandson, age 4", "who are 8 and 11"
    String.raw`(?:she|he)(?:(?:'?s| is)\s+(?:only\s+|just\s+|turning\s+|going to be\s+|actually\s+|really\s+)?|\s+(?:turns|turned|will be|'ll be)\s+)${AGE}${NOT_AN_AGE}${NOT_TIME}|they(?:'re| are)\s+(?:both\s+)?${AGE}${AGE_MORE}${NOT_TIME}|who(?:'?s| is)\s+${AGE}${NOT_AN_AGE}${NOT_TIME}|who(?:'re| are)\s+(?:both\s+|all\s+)?${AGE}${AGE_MORE}${NOT_AN_AGE}${NOT_TIME}|(?:aged|ages)\s+${AGE}${AGE_MORE}${NOT_AN_AGE}|(?<=(?:[,(]|\b(?:${RELATIONS}|${RELATION}))\s*)age\s+\d{1,2}${NOT_AN_AGE}|\(\s*\d{1,2}(?:\s*(?:and|&|,)\s*\d{1,2})*\s*\)`,
    (m) => {
      const ages = (m[0].match(/\d{1,2}/g) ?? []).map(Number);
      const pronoun = /^(?:s?he|they)/i.test(m[0]);
      return ages.length > 0 ? { type: 'about', ages, ...(pronoun ? { pronoun } : {}) } : undefined;
    },
  ],
  [
    // "me and my husband, 68 and 71": ages listed bare right after the people.
    String.raw`(?<=\b(?:${RELATIONS}|${RELATION}|${NAME_LIKE}|me|i|myself)\s*,\s*)\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})+${NOT_AN_AGE}${NOT_TIME}(?=\s*(?:[,.;!?)]|$))`,
    (m) => ({ type: 'about', ages: (m[0].match(/\d{1,2}/g) ?? []).map(Number) }),
  ],
  [
    // "both in their 80s", "in her late 60s": an age by the decade, said of everyone named when "both" or "all"
    String.raw`(?:(both|all)\s+)?in\s+(?:their|her|his)\s+(?:(early|mid|late)[- ]?)?([1-9])0'?s`,
    (m) => {
      const age = Number(m[3]) * 10 + ({ early: 1, mid: 5, late: 7 }[(m[2] ?? '').toLowerCase()] ?? 0);
      return { type: 'about', ages: [age], ...(m[1] ? { all: true } : {}) };
    },
  ],
  [
    // "I'm 6'5\"", "I'm 5 foot 2": a height, no age and no party.
    String.raw`(?:i'?m|i am)\s+\d(?:\s*['′]\s*\d{0,2}\s*["″”]?|\s*(?:ft|feet|foot)(?:\s*\d{1,2}(?:\s*(?:in|inches|"|″|”))?)?)`,
    () => ({ type: 'said' }),
  ],
  [
    // "I'm 71", "I turned 66 in October", "I'm turning 65 next week": the speaker's own age gives their ticket.
    String.raw`(?:(?:i'?m|i am)\s+(?:turning\s+|going to be\s+)?|i\s+(?:turned|turn|will be)\s+|i'll be\s+)${AGE}${NOT_AN_AGE}${NOT_TIME}(?!\s*(?:mins?|minutes?|hours?|hrs?|km|miles?|mi|%|quid|dollars|bucks))`,
    (m) => ({ type: 'self', age: Number(m[1] ?? m[2]) }),
  ],
  [
    // "me + 1", "me and 2 others": the speaker and a number of others.
    `me\\s*(?:\\+|plus|and|&)\\s*(${SPELLED_OR_DIGITS})(?:\\s+(?:others?|more|people|persons|guests))?(?=\\s*(?:[,.;!?)]|$|(?:from|who|at|for)\\b))`,
    (m) => {
      const n = parseCount(m[1] ?? '');
      return n ? { type: 'total', n: n + 1 } : undefined;
    },
  ],
  // "2 together in the middle block": a count of seats said with how they sit.
  [`(${SPELLED_OR_DIGITS})(?=\\s+(?:together|side by side|next to each other|in a row)\\b)`, total(1)],
  [
    // Not "a seat": "a wheelchair space and a seat next to it" does not say the party is one.
    `(${SPELLED_OR_DIGITS}|a couple of|a pair of)\\s+(?:(more|extra|additional|other)\\s+)?(?:tickets?|seats?|people|persons?|guests?|spots|places)`,
    (m) => {
      const n = /couple|pair/i.test(m[1] ?? '') ? 2 : parseCount(m[1] ?? '');
      if (!n) return undefined;
      return m[2] ? { type: 'more', n } : { type: 'total', n };
    },
  ],
  // Words between the count and its noun that describe the tickets or the people ("2 imax
  // tickets", "two of the big recliner seats", "2 uni students"): read in the whole message, the
  // count alone, so the rules of those words (format, seat kind) still read them.
  [COUNTED_DESCRIBED, total(1)],
  // "thurs evening, 2 pls", "iron tempest saturday night x2": a count said on its own.
  [
    String.raw`(?<=(?:^|[,;]|\b(?:night|evening|afternoon|morning|tonight|tomorrow|today))\s*)(${SPELLED_OR_DIGITS})\s+(?:please|pls|plz|thanks|thx|ta)\b|\bx\s?(${SPELLED_OR_DIGITS})(?!\w)|(?<!\w)(\d)\s?x(?=\s|$|[,.!?])`,
    (m) => {
      const n = parseCount(m[1] ?? m[2] ?? m[3] ?? '');
      return n ? { type: 'total', n } : undefined;
    },
  ],
  // "overtime heroes in imax pls, 2, sat": a small count standing alone between commas.
  // Not a message that is only a number: that is a doubt unless it answers "how many?".
  [
    String.raw`(?<=[,;]\s*)([1-6]|two|three|four|five|six)(?=\s*(?:please|pls|thanks|ta)?\s*(?:[,;!?]|\.(?!\d)|$))`,
    total(1),
  ],
  [String.raw`another (?:ticket|seat|person)|plus one|\+1`, () => ({ type: 'more', n: 1 })],
  // "only need 2 now", "just want 3 then": the party's size, said again.
  [
    String.raw`(?:only|just)\s+(?:need|want|needing|wanting)\s+(${SPELLED_OR_DIGITS})(?=\s*(?:now|then|tickets?|seats?|instead|please|pls|[,.;!?]|$))`,
    (m) => {
      const n = countOf(m[1]);
      return n ? { type: 'total', n } : undefined;
    },
  ],
  [
    `(?:tickets?|seats?|table|room)\\s+for\\s+(${SPELLED_OR_DIGITS})(?!\\s*(?:am|pm|:|o'?clock|h\\b))(?:\\s+(?:people|persons|of us))?`,
    total(1),
  ],
  [
    `for\\s+(one|two|three|four|five|six|seven|eight|nine|ten|\\d{1,2}\\s+(?:people|persons|of us|guests))(?:\\s+(?:people|persons|of us))?(?!\\s*(?:am|pm|:|o'?clock))`,
    total(1),
  ],
  // "tomorrow for 4, all together": a count after "for" that a comma ends is the party, not 4pm.
  // A word a rule read before "for" is blanked: only the words right before count ("at lakeside for 2").
  [String.raw`(?<!\b(?:at|showing|show|screening|start|starts|until|till)\s{1,2})for\s+(\d{1,2})(?=\s*[,;])`, total(1)],
  // "tonight for 2", "orbital drift tomorrow for 3": a small count after "for" is the party; nobody
  // writes "for 3" for a 3pm start. From 7 up it could be an evening hour ("for 7"), so that stays a question.
  [
    String.raw`(?<!\b(?:at|showing|show|screening|start|starts|until|till|by|before|after|around)\s{1,2})for\s+([1-6])(?![\w:]|\.\d|\s*(?:am|pm|a\.m|p\.m|o'?clock|h|hours?|hrs?|mins?|minutes?)\b)`,
    total(1),
  ],
  [
    `(?:we(?:'re| are| will be|'ll be)|there (?:are|will be|'ll be|'re))\\s+(${SPELLED_OR_DIGITS})(?:\\s+of us)?`,
    total(1),
  ],
  [
    // "the two of us"; "the two of us next to him" may leave out the one next to whom (see decide).
    `(?:the\\s+)?(${SPELLED_OR_DIGITS})\\s+of us`,
    (m) => {
      const n = parseCount(m[1] ?? '');
      // "One of us is in a wheelchair", "one of us uses a stick": someone among the party, not its size.
      if (
        n === 1 &&
        /^\s*(?:is|has|uses|needs|will|'s|can|can'?t|won'?t|does|doesn'?t|isn'?t)\b/i.test(
          m.input.slice((m.index ?? 0) + m[0].length),
        )
      )
        return { type: 'said' };
      const [start, end] = clauseAt(m.input, m.index ?? 0);
      const third = /\b(?:him|her)\b/i.test(m.input.slice(start, end));
      return n ? { type: 'total', n, us: true, ...(third && { third }) } : undefined;
    },
  ],
  // "just the two of them", "the 3 of them": the people named, the speaker not among them.
  [`(?:just\\s+|only\\s+)?the\\s+(${SPELLED_OR_DIGITS})\\s+of them`, total(1)],
  [
    `(?:make (?:that|it)|change (?:that|it) to|(?:so\\s+)?back (?:down )?to|just|only|(?:it'?s|we'?re) actually|actually|no,?\\s+(?:wait|sorry),?|sorry,?|i mean)\\s+(${SPELLED_OR_DIGITS})(?:\\s+now)?${NOT_TIME}(?!\\s+\\w+s\\b)`,
    total(1),
  ],
  // Not "one of the wheelchair spaces": one among those on offer, not the party.
  [
    `(?:get|grab|book|reserve|need|want)\\s+(${SPELLED_OR_DIGITS})(?=\\s+(?:for|to|of)\\b)(?!\\s+of\\s+(?:the|those|these|your|its)\\b)`,
    total(1),
  ],
  // "one for encore on tuesday", "2 for the 7pm", "sunday evening, 2 for harbor lights": a count that
  // opens the message or a clause after a comma, before "for".
  [`(?:^|(?<=[,;]\\s*))\\s*(${SPELLED_OR_DIGITS})(?=\\s+for\\b)(?!\\s+for\\s+\\d)`, total(1)],
  // "$30 for both", "tickets for the both of us": two people, unless "both" names days or films.
  [
    String.raw`both of us|us two|us both|(?:the|a)?\s?pair of us|(?:a|our|my|for)\s+date[- ]?night|for (?:the )?both(?!\s+(?:of (?:them|these|those)|days?|films?|movies?|shows?|showings?|times?|dates?|nights?))`,
    () => ({ type: 'total', n: 2 }),
  ],
  [
    String.raw`(?:treat(?:ing)?|spoil(?:ing)?)\s+myself|(?:just|only)\s+(?:me|myself|for me|one)(?!\s*(?:(?:and|&|\+|with|n)\b|${LIST_GOES_ON}))|(?:by|for) myself|on my own|alone|solo|\bsingle (?:ticket|seat)\b|(?<!\b(?:it|them|this|that|these|those|things|stuff|out|up|down|list|options)\s+)for me(?!\s*(?:(?:and|&|\+|with|n)\b|${LIST_GOES_ON}))(?=\s*(?:[.,;!?]|$))`,
    () => ({ type: 'total', n: 1 }),
  ],
  [
    // "I won't be going myself", "I'm not coming": the speaker is not in the party.
    // Only where the clause ends: "I can't make it before 7" is a time.
    String.raw`(?:i(?:'m|\s+am)\s+not|i\s+(?:won'?t|will\s+not|can'?t|cannot|can\s+not)\s+(?:be\s+)?)\s*(?:coming|going|joining|make it|there)(?=\s*(?:myself\s*)?(?:[,.;!?)]|$|(?:so|but|and|though|anyway|this time)\b))|(?:not\s+including|excluding|minus)\s+(?:me|myself)\b`,
    () => ({ type: 'notSelf' }),
  ],
  // "For him and me", "me and her": someone not named (yet), one person.
  [
    String.raw`(?:him|her)(?=\s+(?:and|&)\s+(?:me|i|myself)\b)|(?<=\b(?:me|myself)\s+(?:and|&)\s+)(?:him|her)\b`,
    () => ({ type: 'person', n: 1, ages: [], related: false, standsFor: true }),
  ],
  [
    // "my wife and I", "Sam and me": the speaker in a list; not "I checked my diary and I'm at work".
    String.raw`(?:and|&)\s+(?:me|i|myself)\b`,
    (m) =>
      /\b(?:me|myself)$/i.test(m[0]) || LISTED_PERSON.test(m.input.slice(0, m.index)) ? { type: 'self' } : undefined,
  ],
  [
    String.raw`me\s*(?:,|and|&|\+|with|plus|n)(?=\s)|(?:\bplus|\+)\s*(?:me|myself)\b|(?:with|taking|bringing|take|bring|treating|treat)(?=\s+(?:my|our|the)\s+(?:[\w'-]+\s+){0,3}?(?:${RELATIONS}|${RELATION}|${NAME_LIKE}|year[- ]olds?|y/?o)(?!\w))|(?:with|w|taking|bringing|take|bring)(?=\s+(?:my|our)\s+${SPELLED_OR_DIGITS}\s*\(\s*\d)|(?:take|bring|taking|bringing)\s+(?:him|her|them)\b|with (?:me|us)\b|i'?m (?:coming|going)|i am (?:coming|going)|coming with`,
    () => ({ type: 'self' }),
  ],
];

function total(group: number) {
  return (m: RegExpExecArray): Piece | undefined => {
    const n = parseCount((m[group] ?? '').split(/\s+/)[0] ?? '');
    return n ? { type: 'total', n } : undefined;
  };
}
