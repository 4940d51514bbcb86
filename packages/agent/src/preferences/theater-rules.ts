import { theaterNamed } from '@usher/booking';
import { hits, span } from './match.ts';
import { capitalizedRuns } from './names.ts';
import { blank, polarity } from './text.ts';
import type { Draft, Hit, Rule } from './types.ts';
import { titleLexicon } from './vocabulary.ts';

/* The theater a participant names: "at Riverside IMAX", "not at Starlight Multiplex". */

/**
 * Named theaters: the known ones (the theater stage's items) in any case, else a run of capitals
 * that names a theater ({@link capitalizedRuns}: "at Riverside", "Grand Central Cinema"). A run
 * that names exactly one known theater takes its full name. "not at X" excludes one. A place
 * ("near Grand Central") is blanked without a wish.
 */
export const theaterRule: Rule = (scan) => {
  const known = scan.context.knownTheaters ?? [];
  const theaters = titleLexicon(known);
  const named =
    theaters.source === ''
      ? []
      : hits(scan, theaters.source, (m) => {
          const theater = theaters.lookup(m[0]);
          return theater
            ? { ...span(m), drafts: theaterDrafts(theater, polarity(scan.original, m.index ?? 0)) }
            : undefined;
        });
  const shortNames = firstWords(known);
  const byWord = hits(
    { ...scan, text: named.reduce((text, hit) => blank(text, hit.start, hit.end), scan.text) },
    shortNames.source,
    (m) => {
      const name = shortNames.lookup(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '');
      return name ? { ...span(m), drafts: theaterDrafts(name, polarity(scan.original, m.index ?? 0)) } : undefined;
    },
  );
  named.push(...byWord);
  const rest = named.reduce((text, hit) => blank(text, hit.start, hit.end), scan.text);
  const runs: Hit[] = capitalizedRuns({ ...scan, text: rest })
    .filter((run) => run.names === 'theater' || run.names === 'place')
    .map((run) => {
      // A place is read as nothing, so its words make no other wish.
      if (run.names === 'place') return { start: run.start, end: run.end, drafts: [] };
      const matches = known.filter((name) => theaterNamed({ id: '', name }, run.name));
      const name = matches.length === 1 ? (matches[0] as string) : run.name;
      return { start: run.start, end: run.end, drafts: theaterDrafts(name, polarity(scan.original, run.start)) };
    });
  const taken = [...named, ...runs].reduce((text, hit) => blank(text, hit.start, hit.end), scan.text);
  // "at grand central cinema": a venue named in lower case, read up to its venue word.
  const lower = hits({ ...scan, text: taken }, LOWER_VENUE, (m) => {
    const words = (m[1] ?? m[2] ?? '').trim().split(/\s+/);
    if (words.some((w) => NOT_A_NAME.test(w))) return undefined;
    const written = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
    const matches = known.filter((name) => theaterNamed({ id: '', name }, written));
    const name = matches.length === 1 ? (matches[0] as string) : written;
    return { ...span(m), drafts: theaterDrafts(name, polarity(scan.original, m.index ?? 0)) };
  });
  return listedRefusals([...named, ...runs, ...lower], scan.original);
};

/** Between two theaters of one list: "northgate, lakeside or riverside". */
const LIST_GAP = /^\s*(?:,\s*(?:(?:or|and|nor)\s+)?|(?:or|and|nor|&|\/)\s+)(?:the\s+)?$/i;

/**
 * "Not northgate, lakeside or riverside": theaters listed right after one refused are refused too,
 * though a comma ends the clause the refusal was read in.
 */
function listedRefusals(found: Hit[], text: string): Hit[] {
  const sorted = [...found].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1] as Hit;
    const hit = sorted[i] as Hit;
    const refused = before.drafts.some((d) => 'set' in d && d.set.kind === 'theater' && d.set.not);
    if (!refused || !LIST_GAP.test(text.slice(before.end, hit.start))) continue;
    hit.drafts = hit.drafts.map((d) =>
      'set' in d && d.set.kind === 'theater' && d.set.is ? { ...d, set: { kind: 'theater', not: d.set.is } } : d,
    );
  }
  return sorted;
}

/**
 * A theater on screen named by its first word alone, in any case, where a place is named ("at
 * lakeside", "make it northgate instead", "lakeside cinema on sunday", "lakeside or riverside", a
 * clause of the name alone: "hmm, no, northgate") or
 * refused ("skip lakeside", "not northgate", "lakeside is out"), or said to be better ("no wait, lakeside
 * is nearer"): only a first word of five letters
 * or more that no other theater on screen starts with and that is no venue word, so "grand" alone
 * is never a theater.
 */
function firstWords(known: readonly string[]): { source: string; lookup(word: string): string | undefined } {
  const first = (name: string) =>
    (name
      .toLowerCase()
      .replace(/^the\s+/, '')
      .match(/^[a-z]+/) ?? [''])[0];
  const counts = new Map<string, number>();
  for (const name of known) counts.set(first(name), (counts.get(first(name)) ?? 0) + 1);
  const byWord = new Map(
    known
      .filter((name) => first(name).length >= 5 && counts.get(first(name)) === 1 && !VENUE_WORD.test(first(name)))
      .map((name) => [first(name), name]),
  );
  // "old mill" for Old Mill Cinema: a name of two words or more without its venue word or number,
  // which names that theater anywhere.
  const core = (name: string) =>
    name
      .toLowerCase()
      .replace(/^the\s+/, '')
      .replace(/\b(?:cinemas?|theat(?:er|re)s?|multiplex|cineplex|stadium|\d+)\b/g, ' ')
      .trim()
      .replace(/\s+/g, ' ');
  const cores = new Map(
    known
      .map((name) => [core(name), name] as const)
      .filter(([c]) => c.includes(' ') && known.filter((n) => core(n) === c).length === 1),
  );
  // "the art house" for Riverside Art House: the last words of a name (two or more, or one of five
  // letters or more that is no venue word), after "the", that end no other theater's name.
  const tails = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of known) {
    const words = core(name).split(' ');
    for (let i = 1; i < words.length; i++) {
      const tail = words.slice(i).join(' ');
      if (words.length - i < 2 && (tail.length < 5 || VENUE_WORD.test(tail))) continue;
      if (tails.has(tail) || cores.has(tail) || byWord.has(tail)) taken.add(tail);
      tails.set(tail, name);
    }
  }
  for (const tail of taken) tails.delete(tail);
  const words = [...byWord.keys()].join('|');
  const phrases = [...cores.keys()].map((c) => c.replace(/ /g, String.raw`\s+`)).join('|');
  const ends = [...tails.keys()].map((c) => c.replace(/ /g, String.raw`\s*`)).join('|');
  const byFirst =
    words === ''
      ? '(?!)'
      : String.raw`(?<=\b(?:at|in|to|from|near|make it|try|not|skip|avoid|than|except|but|prefer|rather|go with|choose|pick|or|either|and|nor|&)\s+(?:the\s+)?)(${words})\b(?!\s+(?:${words}))|\b(${words})(?=\s+(?:instead|cinema|theat(?:er|re)|multiplex|cineplex)\b|(?:'s|\s+is|\s+was|\s+would be)\s+(?:out|no good|not (?:an option|ok|okay|good)|a no|off|(?:much\s+|a lot\s+|a bit\s+)?(?:nearer|closer|better|easier|handier|more convenient))\b|\s*(?:or|and|nor|&|\/|,)\s*(?:the\s+)?(?:${words})\b)|(?<=(?:^|[,.;!?:])\s*(?:the\s+)?)(${words})(?=\s*(?:please|pls|then|instead|thanks|ta)?\s*(?:[,.;!?]|$))`;
  const byEnd = ends === '' ? '' : String.raw`|(?<=\bthe\s+)(${ends})\b(?!\s+(?:film|movie|flick|one)s?\b)`;
  return {
    source: phrases === '' ? `(?:${byFirst}${byEnd})` : `(?:${byFirst}|\\b(${phrases})\\b${byEnd})`,
    lookup: (word) => {
      const said = word.toLowerCase().replace(/\s+/g, ' ');
      return byWord.get(said) ?? cores.get(said) ?? tails.get(said) ?? tailWithoutSpace(tails, said);
    },
  };
}

/** "arthouse" said for "art house". */
function tailWithoutSpace(tails: ReadonlyMap<string, string>, said: string): string | undefined {
  for (const [tail, name] of tails) if (tail.replace(/ /g, '') === said) return name;
  return undefined;
}

const VENUE_WORD = /^(?:cinema|cinemas|theater|theatre|multiplex|cineplex|odeon|movies|pictures|grand|royal|central)$/;

/**
 * After a venue word, what makes it no name: a plural ("in many cinemas"), or a noun the venue
 * word describes ("ordinary cinema seats", "in the imax screen").
 */
const NOT_A_VENUE_NOUN = String.raw`(?![\w'-]|\s+(?:seats?|chairs?|screens?|tickets?|prices?|snacks?|food|popcorn|experience|trips?|visits?|outings?|nights?|dates?|chains?|listings?|times?|sound|halls?|rooms?|staff)\b)`;
/* "at grand central cinema", or opening a clause: "lakeside cinema on sunday". */
const LOWER_VENUE = String.raw`(?:at|in)\s+(?:the\s+)?((?:[a-z]+\s+){1,3}(?:cinema|theater|theatre|multiplex|arthouse|imax|odeon|cineplex|stadium))${NOT_A_VENUE_NOUN}|(?<=^|[,.;!?]\s*)((?:[a-z]+\s+){1,2}(?:cinema|theater|theatre|multiplex|cineplex|stadium))${NOT_A_VENUE_NOUN}`;
/* Words that describe a venue rather than name it: "at the local cinema" names none. */
const NOT_A_NAME =
  /^(?:a|an|the|no|not|just|only|any|which|whichever|whatever|wherever|every|some|one|local|nearest|closest|cheapest|nice|good|big|small|other|same|my|our|your|that|this|regular|normal|standard|3d|2d|many|several|multiple|lots|more|most|all|both|few|various|different|two|three|four|ordinary|usual|proper|decent|real|actual|cheap|fancy|comfy|posh|old|new|indie|independent|quiet|busy|whole|entire|each|another|their|his|her|its|every)$/i;

function theaterDrafts(name: string, p: ReturnType<typeof polarity>): Draft[] {
  if (p === 'skip') return [];
  return [{ set: p === 'negative' ? { kind: 'theater', not: [name] } : { kind: 'theater', is: [name] } }];
}
