import type { TicketTypeId } from '@usher/booking';
import { hits, span } from './match.ts';
import {
  AGED,
  COUNTED_DESCRIBED,
  ELDER_WORDS,
  KIDS_SAID,
  OFFSPRING_WORDS,
  PATTERNS,
  type Piece,
  YOUNG_WORDS,
} from './party-phrases.ts';
import { ADULT_WORDS, CHILD_UNDER, CHILD_WORDS, ratingsForAge, ticketForAge } from './people.ts';
import { clauseAt } from './text.ts';
import type { Draft, Hit, PreferenceContext, Rule, Scan } from './types.ts';

/*
 * Who is coming: seat count, ticket mix, and what a young party may see. A message may name the
 * party in several pieces ("me, my wife and our three kids", "my mum (a pensioner)", "our 2 boys
 * (6 and 9)"), so this rule reads them all (the phrases are in party-phrases.ts) and decides once:
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

/* "Plus a child", "another adult", "my son is coming too", "oh and our daughter", "my niece is coming after all": add to the party already known. */
const ADDING_WORDS =
  /\b(?:plus|another|additional|extra|(?:one|two|three|four|five|\d{1,2}) more|as well|too|also|joining|tagging along|coming along|(?:coming|can come|able to come|free)\s+after all)\b/i;
/** "It's my mum's birthday, add a senior": asked to add, anywhere in the message. */
const ADD_VERB = /\b(?:add|adding)\s+(?:a|an|one|two|three|\d|another|my|our|her|his|the)\b/i;
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

/** "Him plus 4 friends", "her and three mates": the one whose occasion it is, coming with the group. */
const OWNER_COMES =
  /\b(?:him|her)\s+(?:plus|and|&|\+|with)\s+(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|his|her|a few|some)\b/i;

/** The party known with someone in the speaker's place: one grown-up's ticket less, theirs more. */
function inSpeakersPlace(party: NonNullable<PreferenceContext['party']>, standIn: Person): Draft[] {
  const mix = { adult: party.adult ?? 0, child: party.child ?? 0, senior: party.senior ?? 0 };
  if (mix.adult > 0) mix.adult -= 1;
  else if (mix.senior > 0) mix.senior -= 1;
  for (const t of personTickets({ ...standIn, n: 1 })) mix[t] += 1;
  const set = {
    kind: 'ticketMix' as const,
    ...(mix.adult > 0 ? { adult: mix.adult } : {}),
    ...(mix.child > 0 ? { child: mix.child } : {}),
    ...(mix.senior > 0 ? { senior: mix.senior } : {}),
  };
  return [{ set, mode: 'replace' }];
}

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

/** Friends counted as a group: at a child's birthday, children like the child. */
const FRIENDS = /^(?:friends|mates|pals|buddies|classmates|schoolfriends|school friends)$/i;

/** Age statements join the companion named just before them. */
function attachAges(pieces: Piece[], birthday = false): Piece[] {
  const out = attachEach(pieces);
  // "My son's 8th birthday, me and him and 3 of his friends": a child's friends are children too;
  // at a child's birthday, so are friends counted without anyone's ("him and 4 friends").
  const child = out.find(
    (q): q is Person => q.type === 'person' && q.ages.length > 0 && q.ages.every((a) => a < CHILD_UNDER),
  );
  for (const q of out) {
    const friends = q.type === 'person' && (q.theirs || (birthday && !q.related && FRIENDS.test(q.words ?? '')));
    if (child && q.type === 'person' && friends && q.ages.length === 0 && !q.ticket) {
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
      // so far, the speaker's too when among them; said of nobody, of everyone counted. "Both" right
      // after two people named as one ("my fiancé and his parents (both retired)") is of those two.
      const pair = unaged.at(-1);
      const ofPair = p.n === 2 && !p.we && pair?.n === 2 && unaged.length > 1;
      for (const q of ofPair && pair ? [pair] : unaged) if (!q.ticket) q.ticket = p.ticket;
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
      // "my kids (both 7)": "both" counts the people it speaks of.
      const n = last.n ?? p.n ?? Math.max(1, p.ages.length);
      const ages = p.ages.length === 0 ? [] : p.ages.length === 1 ? Array(n).fill(p.ages[0]) : p.ages;
      Object.assign(last, { n, ages, ...(p.ticket ? { ticket: p.ticket } : {}) });
    } else if (p.type === 'about' && p.pronoun && last && (last.n ?? 1) === 1 && p.ages.length === 1) {
      // "my nan's 90th - she's 90": the one person named just before, said again; no one more.
      last.ages = [p.ages[0] as number];
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
 * "two seniors and their grandson", "a teenager and me", "me and one adult", "3 students and 1
 * teacher"): one more than the
 * counts, not among them as in "2 adults and 2 kids: me, my wife and our two boys".
 */
function addedToCounts(found: Array<{ hit: Hit; piece: Piece }>, text: string): boolean {
  return found.some((f, i) => {
    const next = found[i + 1];
    if (!next) return false;
    // "Me and a teenager": the speaker, then the counts.
    const afterCounts = f.piece.type === 'typed' && (next.piece.type === 'person' || next.piece.type === 'self');
    // "3 students and 1 teacher": a group counted, then counts by type joined to it.
    const groupFirst =
      f.piece.type === 'person' && !f.piece.related && f.piece.n !== undefined && next.piece.type === 'typed';
    if (!afterCounts && !groupFirst && !(f.piece.type === 'self' && next.piece.type === 'typed')) return false;
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
  // "My son's 10th birthday: him plus 4 friends": "him" is the one person named before, said to come.
  const standIn = found.findIndex((p) => p.type === 'person' && p.standsFor);
  const stoodFor = [...found.slice(0, Math.max(0, standIn))]
    .reverse()
    .find((p): p is Person => p.type === 'person' && !p.standsFor && p.n === 1);
  if (standIn >= 0 && stoodFor) stoodFor.related = false;
  // "My son's 10th birthday: him plus 4 friends": "him", said with the group, is the one person
  // named before it, and comes.
  const occasion = found[0]?.type === 'person' && found[0].n === 1 ? found[0] : undefined;
  if (standIn < 0 && occasion && OWNER_COMES.test(scan.original)) occasion.related = false;
  const birthday = /\bbirthday\b/i.test(scan.original);
  const heard = namedAgain(
    attachAges(standing ? found.filter((p) => !(p.type === 'person' && p.standsFor)) : found, birthday),
  );
  // "My daughter's sleepover, 5 girls": the owner of the occasion is one of a group counted by
  // number, not one more.
  const grouped = heard.some((p) => (p.type === 'person' && !p.owner && (p.n ?? 0) >= 2) || p.type === 'typed');
  const pieces = heard.filter(
    (p) => !(p.type === 'person' && p.owner && (grouped || (p.owner === 'theirs' && !listed))),
  );
  const people = pieces.filter((p): p is Person => p.type === 'person');
  // "His grandad's taking him instead of me": the party known, with that person in the speaker's seat.
  const inPlace = people.find((p) => p.inPlaceOfSpeaker);
  if (inPlace && scan.context.party) return inSpeakersPlace(scan.context.party, inPlace);
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
  // "1 ticket plus my carer": the people said on top of the count are more than it.
  const beyond = people.filter((p) => p.beyondCount).reduce((sum, p) => sum + (p.n ?? 1), 0);
  const total = totals.length > 0 ? (totals[totals.length - 1] as { n: number }).n + beyond : undefined;
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
    (ADDING.test(said) || ADD_VERB.test(scan.original)) &&
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
  const droppedAll = pieces.filter((p): p is Extract<Piece, { type: 'dropped' }> => p.type === 'dropped');
  // "One less, my friend dropped out": the one less is the friend, not another.
  const whoDropped = droppedAll.filter((d) => d.words !== '');
  const dropped = whoDropped.length > 0 ? whoDropped : droppedAll;
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
