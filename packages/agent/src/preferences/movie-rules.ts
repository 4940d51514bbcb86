import { AGE_RATINGS } from '@usher/booking';
import { hits, span } from './match.ts';
import { capitalizedRuns } from './names.ts';
import { RELATION, RELATIONS } from './people.ts';
import { APPROX, blank, polarity } from './text.ts';
import type { Draft, Hit, Rule, Scan } from './types.ts';
import { genreLexicon, titleLexicon } from './vocabulary.ts';

/* Rules about which movie: title, genre, audience rating, age rating. */

type AgeRating = (typeof AGE_RATINGS)[number];

/**
 * Named titles: those of the visible list, else quoted text, else a capitalized name the list does
 * not hold ({@link unknownTitles}: a film not showing is still what the participant asked for);
 * "not Orbital Drift" excludes one.
 */
export const titleRule: Rule = (scan) => {
  const titles = titleLexicon(scan.context.knownTitles);
  const named =
    titles.source === ''
      ? []
      : hits(scan, titles.source, (m) => {
          const title = titles.lookup(m[0]);
          if (!title) return undefined;
          const at = m.index ?? 0;
          if (onlyMentioned(scan.original, at, at + m[0].length)) return { ...span(m), drafts: [] };
          return { ...span(m), drafts: titleDrafts(title, polarity(scan.original, at)) };
        });
  const quoted = hits(scan, '"([^"]{2,60})"', (m) => {
    const title = m[1]?.trim() ?? '';
    const at = span(m);
    // A listed title in quotes is read as listed, in the list's spelling.
    if (named.some((n) => n.start < at.end && at.start < n.end)) return undefined;
    return { ...at, drafts: titleDrafts(title, polarity(scan.original, m.index ?? 0)) };
  });
  const rest = [...named, ...quoted].reduce((text, hit) => blank(text, hit.start, hit.end), scan.text);
  const byWord = titleByWord({ ...scan, text: rest });
  const left = byWord.reduce((text, hit) => blank(text, hit.start, hit.end), rest);
  return [...named, ...quoted, ...byWord, ...unknownTitles({ ...scan, text: left })];
};

/** Words too common to tell one title from another. */
const COMMON_TITLE_WORDS = new Set([
  'the',
  'and',
  'of',
  'a',
  'an',
  'in',
  'on',
  'at',
  'to',
  'for',
  'with',
  'from',
  'night',
  'day',
  'big',
  'new',
  'last',
  'first',
  'one',
  'movie',
  'film',
]);

/**
 * A film called by one word of its title and what it is: "the orchard film", "that tempest movie",
 * "the giggle one", "that film about the orchard". The word must be in exactly one title on the list.
 */
function titleByWord(scan: Scan): Hit[] {
  const titles = scan.context.knownTitles ?? [];
  if (titles.length === 0) return [];
  const source = String.raw`(?:the|that|this)\s+([a-z'-]{4,})\s+(?:film|movie|flick|one)|(?:the|that|this)\s+(?:film|movie|one)\s+(?:about|with|set (?:in|on))\s+(?:the\s+|a\s+|an\s+)?([a-z'-]{4,})`;
  return hits(scan, source, (m) => {
    const word = (m[1] ?? m[2] ?? '').toLowerCase();
    if (COMMON_TITLE_WORDS.has(word)) return undefined;
    const matching = titles.filter((t) =>
      t
        .toLowerCase()
        .split(/[^\p{L}\p{N}'-]+/u)
        .includes(word),
    );
    const [title] = matching;
    if (matching.length !== 1 || !title) return undefined;
    return { ...span(m), drafts: titleDrafts(title, polarity(scan.original, m.index ?? 0)) };
  });
}

/**
 * A title the visible list does not hold ("Winter Kings", coming soon): a run of capitals that
 * names a title ({@link capitalizedRuns}); runs naming a theater or a genre are left to their rules.
 */
function unknownTitles(scan: Scan): Hit[] {
  return capitalizedRuns(scan)
    .filter((run) => run.names === 'title')
    .map((run) => ({
      start: run.start,
      end: run.end,
      drafts: titleDrafts(run.name, polarity(scan.original, run.start)),
    }));
}

/** Someone else's suggestion: "someone mentioned X", "my friend recommended X". */
const MENTIONED =
  /\b(?:mentioned|suggested|recommended|recommends|suggests|talking about|was saying|raved about|said)\s+(?:the\s+)?$/i;
/** What follows a suggestion the speaker sets aside: "… but honestly just whatever's rated best". */
const SET_ASIDE =
  /^[^.!?]*?\bbut\b[^.!?]*\b(?:whatever|whichever|anything|any film|any movie|don'?t mind|not fussed|up to you|best|highest)\b/i;

/**
 * A title someone else put forward, which the speaker then sets aside ("someone mentioned Iron
 * Tempest but honestly just whatever's rated best"): only mentioned, no wish.
 */
function onlyMentioned(text: string, start: number, end: number): boolean {
  return MENTIONED.test(text.slice(Math.max(0, start - 40), start)) && SET_ASIDE.test(text.slice(end));
}

function titleDrafts(title: string, p: ReturnType<typeof polarity>): Draft[] {
  if (p === 'skip' || title === '') return [];
  return [{ set: p === 'negative' ? { kind: 'title', not: [title] } : { kind: 'title', is: [title] } }];
}

/** Genre words and synonyms (scary → Horror, funny → Comedy); negated ones are excluded. */
export const genreRule: Rule = (scan) => {
  const genres = genreLexicon(scan.context.knownGenres);
  return hits(scan, genres.source, (m) => {
    const genre = genres.lookup(m[0]);
    if (!genre) return undefined;
    const p = polarity(scan.original, m.index ?? 0);
    if (p === 'skip') return { ...span(m), drafts: [] };
    const set = p === 'negative' ? { exclude: [genre] } : { include: [genre] };
    return { ...span(m), drafts: [{ set: { kind: 'genre', ...set } }] };
  });
};

const SCORE = String.raw`(\d{1,2}(?:\.\d)?)`;
const AT_LEAST = '(?:at least|above|over|higher than|more than|better than|no less than|minimum(?: of)?|min)';
const OR_MORE = String.raw`(?:\s*\+|\s+(?:or|and) (?:higher|above|more|better|up))`;
const OUT_OF_TEN = String.raw`(?:\s*(?:/|out of)\s*10)`;
const NUMERIC_RATING = [
  // "nothing rated below 7", "no rating under 6.5", "nothing scoring below 8 out of 10": a refused lower range is a minimum
  String.raw`(?:nothing|no(?:thing)?|not(?: anything)?)\s+(?:rated|with a rating|scored|scoring|that scores)\s+(?:below|under|less than|lower than)\s+${SCORE}${OUT_OF_TEN}?`,
  // "nothing with a tomatometer below 70 percent", "nothing less than 70% on rotten tomatoes": a share of the best score
  String.raw`(?:nothing|no(?:thing)?|not(?: anything)?)\s+(?:(?:with|on|that has|that gets)\s+(?:a\s+)?(?:[a-z]+\s+){0,2}?)?(?:below|under|less than|lower than)\s+(\d{2,3})\s*(?:%|percent|per cent)`,
  String.raw`(?:at least|over|above|min(?:imum)?(?: of)?)\s+(\d{2,3})\s*(?:%|percent|per cent)(?=\s+(?:on|from|with|rating|score|approval|(?:rotten\s+)?tomatoes|rt|reviews?)\b)`,
  // "nothing under 4 stars", "nothing below 8/10": the scale said makes it a rating
  String.raw`(?:nothing|no(?:thing)?|not(?: anything)?)\s+(?:below|under|less than|lower than)\s+${SCORE}(?:${OUT_OF_TEN}|\s*stars?)`,
  // "that scores 4 or more", "scoring 8/10 or better"
  String.raw`(?:scores?|scoring)\s+${SCORE}${OUT_OF_TEN}?${OR_MORE}`,
  // "rated at least 7", "rating above 7", "rated 8 or higher", "a score of 7.5+"
  String.raw`(?:rated|ratings?|scored?|reviews?)\s+(?:of\s+)?(?:${AT_LEAST}\s+)?${SCORE}${OUT_OF_TEN}?${OR_MORE}?`,
  // "at least 7/10", "at least 7 stars"
  String.raw`${AT_LEAST}\s+${SCORE}(?:${OUT_OF_TEN}|\s*stars?)`,
  // "7+ rating", "8/10 or better"
  String.raw`${SCORE}(?:${OUT_OF_TEN}|\s*stars?)?${OR_MORE}\s*(?:ratings?|rated|scores?|stars?)`,
  // "4 stars or more", "4.5 star films only", "a 4 star minimum"
  String.raw`${SCORE}[- ]?stars?(?:\s+(?:films?|movies?|ones?))?(?:${OR_MORE}|\s+(?:only|minimum|min|at least|and up|plus)\b)`,
].join('|');

/** "Highly rated" names no number; 7.5 is well above this catalog's median (7.4) yet leaves choice. */
export const HIGHLY_RATED_MIN = 7.5;

/**
 * "Highly rated" on the scale the films on screen are rated on: out of 10 as above, or the same
 * share of 5 where every film shown is rated 5 or less (a catalog of stars).
 */
function highlyRated(scan: Scan): number {
  const ratings = (scan.context.knownFilms ?? []).flatMap((f) => (f.rating === undefined ? [] : [f.rating]));
  return ratings.length > 0 && Math.max(...ratings) <= 5 ? HIGHLY_RATED_MIN / 2 : HIGHLY_RATED_MIN;
}

/**
 * A rating said on one scale, on the scale of the films on screen: "8 out of 10" is 4 where films
 * are rated in stars out of 5, and "4 stars" is 8 where they are rated out of 10. A bare number
 * above 5 in a catalog of stars is out of 10. Undefined when it fits no scale.
 */
function onCatalogScale(said: number, words: string, scan: Scan): number | undefined {
  const percent = /%|per\s?cent/i.test(words);
  if (!(said >= 0 && said <= (percent ? 100 : 10))) return undefined;
  const ratings = (scan.context.knownFilms ?? []).flatMap((f) => (f.rating === undefined ? [] : [f.rating]));
  const catalog = ratings.length > 0 && Math.max(...ratings) <= 5 ? 5 : 10;
  if (ratings.length === 0 && !percent) return said;
  const scale = percent
    ? 100
    : new RegExp(OUT_OF_TEN).test(words) || said > 5
      ? 10
      : /stars?/i.test(words)
        ? 5
        : catalog;
  return scale === catalog ? said : Math.round(((said * catalog) / scale) * 10) / 10;
}

/** Audience rating: a stated minimum (hard), "highly rated" (vague: soft ≥ 7.5), "best rated" (highestRated). */
export const ratingRule: Rule = (scan) => [
  ...hits(scan, NUMERIC_RATING, (m) => {
    const said = Number(m.slice(1).find((group) => group !== undefined));
    const value = onCatalogScale(said, m[0], scan);
    if (value === undefined) return undefined;
    return { ...span(m), drafts: [{ set: { kind: 'rating', min: value } }] };
  }),
  ...hits(
    scan,
    "(?:best|highest|top)[- ](?:rated|reviewed|scored)|(?:the )?best reviews|(?:the )?(?:most|highest|best) (?:stars|star ratings?)|(?:the )?most (?:highly[- ])?(?:rated|acclaimed)|(?:the )?(?:highest|best|top) (?:ratings?|scores?)|the best (?:one|movie|film)|rated (?:the )?(?:highest|best)|(?:best|highest)[- ]reviewed|what(?:'s| is) good|(?:anything|something) good|any good",
    (m) => ({ ...span(m), drafts: [{ set: { kind: 'highestRated' } }] }),
  ),
  ...hits(
    scan,
    'highly[- ]rated|rated highly|well[- ](?:rated|reviewed)|reviewed well|good (?:reviews|ratings?|scores?)|great reviews|(?:critically )?acclaimed',
    (m) => ({ ...span(m), drafts: [{ set: { kind: 'rating', min: highlyRated(scan) }, vague: true }] }),
  ),
];

const AGE = '(nc-?17|pg-?13|pg|g|r)';
const KIDS = String.raw`kids|children|a child|a kid|young kids|little ones|the family|families|an? \d{1,2}[- ]year[- ]old`;
/** What "suitable for kids" allows: general audiences and parental guidance. */
export const FOR_KIDS: AgeRating[] = ['G', 'PG'];

function ageOf(token: string | undefined): AgeRating | undefined {
  const t = (token ?? '')
    .toUpperCase()
    .replace(/^(PG|NC)-?/, '$1-')
    .replace(/^PG-$/, 'PG');
  return AGE_RATINGS.find((r) => r === t);
}
const upTo = (r: AgeRating) => AGE_RATINGS.slice(0, AGE_RATINGS.indexOf(r) + 1);
/* Refusing a rating refuses the stricter ones too: "no R" does not mean "NC-17 is fine". */
const below = (r: AgeRating) => AGE_RATINGS.slice(0, AGE_RATINGS.indexOf(r));

const ageDraft = (allowed: AgeRating[]): Draft[] =>
  allowed.length > 0 ? [{ set: { kind: 'ageRating', allowed } }] : [];

/** Someone named: "him", "the kids", "my little girl". */
const SOMEONE = String.raw`(?:him|her|them|(?:my|our|his|her|their|the)\s+(?:little\s+|young\s+)?(?:${RELATION}|${RELATIONS}))`;
/**
 * "Suitable for him", "ok for my grandson", "something the kids can watch": the ratings for the
 * people named, whose ages the party rule reads; the implied rating of the party is then firm (see
 * extract's `firmSuitability`).
 */
export const SUITABLE_FOR_SOMEONE = new RegExp(
  [
    String.raw`\b(?:suitable|appropriate|ok|okay|fine|safe|good|right)\s+for\s+(?:${SOMEONE}|(?:his|her|their)\s+ages?)\b`,
    // "something the kids can watch", "a film my daughter is allowed to see"
    String.raw`\b(?:something|a film|a movie|one|anything)\s+(?:he|she|they|${SOMEONE})\s+(?:can|could|(?:is|are|'s|'re)\s+allowed\s+to)\s+(?:watch|see)\b`,
    // "nothing too grown-up", "nothing she's too young for"
    String.raw`\bnothing\s+(?:too\s+)?(?:grown[- ]up|adult|mature)\b|\bnothing\s+(?:he|she|they)(?:'s|'re|\s+is|\s+are)\s+too\s+young\s+for\b`,
  ].join('|'),
  'i',
);

/** Age rating: "suitable for kids" (G, PG), "nothing above PG-13", "PG or lower", "no R-rated", "rated PG". */
export const ageRatingRule: Rule = (scan) => [
  // Read here so that its words raise no question; what it allows comes from the party's ages.
  ...hits(scan, SUITABLE_FOR_SOMEONE.source, (m) => ({ ...span(m), drafts: [] })),
  ...hits(
    scan,
    String.raw`(?:suitable|appropriate|ok|okay|fine|safe|good)\s+for\s+(?:my\s+|our\s+|the\s+|young\s+|small\s+|little\s+)*(?:${KIDS})|(?:kid|child|family)[- ]friendly|(?:something|a movie|a film|anything) for (?:the |my |our )?(?:kids|children)`,
    (m) => ({ ...span(m), drafts: ageDraft(FOR_KIDS) }),
  ),
  ...hits(
    scan,
    String.raw`(?:nothing\s+(?:above|over|beyond|past|higher than|stronger than|more than)|no(?:thing)?\s+(?:higher|stronger|more|worse)\s+than|at most|up to|max(?:imum)?|not (?:above|over|higher than))\s+(?:an?\s+)?(?:rated\s+)?${AGE}(?:[- ]rated)?|(?:rated\s+)?${AGE}(?:[- ]rated)?\s+(?:or|and)\s+(?:below|lower|under|less|younger|milder)|${AGE}\s+(?:max(?:imum)?|at (?:the )?most|tops)\b|(?:anything|something)\s+(?:rated\s+)?${AGE}(?![\w-])(?!\s*(?:,|\/|\bor\b|\band\b)\s*(?:nc-?17|pg-?13|pg|g|r)\b)|${AGE}(?:\s+(?:is|are|would be|will be)|'s)\s+(?:fine|ok|okay|good|alright|all right|the limit)`,
    (m) => {
      const r = ageOf(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]);
      return r ? { ...span(m), drafts: ageDraft(upTo(r)) } : undefined;
    },
  ),
  // "G or PG", "rated PG or PG-13", "G/PG only": the ratings listed, and only those.
  ...hits(
    scan,
    String.raw`(?:rated\s+)?\b(?:nc-?17|pg-?13|pg|g|r)(?:\s*(?:,|/|\bor\b|\band\b)\s*(?:nc-?17|pg-?13|pg|g|r)\b)+(?:[- ]rated)?`,
    (m) => {
      const listed = [...m[0].matchAll(/\b(?:nc-?17|pg-?13|pg|g|r)\b/gi)].map((t) => ageOf(t[0]));
      const allowed = AGE_RATINGS.filter((r) => listed.includes(r));
      const p = polarity(scan.original, m.index ?? 0);
      if (p === 'skip' || allowed.length < 2) return { ...span(m), drafts: [] };
      // "No PG-13 or R": refusing a rating refuses the stricter ones too.
      if (p === 'negative') return { ...span(m), drafts: ageDraft(below(allowed[0] as AgeRating)) };
      return { ...span(m), drafts: ageDraft(allowed) };
    },
  ),
  ...hits(scan, String.raw`rated\s+${AGE}|${AGE}[- ]rated|${AGE}\s+(?:movies?|films?|rating)`, (m) => {
    const r = ageOf(m[1] ?? m[2] ?? m[3]);
    if (!r) return undefined;
    const p = polarity(scan.original, m.index ?? 0);
    if (p === 'skip') return { ...span(m), drafts: [] };
    return { ...span(m), drafts: ageDraft(p === 'negative' ? below(r) : [r]) };
  }),
];

const WORD_NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, an: 1, a: 1 };
/** A part of an hour said after the hours or before the word "hours": "and a half", "and three quarters". */
const PART_HOUR = String.raw`and (?:a half|a quarter|three[- ]quarters?)`;
/**
 * An amount of film time: "100 minutes", "90 mins", "2 hours", "2hrs", "1h30", "an hour and a half",
 * "two and a half hours", "an hour and three quarters", "1¾ hours".
 */
const LENGTH = String.raw`(\d{2,3})\s*(?:minutes?|mins?|m)\b|(\d(?:\.\d)?|one|two|three|four|an?)\s*(?:(?:${PART_HOUR}|[½¼¾])\s*)?(?:hours?|hrs?|h)(?:\s*(?:and\s*)?(\d{1,2})\s*(?:minutes?|mins?|m)?)?(?:\s*(${PART_HOUR}))?`;
/** "2+ hours", "150+ mins": groups as {@link LENGTH}'s first two. */
const LENGTH_PLUS = String.raw`(\d{2,3})\+\s*(?:minutes?|mins?)\b|(\d)\+\s*(?:hours?|hrs?|h)\b`;
const AT_MOST = String.raw`(?:no|not|nothing|none|anything|something|a film|a movie|one)?\s*(?:longer than|over|more than|above|exceeding)|under|less than|shorter than|(?:at )?most|max(?:imum)?|no more than|up to|within|below`;

/** A refusal in the clause before a length: "can't sit through more than 2 hours", "nothing that's over". */
const REFUSED_BEFORE =
  /\b(?:can'?t|cannot|won'?t|don'?t|do not|doesn'?t|never|no|not|nothing|none|rather not|too)\b[^.,;!?]*$/i;

/** No film is shorter: a length said with "tops" or "max" under this is something else's. */
const MIN_FILM_MINUTES = 60;

/** Minutes of a {@link LENGTH} match from its groups, or undefined. */
function lengthMinutes(m: RegExpExecArray, at: number): number | undefined {
  const minutes = m[at];
  if (minutes) return Number(minutes);
  const hours = m[at + 1];
  if (!hours) return undefined;
  const h = WORD_NUMBERS[hours.toLowerCase()] ?? Number(hours);
  const part = /three[- ]quarters?|¾/i.test(m[0])
    ? 45
    : /and a half|½/i.test(m[0])
      ? 30
      : /a quarter|¼/i.test(m[0])
        ? 15
        : 0;
  const extra = Number(m[at + 2] ?? 0);
  const total = Math.round(h * 60) + part + extra;
  return total > 0 && total <= 300 ? total : undefined;
}

/**
 * The film's running time: "nothing longer than 100 minutes", "under 2 hours", "I can't sit still
 * for more than an hour and a half", "max 2hrs long", "at least 2 hours long". The amount must be a
 * length (minutes or hours); one that says how far or how long before something else ("less than
 * 2 hours before my train", "20 minutes away") is not the film's.
 */
export const runtimeRule: Rule = (scan) => [
  ...hits(
    scan,
    String.raw`(?:(?:runs?|running(?: time)?|runtime|long|length|sit(?: still)?(?: through)?(?: for)?|films?|movies?|anything|nothing)\s+)?(?:${AT_MOST})\s+(?:${APPROX}\s*)?(?:${LENGTH})(?:\s+(?:long|in length|of (?:run ?time|running time)))?`,
    (m) => {
      const after = scan.original.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 24);
      if (/^\s*(?:away|from|before|after|drive|walk|ago|to get|of (?:driving|travel))/i.test(after)) return undefined;
      const before = scan.original.slice(Math.max(0, (m.index ?? 0) - 40), m.index ?? 0);
      // "Under", "at most", "longer than" say a limit; "over", "more than" and "within" say one only
      // about the film ("nothing over 2 hours", "a film of more than") or refused ("can't do more than").
      const weak = /^(?:over|more than|above|exceeding|within)\b/i.test(m[0]);
      const aboutFilm =
        /\b(?:long|longer|length|runs?|running|runtime|sit|films?|movies?|anything|nothing|none)\b/i.test(m[0]) ||
        /\b(?:film|movie|one|it|runtime|length|sit(?: still)?|can'?t|cannot|won'?t|don'?t|no|not|nothing)\b[^.,;!?]*$/i.test(
          before,
        );
      if (weak && !aboutFilm) return undefined;
      const minutes = lengthMinutes(m, 1);
      if (minutes === undefined) return undefined;
      // "Over 2 hours long", "something longer than 2 hours" with nothing refusing it ask for a long
      // film: a minimum. "Nothing over 2 hours", "can't sit through more than 2 hours" are limits.
      const beyond = /(?:longer than|over|more than|above|exceeding)\s/i.test(m[0]);
      const refused =
        /^(?:no|not|nothing|none)\b/i.test(m[0]) ||
        REFUSED_BEFORE.test(before) ||
        /^\s*(?:is|are|'s)?\s*(?:too|a bit|way|far|much)\b|^\s*(?:is|'s)\s+(?:out|no good|a no)/i.test(after);
      if (beyond && !refused) return { ...span(m), drafts: [{ set: { kind: 'runtime', minMinutes: minutes } }] };
      return { ...span(m), drafts: [{ set: { kind: 'runtime', maxMinutes: minutes } }] };
    },
  ),
  // "90 mins tops", "2 hours max", "two hours or less": the limit said after the length.
  ...hits(
    scan,
    String.raw`(?:${LENGTH})(?:\s+(?:long|in length))?\s*(?:,\s*)?(?:tops|max(?:imum)?|at (?:the )?most|or (?:less|shorter|under))\b`,
    (m) => {
      const minutes = lengthMinutes(m, 1);
      // Only a film's length ("there in 20 minutes tops" is a journey).
      const journey = /\b(?:in|there|away|drive|walk|wait)\s*$/i.test(scan.original.slice(0, m.index ?? 0));
      return minutes === undefined || minutes < MIN_FILM_MINUTES || journey
        ? undefined
        : { ...span(m), drafts: [{ set: { kind: 'runtime', maxMinutes: minutes } }] };
    },
  ),
  // "2 hours plus", "2+ hours", "two hours or more", "2 hours or longer": a long film wished for.
  ...hits(
    scan,
    String.raw`(?:${LENGTH})(?:\s+long)?\s*(?:,\s*)?(?:plus|\+|or (?:more|longer|over))(?![\w+])|(?:${LENGTH_PLUS})`,
    (m) => {
      const minutes = lengthMinutes(m, 1) ?? lengthMinutes(m, 5);
      const before = scan.original.slice(Math.max(0, (m.index ?? 0) - 40), m.index ?? 0);
      // "I'm free for 2 hours plus" is the participant's time, not the film's length.
      const notFilm = /\b(?:free|spare|got|have|wait|drive|away|in|takes?|journey)\b[^.,;!?]*$/i.test(before);
      return minutes === undefined || minutes < MIN_FILM_MINUTES || REFUSED_BEFORE.test(before) || notFilm
        ? undefined
        : { ...span(m), drafts: [{ set: { kind: 'runtime', minMinutes: minutes } }] };
    },
  ),
  ...hits(scan, String.raw`(?:at least|minimum(?: of)?|min(?:imum)?\.?)\s+(?:${LENGTH})\s+(?:long|in length)`, (m) => {
    const minutes = lengthMinutes(m, 1);
    return minutes === undefined
      ? undefined
      : { ...span(m), drafts: [{ set: { kind: 'runtime', minMinutes: minutes } }] };
  }),
];
