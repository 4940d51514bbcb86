import { theaterNamed } from '@usher/booking';
import { distance } from 'fastest-levenshtein';
import { RELATION, RELATIONS } from './people.ts';
import { swappedOnce } from './spelling.ts';
import { polarity } from './text.ts';
import type { PreferenceModel } from './types.ts';

/*
 * Names the participant wrote, matched once the host shows what it calls them. A theater named
 * before the theater stage is kept as written ("riverside arthouse", "the old mil"); when that
 * stage lists its theaters, a name that fits none of them by the checker's rule (id, whole name,
 * or a shorter name of its words) but fits exactly one as people misspell it (spaces run
 * together or apart, a letter or two off, the start of the name) takes that theater's name.
 * A name that fits none, or several, stays as written: the solver then says which theaters there are.
 */

/** Words that say a place is a cinema without naming it. */
const VENUE_WORDS = /\b(?:cinemas?|theat(?:er|re)s?|multiplex|cineplex|movies|pictures)\b/gi;

/** Letters and digits only, lower case: "Riverside Art House" and "riverside arthouse" read alike. */
const compact = (name: string) =>
  name
    .toLowerCase()
    .replace(/^\s*the\s+/, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** Whether `wanted` is `name` as people mistype it. */
export function looselyNamed(wanted: string, name: string): boolean {
  const w = compact(wanted);
  const n = compact(name);
  if (w.length < 3) return false;
  if (w === n || (w.length >= 4 && n.startsWith(w))) return true;
  const allowed = Math.floor(n.length / 8);
  if (allowed > 0 && distance(w, n) <= allowed) return true;
  // The start of the name, a letter off, left out or added, or two letters swapped: "old mil",
  // "norhtgate", "riversde".
  if (w.length < 5) return false;
  const start = n.slice(0, w.length);
  const near = [w.length - 1, w.length, w.length + 1].some(
    (length) => distance(w, n.slice(0, length)) <= Math.floor(w.length / 6),
  );
  return near || swappedOnce(w, start);
}

/** The model with each theater name that fits exactly one of `theaters` only loosely given that theater's name; null when nothing changed. */
export function matchTheaters(
  model: PreferenceModel,
  theaters: ReadonlyArray<{ id: string; name: string }>,
): PreferenceModel | null {
  let changed = false;
  const fix = (names: string[] | undefined) =>
    names?.map((wanted) => {
      if (theaters.some((t) => theaterNamed(t, wanted))) return wanted;
      // "Lakeside Cinema" for Lakeside 12: the venue word says what it is, not which.
      const bare = wanted.replace(VENUE_WORDS, ' ').trim();
      const loose = theaters.filter(
        (t) => looselyNamed(wanted, t.name) || (bare !== '' && bare !== wanted.trim() && theaterNamed(t, bare)),
      );
      const [only] = loose;
      if (loose.length !== 1 || !only) return wanted;
      changed = true;
      return only.name;
    });
  const mend = <C extends PreferenceModel['soft'][number]>(c: C): C =>
    c.kind === 'theater' ? ({ ...c, ...(c.is && { is: fix(c.is) }), ...(c.not && { not: fix(c.not) }) } as C) : c;
  const next = { ...model, hard: model.hard.map(mend), soft: model.soft.map(mend) };
  return changed ? next : null;
}

/** At most this many places are remembered from a participant's messages. */
export const MAX_PLACES = 8;

/**
 * Places named in lower case that no rule read: "at the old mil", "in riverside arthouse", or said
 * on their own between commas ("2 adults, nortgate stadium"). Before the theater stage nothing says
 * they are theaters, so they are only remembered, as runs of one to four unread words after _at_ or
 * _in_, or as a whole fragment of unread words; {@link theaterFromPlaces} matches them once the stage shows
 * its names. `unread` is the message's words no rule used (`Understanding.unread`).
 */
export function placesNamed(text: string, unread: readonly string[]): string[] {
  const left = unreadSet(unread);
  const said = placesSaid(text, left);
  const alone = placesAlone(text, left);
  // A place opening a clause: "Lakeside tomorrow, whatever starts at 4pm".
  const opening = text
    .toLowerCase()
    .split(/[,.;!?\n]+/)
    .map((fragment) => fragment.trim().split(/\s+/)[0] ?? '')
    .filter((first) => first.length >= 5 && left.has(first))
    .filter((first) => ![...said, ...alone].some((p) => p.split(' ')[0] === first));
  return [...new Set([...said, ...alone, ...opening])].slice(0, MAX_PLACES);
}

/**
 * The places of {@link placesNamed} that the words say are a place: after _at_, _in_ or "make it",
 * before a venue word, or written with a capital inside a sentence. What a whole fragment or a
 * clause's first word guesses is not among them (it is as often a greeting or a verb).
 */
export function placesAnnounced(text: string, unread: readonly string[]): string[] {
  return [...new Set(placesSaid(text, unreadSet(unread)))].slice(0, MAX_PLACES);
}

/**
 * The places of {@link placesAnnounced} said the way a cinema is named: after _at_, "make it" or
 * "go to", before a venue word, or with a capital; not after _in_ ("in daylight", "my car's in the
 * shop"), which as often says something else. Only these rule theaters out.
 */
export function placesInsisted(text: string, unread: readonly string[]): string[] {
  return [...new Set(placesSaid(text, unreadSet(unread), false))].filter(placeLike).slice(0, MAX_PLACES);
}

/*
 * Words after "at" or "in" that name no cinema: "at home", "in town", "in the mood", "in advance",
 * "at the same time", "at least", "in October", "at the weekend". A place whose first word (after
 * "the") is one of these, or a month or a day, is never taken to rule theaters out.
 */
const NOT_A_CINEMA_WORD = new Set(
  (
    'home town city centre center mood advance particular general total all person work school college uni ' +
    'university class bed time times case fact mind row rows front back middle side end start beginning ' +
    'station park pub restaurant cafe bar car area weekend weekends week morning afternoon evening night ' +
    'nights day days daytime future past between least latest earliest most best worst once first last ' +
    'pair pairs two twos three threes cash card english french spanish german public private peace quiet ' +
    'comfort style bulk same moment minute minutes hour hours noon midnight lunch lunchtime dinner ' +
    'teatime bedtime any some this that these those which what a an one my our your his her their its ' +
    'there here full short least random worst risk push latest short notice full price ' +
    'january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday today tonight tomorrow ' +
    'daylight dark shop office gym church hospital doctors dentist airport either neither both more less ' +
    'options option place places venue spot somewhere anywhere everywhere very absolute utmost outside ' +
    'door doors box till tills kiosk entrance counter desk booth machine machines'
  ).split(/\s+/),
);

/** Whether a place remembered from "at …" or "in …" could be a cinema's name. */
export function placeLike(place: string): boolean {
  const words = place
    .toLowerCase()
    .trim()
    .replace(/^the\s+/, '')
    .split(/\s+/);
  // "the cinema" names no one theater.
  const name = words.join(' ').replace(VENUE_WORDS, ' ').trim();
  return name.length >= 4 && !NOT_A_CINEMA_WORD.has(words[0] ?? '') && !/^\d/.test(words[0] ?? '');
}

/** A relation word right before a capitalized word: "our granddaughter Lily" names a person. */
const PERSON_BEFORE = new RegExp(String.raw`\b(?:${RELATION}|${RELATIONS}|called|named)\s+$`, 'i');

const unreadSet = (unread: readonly string[]) => new Set(unread.map((w) => w.toLowerCase()));

/** The longest run of `words` from the start that no rule read. */
function unreadRun(words: readonly string[], left: ReadonlySet<string>): string[] {
  const run: string[] = [];
  for (const w of words) {
    if (!left.has(w)) break;
    run.push(w);
  }
  return run;
}

/** One to three words opening the message or a clause, right before a day or a part of the day. */
const OPENS_BEFORE_WHEN =
  /(?:^|[.;!?\n]\s*)((?:[a-z][\w'-]*\s+){0,2}[a-z][\w'-]*)\s+(?=(?:today|tonight|tmrw|tmr|tmw|tomorrow|2moro|2morrow|(?:this|next)\s+(?:week|weekend|\w+day)|weekend|(?:mon|tues?|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?|wednesday|saturday)\b)/g;

/** Words that open a sentence without naming anything: greetings, asides, fillers. */
const DISCOURSE = new Set(
  (
    'sorry okay ok hi hiya hey hello right so also and but or maybe perhaps yeah yes yep no nah nope um hmm ' +
    'ugh oh ah well then thanks cheers please pls plz anyway anyways again same still just only except plus ' +
    'btw tbh lol omg sure fine cool great perfect wait ideally either neither both all any how what when ' +
    'which who why where whatever whichever fancy free busy off out back next last first even late ' +
    'early later earlier shows show showings films film movies movie tickets ticket seats'
  ).split(/\s+/),
);

function placesSaid(text: string, left: ReadonlySet<string>, afterIn = true): string[] {
  const places: string[] = [];
  // A place refused ("anywhere except Northgate", "not at the old mill") is no place to go to.
  const add = (place: string, at: number) => {
    if (polarity(text, at) !== 'negative') places.push(place);
  };
  const lower = text.toLowerCase();
  const before = afterIn
    ? 'at|in|make it|try|switch to|go to|change (?:it )?to'
    : 'at|make it|switch to|go to|change (?:it )?to';
  for (const m of lower.matchAll(
    new RegExp(String.raw`\b(?:${before})\s+(?:the\s+)?([a-z][\w'-]*(?:\s+[a-z0-9][\w'-]*){0,3})`, 'g'),
  )) {
    // "we live in leeds": where someone lives, not a cinema.
    if (ELSEWHERE_BEFORE.test(lower.slice(0, (m.index ?? 0) + m[0].indexOf(' ') + 1))) continue;
    // "old mil" of "old mil on monday".
    const run = unreadRun((m[1] ?? '').split(/\s+/), left);
    if (run.length > 0) add(run.join(' '), m.index ?? 0);
  }
  // A place named before its venue word, anywhere: "lakeside cinema on sunday".
  for (const m of lower.matchAll(/\b((?:[a-z][\w'-]*\s+){1,3})(?:cinema|theat(?:er|re)|multiplex|cineplex)\b/g)) {
    const words = (m[1] ?? '').trim().split(/\s+/);
    // The longest run of unread words that ends at the venue word: "lakeside" of "for lakeside cinema".
    const run: string[] = [];
    for (const w of words.reverse()) {
      if (!left.has(w) || /^(?:the|a|an|any|that|this|which|whichever|whatever|local|nearest|closest|my|our)$/.test(w))
        break;
      run.unshift(w);
    }
    if (run.length > 0) add(run.join(' '), m.index ?? 0);
  }
  places.push(...placesOpening(text, left));
  // A name written with a capital inside a sentence: "what has Lakeside got on Saturday?" (not a
  // word in capitals).
  // Not "I'll", "I'm", "I've": the speaker, not a name; nor "our granddaughter Lily": a person.
  for (const m of text.matchAll(
    /(?<=[\p{L}\p{N},;:)]\s+)(?!I['’])(\p{Lu}[\p{L}'-]{3,}(?:\s+\p{Lu}[\p{L}'-]*){0,2})/gu,
  )) {
    if (PERSON_BEFORE.test(text.slice(0, m.index)) || ELSEWHERE_BEFORE.test(text.slice(0, m.index))) continue;
    // "something LONG", "NOT the recliners": capitals for stress, not a name.
    if (/^\p{Lu}+$/u.test((m[1] ?? '').split(/\s+/)[0] ?? '')) continue;
    const run = unreadRun((m[1] ?? '').toLowerCase().split(/\s+/), left);
    if (run.length > 0 && (run[0]?.length ?? 0) >= 4) add(run.join(' '), m.index ?? 0);
  }
  return places;
}

/** Before a capital, words that name where someone is from or lives, not a cinema: "in town from Denver", "we live in Leeds". */
const ELSEWHERE_BEFORE =
  /\b(?:from|(?:live|lives|living|based|born|grew up|staying|stay|holiday|holidaying)\s+in|(?:fly|flying|flies|travel(?:l?ing)?)\s+to)\s+$/i;

/**
 * A place opening a clause right before the day or the time: "lakeside fri night", "northgate
 * tmrw", "Old Mill tonight". Before a day a sentence opens with a name, not a verb or a greeting;
 * but a film's name may open it the same way ("barbie saturday evening"), so such a place may be a
 * film ({@link placesMaybeFilms}).
 */
function placesOpening(text: string, left: ReadonlySet<string>): string[] {
  const places: string[] = [];
  const lower = text.toLowerCase();
  const add = (place: string, at: number) => {
    if (polarity(text, at) !== 'negative') places.push(place);
  };
  for (const m of lower.matchAll(OPENS_BEFORE_WHEN)) {
    const words = (m[1] ?? '').split(/\s+/);
    const run = unreadRun(words, left);
    // Not "school's shut today", "late shows saturday": a clause about something else.
    if (
      run.length !== words.length ||
      run.some((w) => DISCOURSE.has(w) || w.includes("'")) ||
      /(?:ing|ly|ed)$/.test(run.at(-1) ?? '')
    )
      continue;
    if (run.join('').length >= 5) add(run.join(' '), m.index ?? 0);
  }
  return places;
}

/** The places of {@link placesInsisted} named only by opening a clause before the day: as likely a film's name. */
export function placesMaybeFilms(text: string, unread: readonly string[]): string[] {
  return placesOpening(text, unreadSet(unread)).slice(0, MAX_PLACES);
}

/** A place said on its own, between commas: "fri night, 2 adults, nortgate stadium." */
function placesAlone(text: string, left: ReadonlySet<string>): string[] {
  return text
    .toLowerCase()
    .split(/[,.;!?\n]+/)
    .map((fragment) => fragment.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0 && words.length <= 4 && words.every((w) => left.has(w)))
    .map((words) => words.join(' '));
}

/**
 * The theater wish a remembered place gives once the theater stage lists `theaters`: the one theater
 * the newest place that names exactly one names loosely (the place, or its first words), or null
 * when none does.
 */
export function theaterFromPlaces(
  places: readonly string[],
  theaters: ReadonlyArray<{ id: string; name: string }>,
): string | null {
  // Newest first: a place named in a later message ("make it northgate instead") replaces one named before.
  for (const place of places) {
    const words = place.split(' ');
    for (let n = words.length; n > 0; n--) {
      const said = words.slice(0, n).join(' ');
      // "the art house" for Riverside Art House: some words of the name (not only "cinema"), or the name as mistyped.
      const named = said.replace(VENUE_WORDS, ' ').trim() !== '';
      const matches = theaters.filter((t) => looselyNamed(said, t.name) || (named && theaterNamed(t, said)));
      if (matches.length === 1 && matches[0]) return matches[0].name;
    }
  }
  return null;
}
