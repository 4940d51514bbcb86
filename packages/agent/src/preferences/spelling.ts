import { distance } from 'fastest-levenshtein';
import type { Fix, PreferenceContext } from './types.ts';

/*
 * What people type → what the rules read. Before any rule runs, a message is rewritten in three
 * steps, and each change is kept so the agent can say how it read a word:
 * 1. shorthand and slang ("tmrw", "2nite", "tix", "ppl", "me n my bf", "arvo") and larger number
 *    words ("forty", "half a dozen", "twenty-fourth") become plain words and digits;
 * 2. a misspelt title ("orbitel drift", "the quiet harbur", "deep blu cities") becomes the title
 *    on screen: the same number of words, each starting with the same letter, at most about one
 *    edit in four letters;
 * 3. a misspelt booking word ("saterday", "tomorow", "comdey", "togehter", "adluts") becomes that
 *    word: five letters or more, the same first letter, one edit (two from seven letters), an
 *    adjacent swap counting as one. Only the booking vocabulary below is a target, never ordinary
 *    English, and words such as "earlier" or "later" are never changed.
 * Edit distance is `fastest-levenshtein`'s.
 */

const SHORTHAND: Array<[RegExp, string]> = [
  [/\b(?:tmrw|tmr|tmw|tmrow|tomoz|tmoz|2moro|2morrow|2mrw|tomorow|tommorow|tommorrow)\b/gi, 'tomorrow'],
  // A weekday typed short or misspelt: "satday", "wensday", "thursdy", "fridya".
  [/\b(?!saturday\b)sat[a-z]{0,4}(?:day|dy|dya)\b/gi, 'saturday'],
  [/\b(?!sunday\b)sun(?:n?day|dy|dya)\b/gi, 'sunday'],
  [/\b(?!monday\b)mon(?:n?day|dy|dya)\b/gi, 'monday'],
  [/\b(?!tuesday\b)tu[a-z]{0,4}(?:day|dy|dya)\b/gi, 'tuesday'],
  [/\b(?!wednesday\b)we[dn][a-z]{0,5}(?:day|dy|dya)\b/gi, 'wednesday'],
  [/\b(?!thursday\b)th[ue]r[a-z]{0,3}(?:day|dy|dya)\b/gi, 'thursday'],
  [/\b(?!friday\b)fr[iy][a-z]{0,2}(?:day|dy|dya)\b/gi, 'friday'],
  // "sun am", "sat pm": that day's morning or afternoon.
  [/\b((?:mon|tues?|wed|thurs?|fri|sat|sun)(?:day)?)\s+am\b/gi, '$1 morning'],
  [/\b((?:mon|tues?|wed|thurs?|fri|sat|sun)(?:day)?)\s+pm\b/gi, '$1 afternoon'],
  [/\b(?:evng|evenin|evning|evnin)\b/gi, 'evening'],
  [/\b(?:adlt|adlts|adluts?|audlts?)\b/gi, 'adults'],
  [/\b(?:chld|chlid|chidl)\b/gi, 'child'],
  [/\b(?:kds|kidz)\b/gi, 'kids'],
  [/\b(?:snr|snrs)\b/gi, 'senior'],
  [/(?<=\s|^)@\s*(?=[a-z])/gi, 'at '],
  // "3x adult", "2 x child": a count written as a multiplier.
  [/\b(\d{1,2})\s*x\s+(?=(?:adults?|child(?:ren)?|kids?|seniors?|students?|tickets?|seats?|people)\b)/gi, '$1 '],
  [/\b(adults?|child(?:ren)?|kids?|seniors?|tickets?|seats?)\s+x\s*(\d{1,2})\b/gi, '$2 $1'],
  [/\b(?:2nite|2night|tonite|tonght)\b/gi, 'tonight'],
  [/\b(?:sry|srry|sory|soz|sowwy)\b/gi, 'sorry'],
  // "Any chance of 2 for something funny": a request, its count after "of".
  [
    /\b(?:any\s+)?chance\s+(?:of|for)\b(?=\s+(?:\d{1,2}|one|two|three|four|five|six|a|an|some|tickets?|seats?)\b)/gi,
    'could we get',
  ],
  [/\b(?:cuz|coz|cus)\b(?=\s+(?:is|isn'?t|was|wants?|can'?t|will|'?s|and|too)\b)/gi, 'cousin'],
  [/\bnite\b/gi, 'night'],
  [/\b(?:tix|tkts|tix\.)\b/gi, 'tickets'],
  [/\btkt\b/gi, 'ticket'],
  [/\bppl\b/gi, 'people'],
  [/\b(?:pls|plz|plse)\b/gi, 'please'],
  [/\b(?:smth|sth|sumthing|sumthin|somethin|smthg|smthn|smthng|smthin|sumthn|summat)\b/gi, 'something'],
  [/\b(?:whatevs|watever)\b/gi, 'whatever'],
  [/\bwhatevers\b/gi, "whatever's"],
  [/\b(?:nt|nit)\b(?= (?:a|an|the|too|any|after|before|on|in|at|that|this|sure|fussed|bothered)\b)/gi, 'not'],
  [/\b(?:aftr|aftr\.|afta)\b/gi, 'after'],
  [/\b(?:b4|bfr|bfore)\b/gi, 'before'],
  [/\babt\b/gi, 'about'],
  [/\b(?:btwn|btw(?= \d))\b/gi, 'between'],
  [/\bnxt\b/gi, 'next'],
  [/\b(?:nothin|nuthin|nthing)\b/gi, 'nothing'],
  [/\b(?:anythin|anythng)\b/gi, 'anything'],
  // "more then 40", "earlier then 7": "then" after a comparison is "than".
  [/\b(more|less|earlier|later|rather|other|cheaper|further|closer|no more|higher|lower) then\b/gi, '$1 than'],
  [/\barvo\b/gi, 'afternoon'],
  [/\bmorn\b/gi, 'morning'],
  [/\b(?:wknd|wkend|wkd)\b/gi, 'weekend'],
  // Not the eve of a named day ("christmas eve", "new year's eve"), which the dates read.
  [/(?<!\b(?:christmas|xmas|year'?s)\s+)\beve\b/gi, 'evening'],
  [/\bbf\b/gi, 'boyfriend'],
  [/\bgf\b/gi, 'girlfriend'],
  [/\bbro\b/gi, 'brother'],
  [/\bsis\b/gi, 'sister'],
  [/\b(?:hubby)\b/gi, 'husband'],
  // A partner said without "my": "me + hubby", "me and other half".
  [/(?<=\b(?:my|the|and)\s+)other half\b/gi, 'partner'],
  [/(?<=(?:\b(?:me|i|and|plus|with)|\+)\s+)(?=(?:husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?)\b)/gi, 'my '],
  [/\b(?:bestie|bff|best mate)\b/gi, 'best friend'],
  [/\bposs\b/gi, 'possible'],
  [/\b(?:the )?(?:missus|mrs)\b/gi, 'my wife'],
  [/\bthe (?=wife|husband|hubby|kids|children)\b/gi, 'my '],
  [/\bluv\b/gi, 'love'],
  [/\bwanna\b/gi, 'want to'],
  [/\bgotta\b/gi, 'have to'],
  [/\blemme\b/gi, 'let me'],
  [/\b(?:whats|wats)\b/gi, "what's"],
  [/\bdont\b/gi, "don't"],
  [/\bcant\b/gi, "can't"],
  [/\bwont\b/gi, "won't"],
  [/\bdoesnt\b/gi, "doesn't"],
  [/\bim\b/gi, "i'm"],
  [/\bsci fi\b/gi, 'sci-fi'],
  [/\bn\b(?= my\b| me\b| the\b| her\b| his\b)/gi, 'and'],
  // "dust n thunder", "me n him": a lone "n" between words is "and" (not a row: "row n").
  [/(?<!\b(?:rows?|seats?)\s)(?<=[a-z] )n(?= [a-z])/gi, 'and'],
  // "w my gf", "w/ the kids": "with" before the people it names.
  [/\bw\/?(?= (?:my|me|the|our|her|his|him|them)\b)/gi, 'with'],
  [/(?<=\s|^)w\/(?=\s)/gi, 'with'],
  // "smthn w action": a lone "w" after a word, before one, is "with" too.
  [/(?<=[a-z] )w(?= [a-z]{3,})/gi, 'with'],
  [/ & /g, ' and '],
  [/\b4 (?=me|us|you|him|her|them)\b/gi, 'for '],
  [/\b(tickets?|seats?) 4\b/gi, '$1 for'],
  [/\b(\d{1,2}) 4 (?=[a-z])/gi, '$1 for '],
];

const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const UNITS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
const ORDINAL_UNITS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
};
const TEENS: Record<string, number> = {
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const ORDINAL_WORDS: Record<string, number> = {
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};
const suffix = (n: number) =>
  n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';

/** Number words the rules do not read themselves: tens, teens, dozens and ordinals past "tenth". */
function numbers(text: string): string {
  return text
    .replace(/\bhalf a dozen\b/gi, '6')
    .replace(/\ba dozen\b/gi, '12')
    .replace(
      /\b(twenty|thirty)[- ]?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b/gi,
      (_m, t: string, u: string) => {
        const n = (TENS[t.toLowerCase()] ?? 0) + (ORDINAL_UNITS[u.toLowerCase()] ?? 0);
        return `${n}${suffix(n)}`;
      },
    )
    .replace(new RegExp(`\\b(${Object.keys(ORDINAL_WORDS).join('|')})\\b`, 'gi'), (m) => {
      const n = ORDINAL_WORDS[m.toLowerCase()] ?? 0;
      return `${n}${suffix(n)}`;
    })
    .replace(
      /\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ]?(one|two|three|four|five|six|seven|eight|nine))?\b/gi,
      (_m, t: string, u?: string) => String((TENS[t.toLowerCase()] ?? 0) + (u ? (UNITS[u.toLowerCase()] ?? 0) : 0)),
    )
    .replace(new RegExp(`\\b(${Object.keys(TEENS).join('|')})\\b`, 'gi'), (m) => String(TEENS[m.toLowerCase()]));
}

/** The booking words a misspelling is corrected to. Ordinary English is never a target. */
const VOCABULARY = [
  ...'monday tuesday wednesday thursday friday saturday sunday tomorrow tonight today weekend'.split(' '),
  ...'january february march april june july august september october november december'.split(' '),
  ...'morning afternoon evening matinee midnight'.split(' '),
  ...'ticket tickets adult adults child children seniors senior pensioner people together wheelchair premium'.split(
    ' ',
  ),
  ...'comedy comedies documentary thriller thrillers horror romantic romance drama animation animated adventure musical family action science fiction cartoon'.split(
    ' ',
  ),
  ...'imax cheapest earliest latest closest nearest highest rated reviews cinema theater theatre'.split(' '),
];
/** Real words close to a target that must stay as written. */
const KEEP = new Set(
  'earlier later closer cheaper higher nearer latter letter better rather there three these those right night might light eight weight times comes come comet dates rates later latte seater sister senor tonights mornings evenings afternoons tickers romantics adultery'.split(
    ' ',
  ),
);

/** One edit for five or six letters, two from seven; an adjacent swap is one edit. */
function close(word: string, target: string): boolean {
  if (word[0] !== target[0] || word.length < 5) return false;
  const allowed = word.length >= 7 ? 2 : 1;
  if (distance(word, target) <= allowed) return true;
  return word.length === target.length && swappedOnce(word, target);
}

/** Whether `a` is `b` with two adjacent letters swapped ("norhtgate", "northgate"). */
export function swappedOnce(a: string, b: string): boolean {
  const diff: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff.push(i);
  const [i, j] = diff;
  return diff.length === 2 && i !== undefined && j === i + 1 && a[i] === b[j] && a[j] === b[i];
}

function words(text: string, targets: readonly string[], keep: readonly string[], fixes: Fix[]): string {
  const known = new Set([...targets, ...keep]);
  return text.replace(/\b[a-z]{5,}\b/gi, (word) => {
    const lower = word.toLowerCase();
    if (known.has(lower) || KEEP.has(lower)) return word;
    const best = targets.filter((t) => close(lower, t)).sort((a, b) => distance(lower, a) - distance(lower, b))[0];
    if (!best) return word;
    fixes.push({ from: word, to: best });
    return best;
  });
}

/** Misspelt titles → the titles on screen (see the file comment for what counts as misspelt). */
function titles(text: string, known: readonly string[], fixes: Fix[]): string {
  let out = text;
  for (const title of [...known].sort((a, b) => b.length - a.length)) {
    const bare = title.replace(/^(?:the|a|an)\s+/i, '');
    const want = bare.toLowerCase().split(/\s+/);
    if (bare.length < 6) continue;
    const tokens = [...out.matchAll(/[\p{L}\p{N}']+/gu)];
    for (let i = 0; i + want.length <= tokens.length; i++) {
      const run = tokens.slice(i, i + want.length);
      const start = run[0]?.index ?? 0;
      const last = run[run.length - 1];
      const end = (last?.index ?? 0) + (last?.[0].length ?? 0);
      const written = out.slice(start, end);
      if (/\n/.test(written)) continue;
      const got = run.map((m) => m[0].toLowerCase());
      if (got.join(' ') === want.join(' ')) continue;
      if (!got.every((w, k) => w[0] === want[k]?.[0])) continue;
      const d = distance(got.join(' '), want.join(' '));
      if (d === 0 || d > Math.max(1, Math.floor(bare.length / 4))) continue;
      fixes.push({ from: written, to: bare });
      out = out.slice(0, start) + bare + out.slice(end);
      break;
    }
  }
  return out;
}

/** The message as the rules should read it, and each word changed on the way. */
export function correct(text: string, context: PreferenceContext): { text: string; fixes: Fix[] } {
  const fixes: Fix[] = [];
  let out = text;
  for (const [re, to] of SHORTHAND) {
    const found = out.match(re);
    if (!found) continue;
    out = out.replace(re, to);
    for (const from of found) fixes.push({ from, to: to.replace(/\$\d/g, '').trim() || from });
  }
  const spelled = numbers(out);
  if (spelled !== out) fixes.push({ from: 'number words', to: 'digits' });
  out = titles(spelled, context.knownTitles ?? [], fixes);
  const split = (names: readonly string[] | undefined) => (names ?? []).flatMap((n) => n.toLowerCase().split(/[\s-]+/));
  // Short genre words ("sport", "crime") are too near ordinary words ("short") to be targets.
  const genreWords = split(context.knownGenres).filter((w) => w.length >= 6);
  // Words of the titles on screen are never changed into booking words.
  const titleWords = split(context.knownTitles);
  return { text: words(out, [...new Set([...VOCABULARY, ...genreWords])], titleWords, fixes), fixes };
}
