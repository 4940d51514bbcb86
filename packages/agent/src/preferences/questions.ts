import { parseCount, SPELLED_OR_DIGITS } from './numbers.ts';
import { RELATION, RELATIONS } from './people.ts';
import type { Op, PreferenceModel } from './types.ts';

/*
 * What the reader could not settle, as one short question each. Only doubts that could change the
 * booking are asked about: words no rule read that hold a number ("book for 7": seven people or
 * 7pm?), and how many are coming while nothing says so ("me and the kids", "something good this
 * week"): booking one ticket would be a guess. Filler words ("please", "hi", "something") are no doubt.
 */

/**
 * Questions still open after a message: a new doubt, or an old one the message did not settle. A
 * number that names the hour of a time already wished for ("11am", then "wait no 11 is too early")
 * refers back to it and is no doubt.
 */
export function openQuestions(
  after: PreferenceModel,
  text: string,
  rest: string,
  before?: PreferenceModel,
  titleRead = false,
): string[] {
  // A film named that no rule could match: ask about it rather than book another film.
  const film = titleRead ? undefined : unknownFilm(rest);
  if (film) return [`I could not find a film called "${film}" among the films showing. Which film do you mean?`];
  const hours = before ? hoursSaid(before) : new Set<number>();
  const partyOpen = !partyKnown(after);
  const timeOpen = ![...after.hard, ...after.soft].some((c) => c.kind === 'startTime' || c.kind === 'endTime');
  const number = [...rest.matchAll(/\b\d{1,4}\b/g)].find((m) => {
    const n = Number(m[0]);
    if (hours.has(n % 12) || partOfName(text.slice(0, m.index))) return false;
    // Only a number that could still change the booking is a doubt: the count while nobody said how
    // many are coming, or the hour while no time was said. Anything else the rules left is no question
    // the participant could answer in a word ("rows 8 to 10 all" once the rows were read).
    return (
      (partyOpen && n >= 1 && n <= 20) ||
      (timeOpen && n >= 1 && n <= 24 && !UNIT_AFTER.test(rest.slice(m.index + m[0].length)))
    );
  });
  // The stray number may be the count itself ("for 7"), so it is the one question asked.
  if (number) return [`What did you mean by "${around(text, number.index, number[0].length)}"?`];
  return partyOpen ? [HOW_MANY] : [];
}

/*
 * A number that ends a name: "is Lakeside 12 showing", "Northgate Stadium 16", "the Roxy 2", "screen
 * 3". A capitalized word right before it (not a sentence's first word, a day, a month or a word
 * like "At" or "For"), or a venue word.
 */
const VENUE_BEFORE =
  /\b(?:cinemas?|cineplex|multiplex|stadium|screens?|theaters?|theatres?|plex|odeon|imax|hall|auditorium)\s+$/i;
const CAPITALIZED_BEFORE = /(?<=[\w,'"] )([A-Z][a-z]+)\s+$/;
const NOT_A_NAME =
  /^(?:At|For|By|Around|About|After|Before|From|Till|Until|To|On|In|Or|And|Me|Us|I|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun|January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)$/;

function partOfName(before: string): boolean {
  if (VENUE_BEFORE.test(before)) return true;
  const word = CAPITALIZED_BEFORE.exec(before)?.[1];
  return word !== undefined && !NOT_A_NAME.test(word);
}

/** Units after a number that make it no clock time: "8 miles", "9 years", "4 stars". */
const UNIT_AFTER =
  /^\s*(?:mi|miles?|km|kms|kilomet\w*|years?|yrs?|y\/?o|stars?|%|percent|dollars?|bucks|quid|pounds?|euros?|minutes?|mins?|rows?|seats?)\b/i;

/** The hours (on a 12-hour clock face) of the start and end bounds a model holds. */
function hoursSaid(model: PreferenceModel): Set<number> {
  const out = new Set<number>();
  for (const c of [...model.hard, ...model.soft]) {
    if (c.kind !== 'startTime' && c.kind !== 'endTime') continue;
    for (const bound of [c.after, c.before]) if (bound) out.add(Number(bound.slice(0, 2)) % 12);
  }
  return out;
}

/**
 * Whether the model says how many seats: a seat count or ticket mix (hard or soft), or the
 * wheelchair spaces or premium seats counted ("I use a wheelchair": one).
 */
export function partyKnown(model: PreferenceModel): boolean {
  return [...model.hard, ...model.soft].some(
    (c) =>
      c.kind === 'seatCount' ||
      (c.kind === 'ticketMix' && (c.adult ?? 0) + (c.child ?? 0) + (c.senior ?? 0) > 0) ||
      (c.kind === 'seatKind' && c.count !== undefined),
  );
}

const LONE_COUNT = new RegExp(
  String.raw`(?<![\w:.$€£])(${SPELLED_OR_DIGITS})(?![\w:]|\.\d|\s*(?:am|pm|o'?clock|[$€£]))`,
  'gi',
);

/**
 * The answer to "how many?" when it is a bare number ("3", "two please"): no rule reads a lone
 * number as people, but right after that question it is the count. Only one such number counts.
 */
export function answeredCount(before: PreferenceModel, ops: readonly Op[], rest: string): Op | undefined {
  if (!(before.questions ?? []).includes(HOW_MANY)) return undefined;
  if (ops.some((op) => op.type === 'set' && (op.constraint.kind === 'seatCount' || op.constraint.kind === 'ticketMix')))
    return undefined;
  const found = [...rest.matchAll(LONE_COUNT)];
  const count = found.length === 1 ? parseCount(found[0]?.[1] ?? '') : undefined;
  if (!count || count > 20) return undefined;
  return {
    type: 'set',
    constraint: { kind: 'seatCount', count },
    strength: 'hard',
    mode: 'replace',
    perTicket: false,
    at: found[0]?.index ?? 0,
    rank: 1,
  };
}

/** The rest of a message with its lone counts blanked, once one of them answered "how many?". */
export function blankNumbers(rest: string): string {
  return rest.replace(LONE_COUNT, (m) => ' '.repeat(m.length));
}

/** The speaker speaks of themselves ("gets me out by 11", "I'd like …"). */
const SPEAKER = /\b(?:i|i'm|i'd|i'll|i've|me|myself)\b/i;
/** Anything that says or hints at more than one person, or asks for several tickets. */
const OTHERS = new RegExp(
  String.raw`\b(?:we|we're|we'd|we'll|we've|us|our|ours|let's|together|tickets|seats|spots|places|people|persons|guests|party|group|family|both|all|everyone|everybody|each|couple|pair|friends?|date|${RELATION}|${RELATIONS})\b`,
  'i',
);

/**
 * A first message in which the speaker speaks only of themselves and of nobody else ("treating
 * myself to …", "… that still gets me out by 11"): one ticket, as they would expect, rather than a
 * question. Only while nothing was asked or said about the party: a later "I" is no count.
 */
export function speakerAlone(before: PreferenceModel, after: PreferenceModel, text: string, at = 0): Op | undefined {
  if (partyKnown(before) || partyKnown(after) || (before.questions ?? []).length > 0) return undefined;
  if ([...before.hard, ...before.soft].length > 0) return undefined;
  if (!SPEAKER.test(text) || OTHERS.test(text)) return undefined;
  return {
    type: 'set',
    constraint: { kind: 'seatCount', count: 1 },
    strength: 'hard',
    mode: 'replace',
    perTicket: false,
    at,
    rank: 1,
  };
}

export const HOW_MANY = 'How many tickets do you need, and how old are any children coming?';

/** The words around an unread number, as the participant wrote them (after corrections). */
function around(text: string, index: number, length: number): string {
  const before = text.slice(0, index).split(/\s+/).filter(Boolean).slice(-2);
  const after = text
    .slice(index + length)
    .split(/[\s,.;!?]+/)
    .filter(Boolean)
    .slice(0, 1);
  return [...before, text.slice(index, index + length), ...after].join(' ').replace(/[,.;!?]+$/, '');
}

/** Words after "see" or "watch" that name a film no rule read: "see the dark hollow tomorrow" gives "dark hollow". */
export function unknownFilm(rest: string): string | undefined {
  const cue = /\b(?:see|watch|seeing|watching)\s+(?:the\s+)?/gi;
  for (const m of rest.matchAll(cue)) {
    const after = rest.slice((m.index ?? 0) + m[0].length);
    const words: string[] = [];
    for (const w of after.split(/(\s+)/)) {
      if (/^\s+$/.test(w)) {
        // Blanked words (read by a rule) end the name: a run of several spaces.
        if (w.length > 1 && words.length > 0) break;
        continue;
      }
      const word = w.replace(/[,.;!?]+$/, '');
      if (word === '' || FILLER.has(word.toLowerCase()) || !/^[\p{L}'-]+$/u.test(word)) break;
      words.push(word);
      if (word !== w || words.length === 4) break;
    }
    if (words.some((w) => w.length >= 3)) return words.join(' ');
  }
  // "The new bond film", "that latest pixar movie": words no rule read, named as a recent film.
  const recent = RECENT_FILM.exec(rest);
  const named = recent?.[1]?.split(/\s+/).filter((w) => !FILLER.has(w.toLowerCase()));
  return named && named.length > 0 && named.some((w) => w.length >= 3) ? named.join(' ') : undefined;
}

const RECENT_FILM =
  /\b(?:the|that|this)\s+(?:new|newest|latest|recent)\s+((?:[\p{L}'-]+ ){0,3}?[\p{L}'-]+) (?:film|movie|flick|one)\b/iu;

/* Words that say nothing about the booking: left unread without doubt. */
const FILLER = new Set(
  "a an the and or but so to for of on in at by with me my we us our i i'm you it is are be can could would will please thanks thank hi hello hey ok okay yes no just some something anything any one get book see watch want need like love would like to go going want movie film films movies ticket tickets showing show let's lets that this what's whats good which what where when how whatever whichever".split(
    ' ',
  ),
);

/** The words no rule used, filler left out: what the agent may say it did not follow. */
export function unreadWords(rest: string): string[] {
  return rest
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter((w) => w !== '' && !FILLER.has(w));
}
