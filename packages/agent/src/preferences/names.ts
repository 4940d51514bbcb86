import { theaterNamed } from '@usher/booking';
import type { Scan } from './types.ts';
import { genreLexicon } from './vocabulary.ts';

/*
 * Names the visible lists do not hold, read from their capitals: a run of capitalized words (with
 * "of", "the", "and", "in", "a", "an" inside: "Pip and the Comet"). Capitalized words that name
 * something else break a run: the speaker, days and months, formats, counts, greetings, booking
 * nouns. Times of day ("Night") may sit in a name ("Night Ledger") but make none alone ("Sunday
 * Evening"). What a run names:
 * - a theater: ending in a venue word ("Grand Central Cinema"), naming a known theater, or after
 *   "at" or "in" ("at Riverside", "at the Regent") unless made of genre words; "IMAX" right after
 *   such a run belongs to it ("at Riverside IMAX");
 * - a place: after "near" without a venue word or a known name ("near Grand Central" may be a
 *   station): no wish, but its words are no other wish either ("Central" is not "central seats");
 * - a genre: every word a genre word ("Romantic Comedy");
 * - a title: two or more words, or one right after "see", "watch", "book", "for", "make it",
 *   "called" or "titled" ("let's see Dune");
 * - nothing otherwise (one capitalized word alone, "Sunday Evening").
 */

const NOT_NAME_WORDS = new Set([
  ..."i me my we us our you it he she they hi hello hey thanks thank please ok okay yes no not actually also and but so or then just maybe perhaps ideally any anything something what how when where which who can could would will do does is are am was let lets let's book get find show make want need like love the a an this that next last at near".split(
    ' ',
  ),
  ...'one two three four five six seven eight nine ten eleven twelve couple pair'.split(' '),
  ...'today tonight tomorrow weekend weekday weekdays monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun'.split(
    ' ',
  ),
  ...'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
  // Named days: "on Christmas Eve" is a date, not a film.
  ..."christmas xmas eve halloween hallowe'en valentine's valentines boxing new year year's years".split(' '),
  ...'imax standard regular adult adults kid kids child children senior seniors student students ticket tickets seat seats row rows premium wheelchair movie movies film films showing showings screening screenings show shows'.split(
    ' ',
  ),
]);
/** Words for a time of day: inside a name they count, alone they do not make one. */
const TIME_OF_DAY_WORDS = new Set(['morning', 'afternoon', 'evening', 'night', 'noon', 'midnight', 'matinee']);
const CONNECTOR = /^(?:of|the|and|in|a|an)$/;
const CAPITALIZED = /^\p{Lu}\p{Ll}/u;
const SINGLE_WORD_CUE = /\b(?:see|watch|book|for|make it|called|titled)\s+$/i;
const THEATER_CUE = /\b(?:at|in|going to|go to|head(?:ing)? to|off to)\s+(?:the\s+)?$/i;
const NEAR_CUE = /\bnear\s+(?:the\s+)?$/i;
const VENUE_WORD = /^(?:cinemas?|theat(?:er|re)s?|multiplex|arthouse|hall|odeon)$/i;
/** A word that closes a theater's name though it is no name word elsewhere ("Riverside IMAX"). */
/** A word that ends a theater's name: "Riverside IMAX", or the screens of "Lakeside 12". */
const NAME_TAIL = /^(?:imax|\d{1,2})$/i;
/** After a number, words that make it a clock, not part of a name: "at Lakeside 7pm", "Lakeside 7:30". */
const CLOCK_AFTER = /^\s*(?:am|pm|a\.m|p\.m|o'?clock|[:.]\d|h\b|ish\b)/i;

/** One run of capitalized words and what it names. */
export interface NameRun {
  start: number;
  end: number;
  /** The words as written ("Riverside IMAX"). */
  name: string;
  names: 'title' | 'theater' | 'place' | 'genre' | 'nothing';
}

interface Word {
  word: string;
  start: number;
  end: number;
}

/** The runs of capitalized words in the scan's text (phrases earlier rules read are blanked), in order. */
export function capitalizedRuns(scan: Scan): NameRun[] {
  const genres = genreLexicon(scan.context.knownGenres);
  const known = scan.context.knownTheaters ?? [];
  const words: Word[] = [...scan.text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu)].map((m) => ({
    word: m[0],
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
  const adjoins = (a: Word, b: Word) => /^ {1,2}$/.test(scan.text.slice(a.end, b.start));
  const found: NameRun[] = [];
  let i = 0;
  while (i < words.length) {
    const first = words[i] as Word;
    if (!nameWord(first.word)) {
      i += 1;
      continue;
    }
    // Extend over capitalized words and inner connectors, with only a space or two between words.
    let last = i;
    let j = i + 1;
    while (j < words.length && adjoins(words[j - 1] as Word, words[j] as Word)) {
      const word = (words[j] as Word).word;
      if (nameWord(word)) last = j;
      else if (!CONNECTOR.test(word)) break;
      j += 1;
    }
    const run = words.slice(i, last + 1);
    const capitals = run.filter((w) => CAPITALIZED.test(w.word));
    const before = scan.text.slice(0, first.start);
    const lastWord = run[run.length - 1] as Word;
    const named = scan.text.slice(first.start, lastWord.end);
    const strong = capitals.some((w) => !TIME_OF_DAY_WORDS.has(w.word.toLowerCase()));
    const venueWord = VENUE_WORD.test(lastWord.word);
    const genre = capitals.every((w) => genres.lookup(w.word) !== undefined) || genres.lookup(named) !== undefined;
    const isKnown = known.some((t) => theaterNamed({ id: '', name: t }, named));
    const theater = strong && (venueWord || isKnown || (THEATER_CUE.test(before) && !genre));
    const tail = words[last + 1];
    const tailed =
      theater &&
      tail &&
      NAME_TAIL.test(tail.word) &&
      adjoins(lastWord, tail) &&
      !CLOCK_AFTER.test(scan.text.slice(tail.end));
    const end = tailed && tail ? tail.end : lastWord.end;
    i = end === lastWord.end ? last + 1 : last + 2;
    const place = strong && !theater && NEAR_CUE.test(before);
    const title = strong && !genre && !place && (capitals.length >= 2 || SINGLE_WORD_CUE.test(before));
    const names = theater ? 'theater' : place ? 'place' : title ? 'title' : genre ? 'genre' : 'nothing';
    found.push({ start: first.start, end, name: scan.text.slice(first.start, end), names });
  }
  return found;
}

/** A word that can be part of a name's capitals: capitalized and not one of {@link NOT_NAME_WORDS}. */
function nameWord(word: string): boolean {
  return CAPITALIZED.test(word) && !NOT_NAME_WORDS.has(word.toLowerCase());
}
