import type { ConstraintKind, Format } from '@usher/booking';
import { escapeRegExp } from './text.ts';

/*
 * The words the extractor knows, kept in small tables so that a reviewer can read the whole
 * vocabulary at a glance. Order matters: at a given position the first entry that matches wins,
 * so "romantic comedy" must come before "romantic" and "comedy".
 */

/** A word pattern and what it stands for. */
export interface Entry<T> {
  pattern: string;
  value: T;
}

/** Genre words → the genre name used in scenarios (DEFAULT spellings, replaced by visible ones). */
export const GENRE_WORDS: Entry<string>[] = [
  { pattern: 'romantic[- ]comed(?:y|ies)|rom-?coms?', value: 'Romantic Comedy' },
  { pattern: 'sci-?fi|science[- ]fiction', value: 'Sci-Fi' },
  { pattern: 'comed(?:y|ies)|comedic|funny|hilarious|a (?:good )?laugh', value: 'Comedy' },
  { pattern: 'romances?|romantic|love stor(?:y|ies)', value: 'Romance' },
  { pattern: 'horrors?|scary|spooky|creepy|frightening', value: 'Horror' },
  { pattern: 'thrillers?|suspense(?:ful)?', value: 'Thriller' },
  { pattern: 'dramas?|dramatic|weepies?|tear-?jerkers?', value: 'Drama' },
  { pattern: 'action(?:-packed)?|blockbusters?', value: 'Action' },
  { pattern: 'adventures?', value: 'Adventure' },
  { pattern: 'animat(?:ion|ed)|cartoons?|anime|pixar', value: 'Animation' },
  // Plain "family" is left out: "me and my family" is not a genre.
  {
    pattern: "family (?:films?|movies?|flicks?)|kids'? (?:films?|movies?)|children'?s (?:films?|movies?)",
    value: 'Family',
  },
  {
    pattern: 'myster(?:y|ies)|whodunn?its?|who-?dunn?-?its?|detective (?:films?|movies?|stor(?:y|ies))',
    value: 'Mystery',
  },
  { pattern: 'westerns?|cowboy (?:films?|movies?|flicks?|ones?)|(?:the\\s+)?cowboys', value: 'Western' },
  { pattern: 'crime', value: 'Crime' },
  // "A doc", "docs", "a nature doc": not "the doc's" (a doctor) or "doc" as a name before one.
  {
    pattern:
      "documentar(?:y|ies)|docu(?:mentary)?s?\\b|docs?(?!'s)(?=\\s*(?:[,.;!?]|$|about|on|please|or|and|film|movie))|fly-on-the-wall",
    value: 'Documentary',
  },
  { pattern: 'musicals?', value: 'Musical' },
  { pattern: 'sports? (?:films?|movies?|dramas?)|sports', value: 'Sport' },
  { pattern: 'histor(?:y|ical) (?:films?|movies?|dramas?)|historical', value: 'History' },
  // Kinds of film a catalog may not list: read all the same, so that a wish for one nothing shows is
  // declined, not answered with another film.
  { pattern: 'war[- ](?:films?|movies?|flicks?|dramas?|epics?|stor(?:y|ies)|ones?)', value: 'War' },
  { pattern: 'fantasy(?:\\s+(?:films?|movies?|ones?))?', value: 'Fantasy' },
  { pattern: 'superhero(?:es)?(?:\\s+(?:films?|movies?|ones?))?', value: 'Superhero' },
  { pattern: 'biopics?|biographical (?:films?|movies?|dramas?)', value: 'Biography' },
  { pattern: 'martial[- ]arts?(?:\\s+(?:films?|movies?))?|kung[- ]fu (?:films?|movies?)', value: 'Martial Arts' },
];

/** Genre names that are ordinary words, so a visible genre of that name is not matched bare. */
const ORDINARY_WORDS = new Set(['family']);

/** Format words → format. "standard" needs a format noun, since "standard seats" is a seat kind. */
export const FORMAT_WORDS: Entry<Format>[] = [
  { pattern: 'imax', value: 'IMAX' },
  { pattern: '3-?d', value: '3D' },
  {
    pattern:
      '2-?d|(?:standard|regular|normal|plain)(?: 2d)? (?:format|screens?|screenings?|showings?|versions?|projection|one)',
    value: 'Standard',
  },
];

/** Nouns that name a whole kind of wish, for "no preference on time", "any day", "forget the price". */
export const KIND_NOUNS: Entry<ConstraintKind[]>[] = [
  {
    pattern: '(?:show|start|end)?times?|time of day|when',
    value: ['startTime', 'endTime', 'earliest', 'latest'],
  },
  { pattern: 'days?|dates?', value: ['date'] },
  { pattern: 'formats?|screen types?', value: ['format'] },
  { pattern: 'genres?|kind of (?:movie|film)|type of (?:movie|film)', value: ['genre'] },
  { pattern: 'movies?|films?|titles?', value: ['title', 'genre'] },
  { pattern: 'prices?|cost|budget|money', value: ['price', 'cheapest'] },
  { pattern: 'distance|location|cinemas?|theaters?|theatres?|how far', value: ['theater', 'distance', 'closest'] },
  { pattern: 'age ratings?', value: ['ageRating'] },
  { pattern: 'length|running time|runtime|how long', value: ['runtime'] },
  { pattern: 'ratings?|reviews?|scores?', value: ['rating', 'highestRated'] },
  {
    pattern: '(?:premium|vip|luxury)(?:\\s+(?:recliners?|seats?|seating))?|recliners?|reclining (?:seats?|chairs?)',
    value: ['seatKind'],
  },
  { pattern: 'seats?|seating|rows?', value: ['rows', 'rowMiddle', 'centered', 'seatKind'] },
  { pattern: 'sitting together|together|next to each other|side by side', value: ['adjacent'] },
];

/** A matcher over a table: one regular expression, and a way back from a match to its entry. */
export interface Lexicon<T> {
  /** Alternation of all entries, without flags or anchors, for embedding. */
  source: string;
  /** The value of a matched word, or undefined if it matches no entry. */
  lookup(word: string): T | undefined;
}

/** Builds a lexicon; whole-word matching is the caller's job. */
export function lexicon<T>(entries: Entry<T>[]): Lexicon<T> {
  const compiled = entries.map((e) => ({ re: new RegExp(`^(?:${e.pattern})$`, 'i'), value: e.value }));
  return {
    source: entries.map((e) => `(?:${e.pattern})`).join('|'),
    lookup: (word) => compiled.find((c) => c.re.test(word.trim().replace(/\s+/g, ' ')))?.value,
  };
}

/**
 * The genre lexicon for a context: the built-in words, with each visible genre's own spelling
 * ("Science Fiction" instead of "Sci-Fi" when the screen says so), and visible genres the table
 * lacks matched by name.
 */
export function genreLexicon(knownGenres: readonly string[] = []): Lexicon<string> {
  const builtIn = lexicon(GENRE_WORDS);
  const entries = GENRE_WORDS.map((e) => {
    const known = knownGenres.find((g) => lexicon([e]).lookup(g) !== undefined || sameName(g, e.value));
    return known ? { ...e, value: known } : e;
  });
  for (const genre of knownGenres) {
    if (builtIn.lookup(genre) !== undefined || entries.some((e) => sameName(e.value, genre))) continue;
    if (ORDINARY_WORDS.has(genre.toLowerCase())) continue;
    entries.push({ pattern: `${escapeRegExp(genre).replace(/ /g, '[- ]')}s?`, value: genre });
  }
  return lexicon(entries);
}

function sameName(a: string, b: string): boolean {
  const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  return key(a) === key(b);
}

/** Titles as a lexicon: the full title, or without a leading article ("Quiet Harbor"). */
export function titleLexicon(knownTitles: readonly string[] = []): Lexicon<string> {
  const entries = [...knownTitles]
    .filter((t) => t.trim().length > 0)
    // Longer titles first, so "The Last Cartographer" wins over a title it contains.
    .sort((a, b) => b.length - a.length)
    .map((title) => {
      const bare = title.replace(/^(?:the|a|an)\s+/i, '');
      const words = (s: string) => escapeRegExp(s).replace(/\s+/g, String.raw`\s+`);
      return {
        pattern: bare === title ? words(title) : `(?:${words(title.slice(0, -bare.length))})?${words(bare)}`,
        value: title,
      };
    });
  return lexicon(entries);
}
