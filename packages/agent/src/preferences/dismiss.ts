import type { ConstraintKind } from '@usher/booking';
import { hits, span } from './match.ts';
import type { Draft, Rule, Scan } from './types.ts';
import { FORMAT_WORDS, genreLexicon, KIND_NOUNS, type Lexicon, lexicon, titleLexicon } from './vocabulary.ts';

/*
 * Withdrawn wishes: "forget the IMAX", "no preference on time", "any day is fine", "the price
 * doesn't matter", "don't need to sit together". A named value (IMAX, a genre, a title) drops
 * only that value; a kind noun (time, day, price …) drops every wish of that kind.
 * This rule runs first, so the words it reads are not taken as new wishes by later rules.
 */

type Target = { kinds: ConstraintKind[] } | { kind: ConstraintKind; value: string };

/** What a term names, tried from the most specific table to the most general. */
function targets(scan: Scan): { source: string; resolve(term: string): Target | undefined } {
  const tables: Array<[Lexicon<unknown>, (value: never) => Target]> = [
    [titleLexicon(scan.context.knownTitles), (value: string) => ({ kind: 'title', value })],
    [lexicon(FORMAT_WORDS), (value: string) => ({ kind: 'format', value })],
    [genreLexicon(scan.context.knownGenres), (value: string) => ({ kind: 'genre', value })],
    [lexicon(KIND_NOUNS), (kinds: ConstraintKind[]) => ({ kinds })],
  ];
  const present = tables.filter(([l]) => l.source !== '');
  return {
    source: present.map(([l]) => l.source).join('|'),
    resolve(term) {
      for (const [l, make] of present) {
        const value = l.lookup(term);
        if (value !== undefined) return make(value as never);
      }
      return undefined;
    },
  };
}

const kindNouns = lexicon(KIND_NOUNS);

/** What a pronoun can stand for: a film, a format, a genre or a kind of seat; not "the cost" or "the time". */
function thingsSaid(scan: Scan): string {
  const seatKinds = KIND_NOUNS.filter((e) => e.value.length === 1 && e.value[0] === 'seatKind');
  return [
    titleLexicon(scan.context.knownTitles),
    lexicon(FORMAT_WORDS),
    genreLexicon(scan.context.knownGenres),
    lexicon(seatKinds),
  ]
    .map((l) => l.source)
    .filter((source) => source !== '')
    .join('|');
}

const FORGET = String.raw`(?:forget|never\s?mind|drop|scrap|scratch|ditch|lose|ignore|disregard|remove|cancel)(?:\s+about)?(?:\s+(?:the|that|my|any))?(?:\s+(?:idea of|bit about|part about))?`;
/** A withdrawal of something said by a pronoun ("forget them"), without "the" or "that". */
const FORGET_BARE = String.raw`forget|never\s?mind|drop|scrap|ditch|skip|lose`;
/** How far back, in characters, a pronoun may look for what it stands for: a sentence or two of this message. */
const REFERENCE_REACH = 120;
const NO_PREFERENCE = String.raw`(?:no (?:particular |real |strong )?preferences?|don'?t (?:really )?(?:care|mind)|do not (?:care|mind)|not (?:fussed|bothered))(?:\s+(?:on|for|about|regarding|with|what|which|as to))?(?:\s+(?:the|a|an))?`;
const NOT_NEEDED = String.raw`(?:no need (?:for|to)|don'?t need(?: to)?|do not need(?: to)?|doesn'?t (?:need|have) to|needn'?t)(?:\s+(?:be|sit|have|get|see))?(?:\s+(?:the|an?|in))?`;
const DOES_NOT_MATTER = String.raw`(?:really\s+)?(?:(?:doesn'?t|does not|don'?t|do not)\s+matter|(?:is|are)\s+(?:flexible|not important|unimportant|optional|negotiable)|(?:isn'?t|aren'?t)\s+important)`;

/*
 * "I don't mind what time as long as it's not in the morning", "don't care about the format, just
 * not 3D": a withdrawal with a condition applies first, and the condition's wish then stands.
 */
const CONDITION =
  /^\s*,?\s*(?:(?:really|much|at all|tbh)\s+)?(?:as long as|so long as|provided|providing|unless|except|but not|just not|only not)\b/i;

/*
 * "After 7pm would be best, otherwise any time works": a withdrawal said as the fallback of a wish
 * in the same message leaves that wish as said (a preference): it applies before every wish of the message.
 */
const FALLBACK =
  /\b(?:otherwise|or else|else|failing that|if not|or if not|but if not|and if not)\s*,?\s*(?:(?:really|honestly|tbh)\s+)?$/i;

/** Withdrawals of a wish, by value or by kind. */
export const dismissRule: Rule = (scan) => {
  const t = targets(scan);
  // Built once a message, and only when a pronoun asks for it.
  let things: RegExp | undefined;
  const thingNamed = () => {
    things ??= new RegExp(String.raw`\b(${thingsSaid(scan)})\b`, 'gi');
    return things;
  };
  const read = (term: string | undefined, m: RegExpExecArray) => {
    const target = t.resolve(term ?? '');
    if (!target) return undefined;
    const after = scan.original.slice((m.index ?? 0) + m[0].length);
    // The fallback's wish was said before it, perhaps at rank 0 itself ("evening if possible, otherwise whenever").
    const rank = FALLBACK.test(scan.original.slice(0, m.index ?? 0)) ? -1 : CONDITION.test(after) ? 0 : undefined;
    return { ...span(m), drafts: drafts(target).map((d) => (rank === undefined ? d : { ...d, rank })) };
  };
  return [
    ...hits(scan, `(?:${FORGET}|${NO_PREFERENCE}|${NOT_NEEDED})\\s+(${t.source})`, (m) => read(m[1], m)),
    ...hits(scan, `(?:the\\s+)?(${t.source})\\s+${DOES_NOT_MATTER}`, (m) => read(m[1], m)),
    ...hits(
      scan,
      // Not "any time after lunch": a bound, not any time at all.
      String.raw`any\s?(${kindNouns.source})(?!\s+(?:after|before|from|between|until|till|past|by|in the (?:morning|afternoon|evening))\b)(?:\s+(?:is|are|would be|will be)\s+(?:fine|ok|okay|good|great))?`,
      (m) => read(m[1], m),
    ),
    // "Just seen what the recliners cost. Forget them": the thing named last before, in this message.
    ...hits(scan, String.raw`(?:${FORGET_BARE})\s+(?:them|it|those)\b(?!\s*(?:all|altogether|entirely))`, (m) => {
      const before = scan.original.slice(Math.max(0, (m.index ?? 0) - REFERENCE_REACH), m.index ?? 0);
      // "If it's not allowed just forget it", "otherwise forget it": the whole booking, on a condition.
      if (/\b(?:if|unless|otherwise|else|failing that)\b[^.;!?]*$/i.test(before)) return undefined;
      const named = [...before.matchAll(thingNamed())].at(-1);
      return named ? read(named[1], m) : undefined;
    }),
    // "Whichever cinema is closest": any theater, the closest of them (its own rule reads "closest").
    ...hits(
      scan,
      String.raw`(?:whichever|whatever|any)\s+(cinema|theat(?:er|re))(?=(?:\s+(?:is|'s|that's|that\s+is))?\s+(?:the\s+)?(?:closest|nearest))`,
      (m) => read(m[1], m),
    ),
    ...hits(scan, 'whenever|anytime', (m) => read('time', m)),
    ...hits(scan, 'anywhere', (m) => read('distance', m)),
  ];
};

function drafts(target: Target): Draft[] {
  if ('kinds' in target) return target.kinds.map((kind) => ({ remove: kind }));
  return [{ remove: target.kind, value: target.value }];
}
