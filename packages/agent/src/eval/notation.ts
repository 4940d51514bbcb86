import { type Constraint, ConstraintSchema } from '@usher/booking';

/*
 * The evaluation set's short notation for constraints, so a reviewer reads a case at a glance:
 *   seats 2 · mix a2 c1 s1 · title Orbital Drift · title! The Hollow House · genre Action Adventure ·
 *   genre! Horror · rating 7.5 · age G PG · format IMAX · format! 3D · date 2026-11-22 2026-11-23 ·
 *   start 17:00- · start -21:00 · start 12:00-17:00 · end -22:30 · theater Riverside IMAX ·
 *   theater! Lumen Arthouse · distance 5 · price 30 · adjacent · rows A B · rows notFirst 3 ·
 *   rows notLast 1 · rows last 2 · seatKind wheelchair 1 · seatKind premium ·
 *   cheapest · closest · earliest · latest · centered · highestRated
 * A genre name may hold a space ("Romantic Comedy"), so a genre list names known genres, read
 * longest first. Every result is checked against the constraint model's schema.
 */

const PREFERENCES = new Set(['cheapest', 'closest', 'earliest', 'latest', 'centered', 'highestRated']);

/** One constraint from its notation; throws a readable error on anything it does not know. */
export function parseConstraint(text: string, genres: readonly string[]): Constraint {
  const trimmed = text.trim();
  const [head = '', ...restWords] = trimmed.split(/\s+/);
  const rest = restWords.join(' ');
  const negated = head.endsWith('!');
  const word = negated ? head.slice(0, -1) : head;
  const list = (value: string) => value.split(/\s+/).filter(Boolean);
  let c: unknown;
  if (PREFERENCES.has(word) && rest === '') c = { kind: word };
  else if (word === 'adjacent' && rest === '') c = { kind: 'adjacent' };
  else if (word === 'seats') c = { kind: 'seatCount', count: Number(rest) };
  else if (word === 'mix') c = mix(rest);
  else if (word === 'title' || word === 'theater') c = { kind: word, [negated ? 'not' : 'is']: [rest] };
  else if (word === 'format') c = { kind: 'format', [negated ? 'not' : 'is']: list(rest) };
  else if (word === 'genre') c = { kind: 'genre', [negated ? 'exclude' : 'include']: genreList(rest, genres) };
  else if (word === 'rating') c = { kind: 'rating', min: Number(rest) };
  else if (word === 'age') c = { kind: 'ageRating', allowed: list(rest) };
  else if (word === 'date') c = { kind: 'date', dates: list(rest) };
  else if (word === 'start' || word === 'end') c = { kind: `${word}Time`, ...window(rest) };
  else if (word === 'distance') c = { kind: 'distance', maxKm: Number(rest) };
  else if (word === 'price') c = { kind: 'price', maxTotal: Number(rest) };
  else if (word === 'rows') c = rows(rest);
  else if (word === 'seatKind') {
    const [kind, count] = list(rest);
    c = { kind: 'seatKind', seatKind: kind, ...(count ? { count: Number(count) } : {}) };
  }
  const parsed = ConstraintSchema.safeParse(c);
  if (!parsed.success) throw new Error(`cannot read the constraint "${trimmed}"`);
  return parsed.data;
}

function mix(rest: string): unknown {
  const out: Record<string, unknown> = { kind: 'ticketMix' };
  const names: Record<string, string> = { a: 'adult', c: 'child', s: 'senior' };
  for (const part of rest.split(/\s+/)) {
    const m = /^([acs])(\d+)$/.exec(part);
    if (!m) return undefined;
    out[names[m[1] as string] as string] = Number(m[2]);
  }
  return out;
}

function window(rest: string): Record<string, string> {
  const m = /^(\d\d:\d\d)?-(\d\d:\d\d)?$/.exec(rest);
  if (!m) return {};
  return { ...(m[1] ? { after: m[1] } : {}), ...(m[2] ? { before: m[2] } : {}) };
}

function rows(rest: string): unknown {
  const [first, second] = rest.split(/\s+/);
  if (first === 'notFirst' || first === 'notLast' || first === 'last') return { kind: 'rows', [first]: Number(second) };
  return { kind: 'rows', allowed: rest.split(/\s+/) };
}

function genreList(rest: string, genres: readonly string[]): string[] {
  const known = [...genres].sort((a, b) => b.length - a.length);
  const out: string[] = [];
  let left = rest.trim();
  while (left !== '') {
    const genre = known.find((g) => left === g || left.startsWith(`${g} `));
    if (!genre) throw new Error(`unknown genre in "${rest}"`);
    out.push(genre);
    left = left.slice(genre.length).trim();
  }
  return out;
}
