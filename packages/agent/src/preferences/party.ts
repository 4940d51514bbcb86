import type { TicketTypeId } from '@usher/booking';
import { hits, span } from './match.ts';
import { COUNT, parseCount, SPELLED_OR_DIGITS } from './numbers.ts';
import {
  ADULT_WORDS,
  CHILD_UNDER,
  CHILD_WORDS,
  NOT_AN_AGE,
  PAIRS,
  RELATION,
  RELATIONS,
  ratingsForAge,
  ticketForAge,
} from './people.ts';
import { clauseAt } from './text.ts';
import type { Draft, Hit, PreferenceContext, Rule, Scan } from './types.ts';

/*
 * Who is coming: seat count, ticket mix, and what a young party may see. A message may name the
 * party in several pieces ("me, my wife and our three kids", "my mum (a pensioner)", "our 2 boys
 * (6 and 9)"), so this rule reads them all and decides once:
 * - typed counts ("two adults", "a child", "a senior", "one grown-up and three little ones") give a
 *   ticket mix;
 * - a stated total ("4 tickets", "for three people", "make that 4", "just 2 now") gives the count,
 *   and people in it without a type are adults;
 * - companions ("me and my bf", "me + 3 mates", "with my dad") are counted with the speaker, only
 *   when the message says the speaker comes along: "my husband uses a wheelchair" alone does not
 *   say who is coming;
 * - ages ("my 8 year old daughter", "she's 5", "who is 68", "both over 70", "(6 and 9)") and words
 *   ("kids", "pensioner") give companions their ticket (people.ts); an age statement belongs to
 *   the companion named just before it;
 * - the youngest person's age gives an implied age rating (a child: G or PG), which the merge uses
 *   only when no film is named and no age rating said.
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
const COUNTED_DESCRIBED = String.raw`(?<!\brows?\s+)\b(${SPELLED_OR_DIGITS})(?!\s*(?:am|pm|o'?clock)\b)(?=\s+(?:of the\s+)?(?:(?:${DESCRIBING}\s+){1,2}(?:tickets?|seats?|people|persons|students)|(?:[a-z][a-z'-]*\s+){1,3}(?:tickets|seats)|(?:${DESCRIBING}\s+){0,2}(?:recliners|loungers))\b)`;
const AGE = String.raw`(\d{1,2})(?:\s*(?:years?|yrs?|y/?o)(?:[- ]old)?)?`;
const YEAR_OLD = String.raw`(\d{1,2})[- ](?:years?|yrs?)[- ]olds?|(\d{1,2})\s*y/?o`;
/** "my 8 year old daughter": read in the whole message, since "suitable for a 6 year old" is a rating and a person. */
const AGED = String.raw`(?:(my|our|his|her|their|a|an|the)\s+)?(?:(${SPELLED_OR_DIGITS})\s+)?(?:${YEAR_OLD})(?:\s+(${RELATIONS}|${RELATION}))?`;
/** A word before a relation that does not change who they are: "my little boy", "our eldest daughter". */
const KIN_ADJECTIVE = String.raw`(?:(?:little|young|younger|youngest|elderly|old|older|oldest|eldest|big|baby|teenage|middle|wee|lovely|dear)\s+)?`;

/** More ages in a list after the first: "4, 7 and 10", "6 & 9". */
const AGE_MORE = String.raw`(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\d{1,2}(?!\d))*`;
/** After a relation word: it names the owner of what follows ("my daughter's sleepover"), not one coming. */
const OWNER_AFTER =
  /^'s\s+(?!(?:coming|going|joining|also|too|in|here|gonna|been|not|a|an|the|only|just|now|got|had|on|off|over|under|aged|age|\d)\b)[a-z]/i;
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
type Piece =
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

/** Whether an age said of "both" or "all" includes the speaker: "my wife and I are both", "both of us", "we're all". */
function speakerAmong(m: RegExpExecArray): boolean {
  const before = m.input.slice(Math.max(0, (m.index ?? 0) - 20), m.index);
  if (/\b(?:we(?:'re|\s+are)?|(?:and|&)\s+(?:i|me|myself)(?:\s+are)?)\s*$/i.test(before) || /\bof us\b/i.test(m[0]))
    return true;
  // "me and my wife, both over 65": said right after a list that names the speaker.
  const [start] = clauseAt(m.input, Math.max(0, (m.index ?? 0) - 2));
  return (
    /,\s*$/.test(before) &&
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
const ELDER_WORDS =
  /^(?:mum|mom|mommy|mummy|mother|dad|daddy|father|grandad|granddad|grandpa|grandma|gran|granny|nan|nana|nanna|grandmother|grandfather|parents|grandparents)$/i;

/** Words that say the person is young ("our 2 boys", "my lad"): a child's ticket unless an age says otherwise. */
const YOUNG_WORDS = /^(?:little (?:girl|boy|one)s?|boys?|girls?|lads?|lass(?:es)?|nippers?|youngsters?)$/i;
/** Children of someone, of any age: a child's ticket when the message speaks of kids ("for the kids"). */
const OFFSPRING_WORDS = /^(?:sons?|daughters?|nephews?|nieces?|grandsons?|granddaughters?)$/i;
/** A message that speaks of kids: the sons and daughters in it are children. */
const KIDS_SAID = /\b(?:kids|children|family|kid[- ]friendly|little ones|for the kid)\b/i;

const PATTERNS: Array<[string, (m: RegExpExecArray) => Piece | undefined]> = [
  [
    // "One of them is a senior actually", "two of us are pensioners": of the party known, that many
    // take that ticket, the party's size staying.
    String.raw`(${SPELLED_OR_DIGITS})\s+of\s+(?:them|us|those|the adults)\s+(?:is|are|'s|will be)\s+(?:actually\s+|also\s+|really\s+)?(?:an?\s+)?(senior|pensioner|oap|child|kid)s?\b`,
    (m) => {
      const n = countOf(m[1]);
      const ticket: TicketTypeId = /^(?:senior|pensioner|oap)$/i.test(m[2] ?? '') ? 'senior' : 'child';
      return n ? { type: 'about', ages: [], ticket, pronoun: true, n } : undefined;
    },
  ],
  [
    // "my husband (72) and I (70)": the speaker's age in brackets.
    String.raw`(?<=\b(?:and|&)\s+)(?:i|me|myself)\s*\(\s*(\d{1,2})\s*\)`,
    (m) => ({ type: 'self', age: Number(m[1]) }),
  ],
  [
    // "4 friends from school, all around the same age": as old as the one whose age was said.
    String.raw`(?:(?:all|both)\s+)?(?:(?:around|about|roughly|much|pretty much|more or less)\s+)?the same age(?:\s+as\s+(?:her|him|them|my\s+[a-z]+))?`,
    () => ({ type: 'about', ages: [], same: true }),
  ],
  [
    // "one of the kids can't make it", "my brother can't come after all", "two of us have dropped out".
    String.raw`(?:(${SPELLED_OR_DIGITS})\s+of\s+(?:the|my|our)\s+(kids|children|little ones|adults|grown[- ]?ups|seniors|${RELATIONS})|(${SPELLED_OR_DIGITS})\s+of\s+us|(?:my|our|the)\s+(?:[a-z]+'s\s+)?(${RELATION}|${RELATIONS}))\s+(?:now\s+|also\s+)?(?:can'?t|cannot|can no longer|won'?t|will not|isn'?t|aren'?t|is not|are not|is no longer|are no longer|couldn'?t|(?:has|have)\s+(?:dropped|pulled)\s+out|dropped out|pulled out)(?:\s+(?:come|make it|coming|going|join(?:ing)?(?:\s+us)?|be there|go|attend)(?:\s+after all)?)(?=\s*(?:[,.;!?)]|$|after all|anymore|any more|now|today|tonight|so|but|and))`,
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
  [`(?:party|group) of\\s+(${SPELLED_OR_DIGITS})`, total(1)],
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
    // "4 friends (all 7 or 8)", "(both 10)": one age, the youngest said, for each of the people just named.
    String.raw`\(\s*(?:all|both|each)\s+(?:aged\s+)?(\d{1,2})(?:\s*(?:or|-|to|and|/)\s*\d{1,2})?\s*\)`,
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
      const owner = OWNER_AFTER.test(m.input.slice((m.index ?? 0) + m[0].length));
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
    // "w my 2 (4 & 6)", "taking my 3 (5, 7, 9)": the count of the ages in brackets that follow, read with them.
    String.raw`(?:my|our)\s+(${SPELLED_OR_DIGITS})(?=\s*\(\s*(\d{1,2}(?:\s*(?:and|&|,)\s*\d{1,2})*)\s*\))`,
    (m) => (countOf(m[1]) === (m[2]?.match(/\d{1,2}/g) ?? []).length ? { type: 'said' } : undefined),
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
    `(${SPELLED_OR_DIGITS}|a couple of|a pair of)\\s+(?:(more|extra|additional|other)\\s+)?(?:tickets?|seats?|people|persons|guests|spots|places)`,
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
  [
    `(?:tickets?|seats?|table|room)\\s+for\\s+(${SPELLED_OR_DIGITS})(?!\\s*(?:am|pm|:|o'?clock|h\\b))(?:\\s+(?:people|persons|of us))?`,
    total(1),
  ],
  [
    `for\\s+(one|two|three|four|five|six|seven|eight|nine|ten|\\d{1,2}\\s+(?:people|persons|of us|guests))(?:\\s+(?:people|persons|of us))?(?!\\s*(?:am|pm|:|o'?clock))`,
    total(1),
  ],
  // "tomorrow for 4, all together": a count after "for" that a comma ends is the party, not 4pm.
  [String.raw`(?<!\b(?:at|showing|show|screening|start|starts|until|till)\s+)for\s+(\d{1,2})(?=\s*[,;])`, total(1)],
  // "tonight for 2", "orbital drift tomorrow for 3": a small count after "for" is the party; nobody
  // writes "for 3" for a 3pm start. From 7 up it could be an evening hour ("for 7"), so that stays a question.
  [
    String.raw`(?<!\b(?:at|showing|show|screening|start|starts|until|till|by|before|after|around)\s+)for\s+([1-6])(?![\w:]|\.\d|\s*(?:am|pm|a\.m|p\.m|o'?clock|h|hours?|hrs?|mins?|minutes?)\b)`,
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
    String.raw`both of us|us two|us both|(?:the|a)?\s?pair of us|for (?:the )?both(?!\s+(?:of (?:them|these|those)|days?|films?|movies?|shows?|showings?|times?|dates?|nights?))`,
    () => ({ type: 'total', n: 2 }),
  ],
  [
    String.raw`(?:treat(?:ing)?|spoil(?:ing)?)\s+myself|(?:just|only)\s+(?:me|myself|for me|one)(?!\s*(?:(?:and|&|\+|with|n)\b|${LIST_GOES_ON}))|(?:by|for) myself|on my own|alone|solo|a single ticket|(?<!\b(?:it|them|this|that|these|those|things|stuff|out|up|down|list|options)\s+)for me(?!\s*(?:(?:and|&|\+|with|n)\b|${LIST_GOES_ON}))(?=\s*(?:[.,;!?]|$))`,
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

const NOT_THEIR_TICKET =
  /\b(?:not|instead of|rather than)\s+(?:a\s+|an\s+|the\s+|\d{1,2}\s+|two\s+|three\s+|four\s+|five\s+)?(?:adult|child|kid|senior|pensioner)(?:'s|s)?(?:\s+(?:ones?|prices?|tickets?|fares?|rates?))?\b|\btoo\s+(?:old|young)\s+for\s+(?:the\s+|a\s+|an\s+)?(?:adult|child|kid|senior|pensioner|student)(?:'s|s)?(?:\s+(?:price|prices|ticket|tickets|fare|fares|discount|rate))?|\b(?:a\s+|the\s+)?student\s+(?:prices?|tickets?|discounts?|rates?|fares?|cards?|ids?|concessions?)\b/gi;

/** A party counted in numbers ("2 adults and 2 children", "my two girls"): the children are among them. */
const COUNTED_ELSEWHERE =
  /\b(?:\d{1,2}|two|three|four|five|six)\s+(?:adults?|kids?|children|people|tickets?|of us|girls|boys|daughters|sons|little ones)\b/i;

/**
 * "the little one naps", "the youngest gets scared": one of the people already counted, named
 * again; blanked when the message counts its party otherwise.
 */
const NAMED_AGAIN =
  /\bthe\s+(?:little\s+one|baby|youngest|eldest|oldest|little\s+(?:girl|boy)|toddler)\b|\bboth\s+(?:kids|children|boys|girls|of them)\b/gi;

/* "Plus a child", "another adult", "my son is coming too", "oh and our daughter": add to the party already known. */
const ADDING_WORDS =
  /\b(?:plus|another|additional|extra|(?:one|two|three|four|five|\d{1,2}) more|as well|too|also|joining|tagging along|coming along)\b/i;
const ADDING = new RegExp(String.raw`${ADDING_WORDS.source}|^\W*(?:(?:oh|ah|um|wait|sorry|also)\W+)?and\s`, 'i');
/*
 * "Oh and my husband's hard of hearing": "and" opens something said of someone, who may be among
 * the people counted already; not one more unless said to come ("oh and my mum's coming").
 */
const DESCRIBES_SOMEONE =
  /^\W*(?:(?:oh|ah|um|wait|sorry|also)\W+)?and\s+(?:my|our|the|his|her|their)\s+(?:[a-z]+\s+)?[a-z]+(?:'s|\s+is|\s+has|\s+needs|\s+uses|\s+can'?t|\s+cannot|\s+likes|\s+hates|\s+gets|\s+prefers|\s+struggles|\s+would|\s+wants)\s+(?!(?:coming|joining|tagging|going|also|too|in|with|now)\b)/i;
/* "Plus me", "+ myself": the speaker named in the list, nobody added. */
const PLUS_ME = /(?:\bplus|\+)\s*(?:me|myself)\b/gi;
/* "So that's me, her and the twins", "that makes five of us", "in total": the whole party said again. */
const RESTATING =
  /\b(?:(?:so\s+)?(?:that(?:'s| is| makes|'ll be| will be)|it(?:'s| is|'ll be| will be)|making it)\s+(?:just\s+|only\s+)?(?:me|myself|us|the\s+\w+\s+of\s+us|\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\b|in total|altogether)/i;
/* "No, just one adult": a correction of the named ticket types only. */
const CORRECTING = /\b(?:no|just|only|actually|make it|make that|instead|sorry|change)\b/i;

/** Seat count, ticket mix and implied age rating from every piece of the party the message names. */
export const partyRule: Rule = (input) => {
  // "He's too old for the child price", "a senior ticket, not an adult one": a ticket someone does
  // not get names nobody.
  const blanked = input.text.replace(NOT_THEIR_TICKET, (m) => ' '.repeat(m.length));
  const counted = COUNTED_ELSEWHERE.test(blanked.replace(NAMED_AGAIN, ''));
  const scan = { ...input, text: counted ? blanked.replace(NAMED_AGAIN, (m) => ' '.repeat(m.length)) : blanked };
  const found: Array<{ hit: Hit; piece: Piece }> = [];
  for (const [source, read] of PATTERNS) {
    hits(source === AGED || source === COUNTED_DESCRIBED ? { ...scan, text: scan.original } : scan, source, (m) => {
      const hit: Hit = { ...span(m), drafts: [] };
      const piece = read(m);
      // Earlier patterns are more specific: "two adults" is not also "two … people".
      if (piece && !found.some((f) => f.hit.start < hit.end && hit.start < f.hit.end)) found.push({ hit, piece });
      return undefined;
    });
  }
  if (found.length === 0) return [];
  found.sort((a, b) => a.hit.start - b.hit.start);
  // "Just me and the kids", once the party is known: as many kids as it has.
  const kids = input.context.party?.child ?? 0;
  for (const { piece } of found) {
    if (kids > 0 && piece.type === 'person' && piece.n === undefined && CHILD_WORDS.test(piece.words ?? ''))
      Object.assign(piece, { n: kids, ticket: 'child' });
  }
  // A child counted by type ("add a child ticket") is the son or niece named, not one more.
  const typedChild = found.some(({ piece }) => piece.type === 'typed' && piece.ticket === 'child');
  if (KIDS_SAID.test(scan.original) && !typedChild) {
    for (const { piece } of found) {
      if (piece.type === 'person' && piece.offspring && !piece.ticket && piece.ages.length === 0)
        piece.ticket = 'child';
    }
  }
  const first = found[0]?.hit as Hit;
  return [
    {
      ...first,
      drafts: decide(
        found.map((f) => f.piece),
        scan,
        first.start,
        namedAsList(found, scan.original),
        ticketsAfterPeople(found, scan.original),
        addedToCounts(found, scan.original),
      ),
    },
    ...found.slice(1).map((f) => f.hit),
  ];
};

type Person = Extract<Piece, { type: 'person' }>;

/**
 * Whether the counts by type are said after everyone named, as their tickets: in a later sentence
 * ("me and my wife. two adult tickets") or as tickets ("my son and I, 2 adult tickets"); not "me
 * and 2 kids and 1 adult friend", where the counts name more people.
 */
function ticketsAfterPeople(found: ReadonlyArray<{ hit: Hit; piece: Piece }>, text: string): boolean {
  const named = found.filter((f) => f.piece.type === 'self' || f.piece.type === 'person');
  const typed = found.filter((f) => f.piece.type === 'typed');
  const lastNamed = named.at(-1);
  const firstTyped = typed[0];
  if (!lastNamed || !firstTyped || firstTyped.hit.start < lastNamed.hit.end) return false;
  return (
    /[.!?;]/.test(text.slice(lastNamed.hit.end, firstTyped.hit.start)) ||
    typed.every((f) => /tickets?\s*$/i.test(text.slice(f.hit.start, f.hit.end)))
  );
}

/** The tickets of people named: as said, by their ages, by their words, else adults. */
function personTickets(p: Person, young?: TicketTypeId): TicketTypeId[] {
  if (p.ticketSaid && p.ticket) return Array(p.n ?? 1).fill(p.ticket);
  return p.ages.length > 0 ? p.ages.map(ticketForAge) : Array(p.n ?? 0).fill(p.ticket ?? young ?? 'adult');
}

/**
 * The party said again ("so that's me, her and the twins", after "the twins (they're 8)"): people
 * of no type in this message keep the children's and seniors' tickets the party had and this
 * message does not account for; grown-up words ("my wife") never take a child's. Not when the
 * message adds people or counts tickets by type.
 */
function remembered(
  counted: Person[],
  party: PreferenceContext['party'],
  selfTicket: TicketTypeId | undefined,
  skip: boolean,
): Map<Person, TicketTypeId[]> {
  const out = new Map<Person, TicketTypeId[]>();
  if (!party || skip) return out;
  const open = (p: Person) => p.ages.length === 0 && !p.ticket && p.n !== undefined;
  const left = { child: party.child ?? 0, senior: party.senior ?? 0 };
  const known = [
    ...(selfTicket ? [selfTicket] : []),
    ...counted.filter((p) => !open(p)).flatMap((p) => personTickets(p)),
  ];
  for (const t of known) if (t !== 'adult') left[t] -= 1;
  for (const p of counted.filter(open)) {
    const grown = ADULT_WORDS.test(p.words ?? '');
    out.set(
      p,
      Array.from({ length: p.n ?? 0 }, (): TicketTypeId => {
        const t = !grown && left.child > 0 ? 'child' : left.senior > 0 ? 'senior' : 'adult';
        if (t !== 'adult') left[t] -= 1;
        return t;
      }),
    );
  }
  return out;
}

/** Age statements join the companion named just before them. */
function attachAges(pieces: Piece[]): Piece[] {
  const out = attachEach(pieces);
  // "My son's 8th birthday, me and him and 3 of his friends": a child's friends are children too.
  const child = out.find(
    (q): q is Person => q.type === 'person' && q.ages.length > 0 && q.ages.every((a) => a < CHILD_UNDER),
  );
  for (const q of out) {
    if (child && q.type === 'person' && q.theirs && q.ages.length === 0 && !q.ticket) {
      Object.assign(q, { ages: Array(q.n ?? 1).fill(child.ages[0]) });
    }
  }
  return out;
}

function attachEach(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    if (p.type === 'about' && p.same) {
      // "My daughter turns 9 … 4 friends, all around the same age": her age is theirs.
      const aged = out.find((q): q is Person => q.type === 'person' && q.ages.length > 0);
      const target = [...out].reverse().find((q): q is Person => q.type === 'person' && q.ages.length === 0);
      if (aged && target) Object.assign(target, { n: target.n ?? 1, ages: Array(target.n ?? 1).fill(aged.ages[0]) });
      continue;
    }
    const previous = [...out].reverse().find((q) => q.type === 'person' || q.type === 'typed');
    if (p.type === 'about' && previous?.type === 'typed' && p.ages.length > 0) {
      // "two kids (4 and 7)": the ages are of the typed people just named.
      const ages = p.ages.length === 1 ? Array(previous.n).fill(p.ages[0]) : p.ages;
      out.splice(out.indexOf(previous), 1, { type: 'person', n: ages.length, ages, related: false });
      continue;
    }
    const unaged = out.filter((q): q is Person => q.type === 'person' && q.ages.length === 0);
    if (p.type === 'about' && p.all && p.ages.length === 0 && p.ticket) {
      // "My husband and I are both retired", "my parents, all retired": the ticket of everyone named
      // so far, the speaker's too when among them; said of nobody, of everyone counted.
      for (const q of unaged) if (!q.ticket) q.ticket = p.ticket;
      const speaker = out.find((q): q is Extract<Piece, { type: 'self' }> => q.type === 'self');
      if (p.we && speaker && !speaker.ticket) speaker.ticket = p.ticket;
      if (unaged.length === 0 && !speaker) out.push({ type: 'allOf', ticket: p.ticket, ...(p.n && { n: p.n }) });
      continue;
    }
    if (p.type === 'about' && p.all && p.ages.length === 1 && unaged.length > 0) {
      // "My nan and grandad, both in their 80s": the age is everyone's named so far.
      for (const q of unaged) Object.assign(q, { n: q.n ?? 1, ages: Array(q.n ?? 1).fill(p.ages[0]) });
      continue;
    }
    if (p.type === 'about' && p.all && p.ages.length === 1 && !out.some((q) => q.type === 'person')) {
      // "Three of us, all well over 70": said of everyone, with nobody named, it is everyone's ticket.
      out.push({ type: 'allOf', ticket: ticketForAge(p.ages[0] as number), ...(p.n && { n: p.n }) });
      continue;
    }
    const last = [...out].reverse().find((q): q is Person => q.type === 'person');
    if (p.type === 'about' && p.pronoun && p.ages.length === 0 && p.ticket && last) {
      // "my dad … he's 70 so he'll need a senior ticket", "my 15 year old (he's on an adult ticket
      // now)": the same person, on the ticket said whatever their age.
      Object.assign(last, { ticket: p.ticket, ticketSaid: true });
      continue;
    }
    const speaker = out.find((q): q is Extract<Piece, { type: 'self' }> => q.type === 'self' && q.age === undefined);
    const sharing = out.filter((q): q is Person => q.type === 'person' && q.ages.length === 0 && q.n !== undefined);
    if (
      p.type === 'about' &&
      speaker &&
      p.ages.length > 1 &&
      p.ages.length === 1 + sharing.reduce((sum, q) => sum + (q.n ?? 0), 0)
    ) {
      // "My wife and I (72 and 70)", "me and my son, 40 and 8": one age each, the speaker's among
      // them, in the order they were named.
      const ages = [...p.ages];
      for (const q of out) {
        if (q === speaker) speaker.age = ages.shift();
        else if (sharing.includes(q as Person)) (q as Person).ages = ages.splice(0, (q as Person).n ?? 0);
      }
      continue;
    }
    if (p.type === 'about' && sharing.length > 1 && p.ages.length === sharing.reduce((sum, q) => sum + (q.n ?? 0), 0)) {
      // "my mum and dad, they're 70 and 72", "my son and daughter (5 and 9)": one age each, in order.
      const ages = [...p.ages];
      for (const q of sharing) q.ages = ages.splice(0, q.n ?? 0);
      continue;
    }
    if (p.type === 'about' && last && last.ages.length === 0) {
      const n = last.n ?? Math.max(1, p.ages.length);
      const ages = p.ages.length === 0 ? [] : p.ages.length === 1 ? Array(n).fill(p.ages[0]) : p.ages;
      Object.assign(last, { n, ages, ...(p.ticket ? { ticket: p.ticket } : {}) });
    } else if (p.type === 'about' && (p.ages.length > 0 || p.ticket)) {
      // Said of nobody named before ("Grandma (a senior)", "two of us are pensioners"): people of their own.
      const n = Math.max(p.n ?? 1, p.ages.length);
      const extra = { ...(p.ticket ? { ticket: p.ticket } : {}), ...(p.pronoun ? { pronoun: true } : {}) };
      out.push({ type: 'person', n, ages: p.ages, related: false, ...extra });
    } else if (p.type !== 'about') out.push(p);
  }
  return out;
}

/** The words that join people in a list: "and", "&", "+", "plus"; with people added to others, "with". */
const AND = String.raw`(?:and|&|\+|plus)`;
const AND_WITH = String.raw`(?:and|&|\+|plus|with)`;
const LIST_BETWEEN = new RegExp(String.raw`^\s*(?:,|,?\s*${AND})\s*(?:(?:the|my|our|his|her|their)\s+)?$`, 'i');
const JOINER_ENDS = /(?:\b(?:and|plus|with)|&|\+)\s*$/i;
const JOINER_STARTS = new RegExp(String.raw`^${AND_WITH}\s`, 'i');
const JOINER_BETWEEN = new RegExp(String.raw`^\s*,?\s*${AND_WITH}\s*$`, 'i');

/**
 * Whether people are named as a list ("grandad and the 3 grandkids", "my wife, my mum and my
 * sister"): they are who is coming, even when the speaker is not said to come along.
 */
function namedAsList(found: Array<{ hit: Hit; piece: Piece }>, text: string): boolean {
  const people = found.filter((f) => f.piece.type === 'person' || f.piece.type === 'typed');
  return people.some((f, i) => {
    const next = people[i + 1];
    const between = next === undefined ? '' : text.slice(f.hit.end, next.hit.start);
    return next !== undefined && LIST_BETWEEN.test(between);
  });
}

/**
 * Whether someone is named right after counts by type, in the same list ("2 adults and our son",
 * "two seniors and their grandson", "a teenager and me", "me and one adult"): one more than the
 * counts, not among them as in "2 adults and 2 kids: me, my wife and our two boys".
 */
function addedToCounts(found: Array<{ hit: Hit; piece: Piece }>, text: string): boolean {
  return found.some((f, i) => {
    const next = found[i + 1];
    if (!next) return false;
    // "Me and a teenager": the speaker, then the counts.
    const afterCounts = f.piece.type === 'typed' && (next.piece.type === 'person' || next.piece.type === 'self');
    if (!afterCounts && !(f.piece.type === 'self' && next.piece.type === 'typed')) return false;
    const between = text.slice(f.hit.end, next.hit.start);
    // "And me", "me and" are read with their "and".
    const joined =
      /^\s*$/.test(between) &&
      (JOINER_ENDS.test(text.slice(f.hit.start, f.hit.end)) ||
        JOINER_STARTS.test(text.slice(next.hit.start, next.hit.end)));
    return joined || JOINER_BETWEEN.test(between);
  });
}

/**
 * The same people named twice ("the kids (5 and 9) need to be in bed … me, my husband and the
 * kids"): a later or earlier mention without a number is the one that has it, not more people.
 */
function namedAgain(pieces: Piece[]): Piece[] {
  const kept: Person[] = [];
  return pieces.filter((p) => {
    if (p.type !== 'person' || !p.words) return true;
    if (p.n === undefined) {
      // "my twins, they're 9 … the girls are happy to sit apart": children named again by what they are.
      const young = CHILD_WORDS.test(p.words) || YOUNG_WORDS.test(p.words);
      const before = pieces.slice(0, pieces.indexOf(p));
      const children = (q: Piece) =>
        q.type === 'person' &&
        q.n !== undefined &&
        q.n > 1 &&
        (q.ticket === 'child' || (q.ages.length > 0 && q.ages.every((a) => a < CHILD_UNDER)));
      if (young && before.some(children)) return false;
      return !pieces.some((q) => q !== p && q.type === 'person' && q.words === p.words && q.n !== undefined);
    }
    // "my partner … my partner", "the twins … the twins": as many again by the same word are the same people.
    const same = kept.find((q) => q.words === p.words && q.n === p.n);
    if (!same) {
      kept.push(p);
      return true;
    }
    if (same.ages.length === 0) same.ages = p.ages;
    if (!same.ticket && p.ticket) same.ticket = p.ticket;
    if (!p.owner) delete same.owner;
    return false;
  });
}

function decide(
  found: Piece[],
  scan: Scan,
  at: number,
  listed: boolean,
  ticketsAfter: boolean,
  joinedToCounts: boolean,
): Draft[] {
  // "My boy is 4 … for him and me": "him" is someone named, and is one more only when no one is
  // named and no party is known.
  const standing = found.some((p) => p.type === 'person' && !p.standsFor) || scan.context.partySize !== undefined;
  const heard = namedAgain(attachAges(standing ? found.filter((p) => !(p.type === 'person' && p.standsFor)) : found));
  // "My daughter's sleepover, 5 girls": the owner of the occasion is one of a group counted by
  // number, not one more.
  const grouped = heard.some((p) => (p.type === 'person' && !p.owner && (p.n ?? 0) >= 2) || p.type === 'typed');
  const pieces = heard.filter(
    (p) => !(p.type === 'person' && p.owner && (grouped || (p.owner === 'theirs' && !listed))),
  );
  const people = pieces.filter((p): p is Person => p.type === 'person');
  // "I won't be going myself": whoever is named is the party, without the speaker.
  const notSelf = pieces.some((p) => p.type === 'notSelf');
  const self = !notSelf && pieces.some((p) => p.type === 'self');
  // The speaker's own age ("I'm 71") gives them a ticket other than an adult's.
  // "For my wife and myself; we are both 78": an age said of "we" is the speaker's too.
  const agedAll = found.find(
    (p): p is Extract<Piece, { type: 'about' }> => p.type === 'about' && p.we === true && p.ages.length === 1,
  )?.ages[0];
  const selfAge =
    pieces.find((p): p is Extract<Piece, { type: 'self' }> => p.type === 'self' && p.age !== undefined)?.age ??
    (self ? agedAll : undefined);
  const selfNamed = pieces.find(
    (p): p is Extract<Piece, { type: 'self' }> => p.type === 'self' && p.ticket !== undefined,
  )?.ticket;
  const selfTicket = selfNamed ?? (selfAge === undefined ? 'adult' : ticketForAge(selfAge));
  // "It's me, him and his sister … a wheelchair space for him with the two of us next to him": when
  // everyone is named and "us" is one fewer, "us" leaves out the one next to whom.
  const everyoneNamed = people.every((p) => p.n !== undefined)
    ? (self ? 1 : 0) + people.reduce((sum, p) => sum + (p.n ?? 0), 0)
    : undefined;
  const totals = pieces.filter((p) => p.type === 'total' && !(p.us && p.third && self && everyoneNamed === p.n + 1));
  const total = totals.length > 0 ? (totals[totals.length - 1] as { n: number }).n : undefined;
  const typed: Partial<Record<TicketTypeId, number>> = {};
  let more = 0;
  for (const p of pieces) {
    if (p.type === 'typed') typed[p.ticket] = (typed[p.ticket] ?? 0) + p.n;
    else if (p.type === 'more') more += p.n;
  }
  const [start, end] = clauseAt(scan.original, at);
  const clause = scan.original.slice(start, end);
  // "Plus me" names the speaker in the list; "so that's me, her and the twins" says the party again.
  const said = clause.replace(PLUS_ME, ' ');
  const adding =
    ADDING.test(said) &&
    !(DESCRIBES_SOMEONE.test(said) && !ADDING_WORDS.test(said)) &&
    total === undefined &&
    !RESTATING.test(scan.original);
  const allOf = pieces.find((p): p is Extract<Piece, { type: 'allOf' }> => p.type === 'allOf');
  const everyone = total ?? allOf?.n;
  if (allOf && everyone !== undefined) {
    const drafts: Draft[] = [
      { set: { kind: 'ticketMix', [allOf.ticket]: everyone }, mode: adding ? 'add' : 'replace' },
    ];
    if (allOf.ticket === 'child') drafts.push({ set: { kind: 'ageRating', allowed: ['G', 'PG'] }, implied: true });
    return drafts;
  }
  // Companions count when the speaker comes along, a total is said or they join ("my son is coming
  // too"); a bare "a 6 year old" always does.
  const counted = people.filter((p) => self || notSelf || adding || total !== undefined || !p.related || listed);
  if (counted.some((p) => p.n === undefined) && total === undefined && Object.keys(typed).length === 0) {
    // "Me and the grandkids": how many is a question, but children are coming all the same.
    const children = counted.some((p) => p.n === undefined && p.ticket === 'child');
    return children ? [{ set: { kind: 'ageRating', allowed: ['G', 'PG'] }, implied: true }] : [];
  }
  // Counts by type that include adults ("2 adults and 2 kids") are the whole party: the people named
  // with them ("we're bringing my nephew", "me, my wife and our son") are among them, not more.
  const stated = { ...typed };
  const namedTypes = found.some((p) => p.type === 'typed');
  // Said first, then who they are; "me and 2 kids and 1 adult friend" names the speaker first and adds to them.
  const firstTyped = found.findIndex((p) => p.type === 'typed');
  const firstNamed = found.findIndex((p) => p.type === 'self' || p.type === 'person');
  // "What's ok for a 6 year old? it'd be 2 adults and 1 kid": someone only described before the
  // counts (no "my", no "me") is among them, as when the counts come first.
  const describedOnly = found
    .slice(0, Math.max(0, firstTyped))
    .every((p) => p.type !== 'self' && (p.type !== 'person' || !p.related));
  const countsFirst = firstTyped >= 0 && (firstNamed < 0 || firstTyped < firstNamed || describedOnly);
  // Counts by type said after the people, as their tickets and as many as they are ("me and my
  // wife. two adult tickets"), are their tickets, not more people.
  const ofNamed: Partial<Record<TicketTypeId, number>> = self ? { [selfTicket]: 1 } : {};
  for (const t of counted.flatMap((p) => personTickets(p))) ofNamed[t] = (ofNamed[t] ?? 0) + 1;
  const namedCount = counted.every((p) => p.n !== undefined)
    ? (self ? 1 : 0) + counted.reduce((sum, p) => sum + (p.n ?? 0), 0)
    : undefined;
  const statedSum = (stated.adult ?? 0) + (stated.child ?? 0) + (stated.senior ?? 0);
  // "One senior ticket (I'm 77)": the speaker alone, described after the tickets, is who they are for.
  const speakerOnly = self && counted.length === 0;
  const theirTickets = (ticketsAfter || speakerOnly) && namedCount !== undefined && statedSum === namedCount;
  // "I'm 74, so one senior ticket": the tickets of exactly the people named, whatever their types.
  const sameTypes =
    theirTickets && (['adult', 'child', 'senior'] as const).every((t) => (stated[t] ?? 0) === (ofNamed[t] ?? 0));
  const wholeParty =
    !adding &&
    !joinedToCounts &&
    total === undefined &&
    (((stated.adult ?? 0) > 0 && (countsFirst || (theirTickets && namedCount > 1))) || sameTypes);
  if (self && selfTicket !== 'adult') typed[selfTicket] = (typed[selfTicket] ?? 0) + 1;
  const ofPeople: Partial<Record<TicketTypeId, number>> = self && selfTicket === 'adult' ? { adult: 1 } : {};
  if (self && selfTicket !== 'adult') ofPeople[selfTicket] = 1;
  const before = remembered(counted, scan.context.party, self ? selfTicket : undefined, adding || namedTypes);
  for (const p of counted) {
    // Among stated children, a son or niece of no stated age is one of them.
    const young = wholeParty && p.offspring && (stated.child ?? 0) > 0 ? 'child' : undefined;
    const tickets = before.get(p) ?? personTickets(p, young);
    for (const t of tickets) {
      typed[t as TicketTypeId] = (typed[t as TicketTypeId] ?? 0) + 1;
      ofPeople[t as TicketTypeId] = (ofPeople[t as TicketTypeId] ?? 0) + 1;
    }
  }
  if (wholeParty && (self || counted.length > 0)) {
    for (const t of ['adult', 'child', 'senior'] as const) {
      const n = Math.max(stated[t] ?? 0, ofPeople[t] ?? 0);
      if (n > 0) typed[t] = n;
      else delete typed[t];
    }
  }
  // "4 tickets, 2 adults and 2 kids: me, my wife and the twins": counts that add up to the total
  // said are the party, and the people named are among them.
  if (!adding && total !== undefined && statedSum === total && (self || counted.length > 0)) {
    for (const t of ['adult', 'child', 'senior'] as const) {
      if ((stated[t] ?? 0) > 0) typed[t] = stated[t] as number;
      else delete typed[t];
    }
  }
  // "One of the kids can't make it": fewer of the party known, of their type.
  const dropped = pieces.filter((p): p is Extract<Piece, { type: 'dropped' }> => p.type === 'dropped');
  // The people described with them ("the 8 year old has a party") are the ones not coming.
  if (dropped.length > 0 && total === undefined && !self && !namedTypes) {
    const party = scan.context.party;
    const fewer: Partial<Record<TicketTypeId, number>> = {};
    for (const d of dropped) {
      const offspring = OFFSPRING_WORDS.test(d.words) || /^(?:sons|daughters)$/.test(d.words);
      // A parent or grandparent of the speaker is the party's senior, when it has one.
      const elder = ELDER_WORDS.test(d.words) && (party?.senior ?? 0) > 0;
      const t = d.ticket ?? (offspring && (party?.child ?? 0) > 0 ? 'child' : elder ? 'senior' : 'adult');
      fewer[t] = (fewer[t] ?? 0) + d.n;
    }
    return [{ set: { kind: 'ticketMix', ...fewer }, mode: 'less' }];
  }
  // "I'm 70", said once the party is known: the speaker's ticket changes, never the party's size.
  const selfOnly = self && counted.length === 0 && total === undefined && !namedTypes && more === 0;
  if (selfOnly && scan.context.partySize !== undefined)
    return [{ set: { kind: 'ticketMix', [selfTicket]: 1 }, mode: 'speaker' }];
  // "My son is actually 13", said once the party is known: his ticket changes, not the party's size.
  const aged = people[0];
  if (
    !self &&
    !notSelf &&
    people.length === 1 &&
    aged?.n === 1 &&
    aged.related &&
    aged.ages.length === 1 &&
    total === undefined &&
    !namedTypes &&
    !adding &&
    scan.context.partySize !== undefined
  ) {
    const ticket = ticketForAge(aged.ages[0] as number);
    const drafts: Draft[] = [{ set: { kind: 'ticketMix', [ticket]: 1 }, mode: 'person' }];
    const allowed = ratingsForAge(aged.ages[0] as number);
    if (allowed) drafts.push({ set: { kind: 'ageRating', allowed }, implied: true });
    return drafts;
  }
  const drafts: Draft[] = [];
  const named = (self ? 1 : 0) + counted.reduce((sum, p) => sum + (p.n ?? 0), 0);
  const typedSum = (typed.adult ?? 0) + (typed.child ?? 0) + (typed.senior ?? 0);
  const special = (typed.child ?? 0) + (typed.senior ?? 0) > 0;
  // "Oh he's 67", "she's 14": said only of someone already in the party, the age changes their
  // ticket and never the party's size.
  const retyped = !self && total === undefined && !namedTypes && counted.length > 0 && counted.every((p) => p.pronoun);
  // People named again where the party had children or seniors: their tickets replace that mix.
  const had = scan.context.party;
  const restated = !retyped && named > 0 && ((had?.child ?? 0) > 0 || (had?.senior ?? 0) > 0);
  if (special || namedTypes || restated) {
    const people_ =
      total !== undefined
        ? Math.max(total, typedSum)
        : typedSum + (self && selfTicket === 'adult' && !wholeParty ? 1 : 0);
    const mix = { ...typed, adult: (typed.adult ?? 0) + Math.max(0, people_ - typedSum) };
    const set = {
      kind: 'ticketMix' as const,
      ...(mix.adult > 0 ? { adult: mix.adult } : {}),
      ...(mix.child ? { child: mix.child } : {}),
      ...(mix.senior ? { senior: mix.senior } : {}),
    };
    const onlyTyped = !self && people.length === 0 && total === undefined;
    const mode = adding
      ? 'add'
      : retyped
        ? 'retype'
        : onlyTyped && CORRECTING.test(scan.original)
          ? 'refine'
          : 'replace';
    drafts.push({ set, mode });
  } else if (adding && !self && !retyped && total === undefined && named > 0)
    // "My husband is coming too": grown-ups added to the party known, whose tickets stay.
    drafts.push({ set: { kind: 'ticketMix', adult: named + more }, mode: 'add' });
  else if (!retyped && (total !== undefined || named > 0))
    drafts.push({ set: { kind: 'seatCount', count: (total ?? named) + more } });
  else if (more > 0) drafts.push({ set: { kind: 'seatCount', count: more }, mode: 'add' });
  const ages = [...counted.flatMap((p) => p.ages), ...(self && selfAge !== undefined ? [selfAge] : [])];
  const youngest = ages.length > 0 ? Math.min(...ages) : (typed.child ?? 0) > 0 ? 0 : undefined;
  const allowed = youngest === undefined ? undefined : ratingsForAge(youngest);
  if (allowed) drafts.push({ set: { kind: 'ageRating', allowed }, implied: true });
  return drafts;
}
