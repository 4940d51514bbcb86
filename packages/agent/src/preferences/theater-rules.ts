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
  return [...named, ...runs];
};

function theaterDrafts(name: string, p: ReturnType<typeof polarity>): Draft[] {
  if (p === 'skip') return [];
  return [{ set: p === 'negative' ? { kind: 'theater', not: [name] } : { kind: 'theater', is: [name] } }];
}
