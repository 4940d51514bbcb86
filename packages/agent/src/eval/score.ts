import { type Constraint, type ConstraintKind, theaterNamed } from '@usher/booking';
import { KIND_ORDER } from '../preferences/kinds.ts';

/*
 * Scoring a reading against a case, kind by kind. For each kind, the constraints of each
 * strength are folded into one normal form (lists sorted and lower-cased, ticket counts with
 * zeros); the kind is right when both strengths agree. Theater names match as the checker
 * matches them (a shorter name whose words are all in the full one).
 */

/** A reading or a case: hard and soft constraints. */
export interface Lists {
  hard: readonly Constraint[];
  soft: readonly Constraint[];
}

export type Outcome = 'right' | 'missed' | 'wrong' | 'spurious';

type Normal = Record<string, unknown>;

function fold(list: readonly Constraint[], kind: ConstraintKind, theaters: readonly string[]): Normal | null {
  const of = list.filter((c) => c.kind === kind);
  if (of.length === 0) return null;
  const out: Normal = {};
  for (const c of of) {
    for (const [key, value] of Object.entries(c)) {
      if (key === 'kind') continue;
      if (Array.isArray(value)) {
        const names = value.map((v) => String(v)).map((v) => (kind === 'theater' ? canonical(v, theaters) : v));
        const merged = new Set([...((out[key] as string[] | undefined) ?? []), ...names.map((v) => v.toLowerCase())]);
        out[key] = [...merged].sort();
      } else out[key] = value;
    }
  }
  if (kind === 'ticketMix') for (const t of ['adult', 'child', 'senior']) out[t] = out[t] ?? 0;
  // Field order is not meaning: {include, exclude} and {exclude, include} are one reading.
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** A theater as written, or the one full name among `theaters` it names. */
function canonical(name: string, theaters: readonly string[]): string {
  const matches = theaters.filter((t) => theaterNamed({ id: '', name: t }, name));
  return matches.length === 1 ? (matches[0] as string) : name;
}

/** How a reading did on each kind the case or the reading mentions. */
export function scoreKinds(expected: Lists, actual: Lists, theaters: readonly string[]): Map<ConstraintKind, Outcome> {
  const out = new Map<ConstraintKind, Outcome>();
  for (const kind of KIND_ORDER) {
    const want = [fold(expected.hard, kind, theaters), fold(expected.soft, kind, theaters)];
    const got = [fold(actual.hard, kind, theaters), fold(actual.soft, kind, theaters)];
    const wanted = want.some((w) => w !== null);
    const read = got.some((g) => g !== null);
    if (!wanted && !read) continue;
    if (JSON.stringify(want) === JSON.stringify(got)) out.set(kind, 'right');
    else if (!read) out.set(kind, 'missed');
    else if (!wanted) out.set(kind, 'spurious');
    else out.set(kind, 'wrong');
  }
  return out;
}
