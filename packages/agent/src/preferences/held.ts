import type { Constraint, ConstraintKind } from '@usher/booking';
import { addDays, weekLater } from './dates.ts';
import { byKind, isHardConstraint } from './kinds.ts';
import { build, fields } from './merge.ts';
import { CHANGE_OF_MIND } from './text.ts';
import type { KnownFilm, Op, PreferenceContext, PreferenceModel } from './types.ts';

/*
 * What a message means for the wishes already held, once its operations are merged (merge.ts):
 * the film or the theater held turned down without naming another ("seen that one", "somewhere
 * else"), a wish said as a condition on the film held, a polite change of mind kept as firm as
 * the wish it replaces, "next sunday" for the Sunday held, days refused while none is wished for,
 * and a film named one way replacing the same film named another. index.ts applies them in turn.
 */

const ADDS = /\b(?:also|too|as well)\b/i;

/**
 * Whether this message's wishes about what the film is (a genre refused, an age rating, a minimum
 * rating) rule out every film named before, as the movie stage showed them: "Iron Tempest", then
 * "she's only 7, nothing above PG and no action" leaves Iron Tempest for a film that fits.
 */
function ruledOut(after: PreferenceModel, ops: readonly Op[], films: readonly KnownFilm[]): boolean {
  const said = new Set(ops.flatMap((op) => (op.type === 'set' ? [op.constraint.kind] : [])));
  const judged = after.hard.filter(
    (c) => said.has(c.kind) && (c.kind === 'genre' || c.kind === 'ageRating' || c.kind === 'rating'),
  );
  if (judged.length === 0) return false;
  const titles = after.hard.flatMap((c) => (c.kind === 'title' ? (c.is ?? []) : []));
  const known = titles.map((t) => films.find((f) => f.title.toLowerCase() === t.toLowerCase()));
  if (known.length === 0 || known.some((f) => f === undefined)) return false;
  const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());
  const fails = (f: KnownFilm) =>
    judged.some((c) => {
      if (c.kind === 'genre') {
        const genres = lower(f.genres);
        return (
          lower(c.exclude ?? []).some((g) => genres.includes(g)) ||
          (c.include !== undefined && !lower(c.include).some((g) => genres.includes(g)))
        );
      }
      if (c.kind === 'ageRating') return f.ageRating !== undefined && !c.allowed.includes(f.ageRating as never);
      if (c.kind === 'rating') return f.rating !== undefined && f.rating < c.min;
      return false;
    });
  return known.every((f) => f !== undefined && fails(f));
}

/** A wish said as a condition on the film held: "only if it's got 4 stars", "as long as it's PG". */
const HELD_FILM_CONDITION =
  /\b(?:only\s+if|if|as long as|so long as|provided|providing|assuming)\s+(?:it|that(?:\s+one)?|this(?:\s+one)?|the (?:film|movie))(?:'s|\s+is|\s+has|\s+gets|\s+got|\s+does|\s+scores|\s+rates)\b/i;

/*
 * "Already seen that one", "a different thriller instead", "something else", "pick something PG
 * instead": the film the model holds is turned down, not named. Not "a different day", "another
 * showing", "a different cinema", "something earlier instead".
 */
const OTHER_FILM =
  /\b(?:(?:already|'ve|have|has|we|i)\s+(?:already\s+)?(?:seen|watched|saw)\s+(?:that|it|this)(?:\s+(?:one|film|movie))?|(?:seen|watched) (?:that|it) already|(?:a\s+)?different\s+(?!(?:day|date|time|night|evening|afternoon|morning|showing|show|screening|cinema|theat(?:er|re)|place|venue|seats?|row|format)\b)[a-z-]+|something else|another (?:one|film|movie)|not that one|something(?!\s+(?:earlier|later|cheaper|closer|nearer|sooner|bigger|smaller)\b)[^.?!;]{0,60}\binstead)\b/i;

/** Whether a message turns down the film the model holds ("we've already seen that one"). */
export function turnsDownFilm(before: PreferenceModel, text: string): boolean {
  return OTHER_FILM.test(text) && before.hard.some((c) => c.kind === 'title' && (c.is?.length ?? 0) > 0);
}

/** The model without the film it held, which is now refused, when the message turns that film down. */
function otherFilm(before: PreferenceModel, ops: readonly Op[], text: string) {
  if (!turnsDownFilm(before, text)) return null;
  if (ops.some((op) => op.type === 'set' && op.constraint.kind === 'title' && (op.constraint.is?.length ?? 0) > 0))
    return null;
  const held = before.hard.flatMap((c) => (c.kind === 'title' ? (c.is ?? []) : []));
  return (after: PreferenceModel): PreferenceModel => {
    const refused = new Set(after.hard.flatMap((c) => (c.kind === 'title' ? (c.not ?? []) : [])));
    for (const t of held) refused.add(t);
    const hard = after.hard.filter((c) => c.kind !== 'title');
    return {
      ...after,
      hard: byKind([...hard, { kind: 'title', not: [...refused] }]).filter(isHardConstraint),
      soft: after.soft.filter((c) => c.kind !== 'title'),
    };
  };
}

/*
 * "A different cinema", "somewhere else", "northgate is a trek, anywhere nearer than that": the
 * theater the model holds is turned down, not named. Nearer or closer than it: the closest of the
 * others is wished for too.
 */
const OTHER_THEATER =
  /\b(?:(?:a\s+)?different\s+(?:cinema|theat(?:er|re)|place|venue)|another\s+(?:cinema|theat(?:er|re)|venue)|(?:somewhere|anywhere|someplace|anyplace)\s+else|(?:nearer|closer)\s+than\s+(?:that|there|it|this(?:\s+one)?|that\s+one)|(?:is|'s|are)\s+(?:a\s+(?:bit\s+of\s+a\s+|real\s+)?trek|(?:way\s+|much\s+)?too\s+far(?:\s+away)?|miles\s+away|a\s+pain\s+to\s+get\s+to|out\s+of\s+(?:the|our|my)\s+way))\b/i;
const NEARER = /\b(?:nearer|closer)\b/i;

/** Whether a message turns down the theater the model holds ("somewhere else", "anywhere nearer than that"). */
export function turnsDownTheater(before: PreferenceModel, text: string): boolean {
  return OTHER_THEATER.test(text) && before.hard.some((c) => c.kind === 'theater' && (c.is?.length ?? 0) > 0);
}

/** The model with the theater it held refused, when the message turns that theater down and names no other. */
export function otherTheater(
  before: PreferenceModel,
  after: PreferenceModel,
  ops: readonly Op[],
  text: string,
): PreferenceModel {
  if (!turnsDownTheater(before, text)) return after;
  if (ops.some((op) => op.type === 'set' && op.constraint.kind === 'theater' && (op.constraint.is?.length ?? 0) > 0))
    return after;
  const held = before.hard.flatMap((c) => (c.kind === 'theater' ? (c.is ?? []) : []));
  const refused = new Set([...after.hard.flatMap((c) => (c.kind === 'theater' ? (c.not ?? []) : [])), ...held]);
  const nearer = NEARER.test(text) && ![...after.hard, ...after.soft].some((c) => c.kind === 'closest');
  return {
    ...after,
    hard: byKind([...after.hard.filter((c) => c.kind !== 'theater'), { kind: 'theater', not: [...refused] }]).filter(
      isHardConstraint,
    ),
    soft: [...after.soft.filter((c) => c.kind !== 'theater'), ...(nearer ? [{ kind: 'closest' as const }] : [])],
  };
}

/**
 * "Harbor lights sunday", then "sorry, I meant next sunday": where the day held is that weekday and
 * the message reads it as the same day, it means the one a week later.
 */
export function nextOfHeld(before: PreferenceModel, after: PreferenceModel, text: string): PreferenceModel {
  const held = before.hard.find((c) => c.kind === 'date');
  const now = after.hard.find((c) => c.kind === 'date');
  if (held?.kind !== 'date' || now?.kind !== 'date' || held.dates.length !== 1 || now.dates.length !== 1) return after;
  if (held.dates[0] !== now.dates[0]) return after;
  const later = weekLater(held.dates[0] as string, text);
  if (!later) return after;
  return { ...after, hard: after.hard.map((c) => (c.kind === 'date' ? { kind: 'date', dates: [later] } : c)) };
}

/** How many days ahead "any day but Friday" reaches: two weeks, more than a study's listings show. */
const DAYS_AHEAD = 14;

/**
 * "Any day this week except friday", "not tonight": a day refused while no day is wished for leaves
 * every other day of the next two weeks, so the refusal holds.
 */
export function refusedDays(after: PreferenceModel, ops: readonly Op[], today: string): PreferenceModel {
  const refused = ops.flatMap((op) => (op.type === 'remove' && op.kind === 'date' && op.value ? [op.value] : []));
  if (refused.length === 0 || [...after.hard, ...after.soft].some((c) => c.kind === 'date')) return after;
  const days = Array.from({ length: DAYS_AHEAD }, (_, i) => addDays(today, i)).filter((d) => !refused.includes(d));
  return { ...after, hard: byKind([...after.hard, { kind: 'date', dates: days }]).filter(isHardConstraint) };
}

/** Kinds named by a list (a theater, a film, a format, a day) whose wish a change of mind replaces firmly. */
const FIRM_KINDS: readonly ConstraintKind[] = ['theater', 'title', 'format', 'date', 'genre'];

/**
 * "2 for harbor lights at lakeside", then "oh, we'd prefer riverside actually": a change of mind
 * said politely replaces a firm wish with a firm one, not with a mere preference. Where the model
 * held a kind as hard and this message, with a change-of-mind word ("actually", "instead",
 * "switch to"), leaves only a soft positive wish of that kind, the wish becomes hard.
 */
export function firmCorrection(before: PreferenceModel, after: PreferenceModel, text: string): PreferenceModel {
  if (!CHANGE_OF_MIND.test(text)) return after;
  let model = after;
  for (const kind of FIRM_KINDS) {
    const positive = (c: Constraint) =>
      c.kind === kind && ((fields(c).is ?? fields(c).include ?? fields(c).dates) as unknown[] | undefined)?.length;
    if (!before.hard.some(positive) || model.hard.some(positive)) continue;
    const soft = model.soft.filter((c) => c.kind === kind);
    if (!soft.some(positive)) continue;
    // One constraint of the kind: a refusal held ("not lakeside") and the wish said now.
    const joined = build(
      kind,
      Object.assign({}, ...model.hard.filter((c) => c.kind === kind).map(fields), ...soft.map(fields)),
    );
    model = {
      ...model,
      hard: byKind([...model.hard.filter((c) => c.kind !== kind), joined]).filter(isHardConstraint),
      soft: model.soft.filter((c) => c.kind !== kind),
    };
  }
  return model;
}

/** The model after a message, with an earlier way of naming the film dropped when this one names it the other way. */
export function supersedeFilm(
  before: PreferenceModel,
  after: PreferenceModel,
  ops: readonly Op[],
  text: string,
  films: readonly KnownFilm[] = [],
  /** The wishes with what the page holds where they name nothing ({@link withPageChoices}), for "seen that one". */
  shown: PreferenceModel = before,
): PreferenceModel {
  const seen = otherFilm(shown, ops, text);
  if (seen) return seen(after);
  if (ADDS.test(text)) return after;
  const named = (kind: 'title' | 'genre', side: 'is' | 'include') =>
    ops.some(
      (op) =>
        op.type === 'set' &&
        op.constraint.kind === kind &&
        (fields(op.constraint)[side] as unknown[] | undefined)?.length,
    );
  const had = (kind: 'title' | 'genre', side: 'is' | 'include') =>
    [...before.hard, ...before.soft].some((c) => c.kind === kind && (fields(c)[side] as unknown[] | undefined)?.length);
  let drop: { kind: 'title' | 'genre'; side: 'is' | 'include' } | null = null;
  if (named('genre', 'include') && !named('title', 'is') && had('title', 'is')) drop = { kind: 'title', side: 'is' };
  // "Only if it's got at least 4 stars": a condition on the film held keeps it, even when it fails.
  const onHeld = HELD_FILM_CONDITION.test(text);
  if (!drop && !onHeld && !named('title', 'is') && had('title', 'is') && ruledOut(after, ops, films))
    drop = { kind: 'title', side: 'is' };
  // "Changed my mind, whatever's rated highest instead": a film chosen by its rating in a change of mind.
  const byRating = ops.some(
    (op) => op.type === 'set' && (op.constraint.kind === 'highestRated' || op.constraint.kind === 'rating'),
  );
  if (!drop && !onHeld && byRating && !named('title', 'is') && had('title', 'is') && CHANGE_OF_MIND.test(text))
    drop = { kind: 'title', side: 'is' };
  if (named('title', 'is') && !named('genre', 'include') && had('genre', 'include'))
    drop = { kind: 'genre', side: 'include' };
  if (!drop) return after;
  const { kind, side } = drop;
  const strip = (list: Constraint[]) =>
    list.flatMap((c) => {
      if (c.kind !== kind) return [c];
      const rest = { ...fields(c), [side]: undefined };
      delete rest[side];
      const left = Object.entries(rest).filter(([k, v]) => k !== 'kind' && Array.isArray(v) && v.length > 0);
      return left.length > 0 ? [build(kind, Object.fromEntries(left))] : [];
    });
  return { ...after, hard: strip(after.hard).filter(isHardConstraint), soft: strip(after.soft) };
}

/**
 * "Anything except a thriller … she actually really wants to see Midnight Ledger": a film named
 * later that a kind of film refused before rules out is the wish, and that refusal gives way to it.
 * Only for refusals held from before (one said in the same message stands), and only where the
 * films on show say the film's kinds.
 */
export function refusalGivesWay(
  before: PreferenceModel,
  after: PreferenceModel,
  ops: readonly Op[],
  films: readonly KnownFilm[] = [],
): PreferenceModel {
  const titles = ops.flatMap((op) =>
    op.type === 'set' && op.constraint.kind === 'title' ? (op.constraint.is ?? []) : [],
  );
  const refusedNow = ops.some(
    (op) => op.type === 'set' && op.constraint.kind === 'genre' && (op.constraint.exclude?.length ?? 0) > 0,
  );
  if (titles.length === 0 || refusedNow) return after;
  const kinds = new Set(
    films
      .filter((f) => titles.some((t) => t.toLowerCase() === f.title.toLowerCase()))
      .flatMap((f) => f.genres.map((g) => g.toLowerCase())),
  );
  const held = new Set(
    [...before.hard, ...before.soft]
      .flatMap((c) => (c.kind === 'genre' ? (c.exclude ?? []) : []))
      .map((g) => g.toLowerCase()),
  );
  const givesWay = (genre: string) => kinds.has(genre.toLowerCase()) && held.has(genre.toLowerCase());
  const mend = (list: Constraint[]) =>
    list.flatMap((c): Constraint[] => {
      if (c.kind !== 'genre' || !c.exclude?.some(givesWay)) return [c];
      const exclude = c.exclude.filter((g) => !givesWay(g));
      const next = { ...c, exclude: exclude.length > 0 ? exclude : undefined };
      if (!next.exclude) delete next.exclude;
      return next.include || next.exclude ? [next] : [];
    });
  return { ...after, hard: mend(after.hard).filter(isHardConstraint), soft: mend(after.soft) };
}

/**
 * "Giggle Factory or the cartoon one": a film and a kind of film said as alternatives in one
 * message are one wish, for that film or any film of that kind the films on show list. Without the
 * films' kinds (none seen yet) both stay, as said.
 */
export function titleOrKind(
  after: PreferenceModel,
  ops: readonly Op[],
  text: string,
  films: readonly KnownFilm[] = [],
): PreferenceModel {
  const title = ops.find(
    (op): op is Extract<Op, { type: 'set' }> =>
      op.type === 'set' && op.constraint.kind === 'title' && (op.constraint.is?.length ?? 0) > 0,
  );
  const kind = ops.find(
    (op): op is Extract<Op, { type: 'set' }> =>
      op.type === 'set' && op.constraint.kind === 'genre' && (op.constraint.include?.length ?? 0) > 0,
  );
  if (!title || !kind || films.length === 0) return after;
  const [from, to] = title.at < kind.at ? [title.at, kind.at] : [kind.at, title.at];
  if (!/\bor\b/i.test(text.slice(from, to)) || /[.;!?]|\band\b/i.test(text.slice(from, to))) return after;
  const titles = title.constraint.kind === 'title' ? (title.constraint.is ?? []) : [];
  const kinds = kind.constraint.kind === 'genre' ? (kind.constraint.include ?? []) : [];
  const ofKind = films
    .filter((f) => f.genres.some((g) => kinds.some((k) => k.toLowerCase() === g.toLowerCase())))
    .map((f) => f.title);
  const either = [...new Set([...titles, ...ofKind])];
  const strength = title.strength === 'hard' ? after.hard : after.soft;
  const mend = (list: Constraint[], own: boolean) =>
    list.flatMap((c): Constraint[] => {
      if (c.kind === 'genre' && c.include?.length) {
        const { include: _, ...rest } = c;
        return rest.exclude?.length ? [rest as Constraint] : [];
      }
      if (c.kind === 'title' && own) return [{ ...c, is: either }];
      return [c];
    });
  return {
    ...after,
    hard: mend(after.hard, strength === after.hard).filter(isHardConstraint),
    soft: mend(after.soft, strength === after.soft),
  };
}

/** Words that turn down the film on the page: "seen that one", "a different film", "something else". */
const PAGE_FILM_REFUSED =
  /\b(?:(?:already|'ve|have|has|we|i)\s+(?:already\s+)?(?:seen|watched|saw)\s+(?:that|it|this)(?:\s+(?:one|film|movie))?|(?:seen|watched) (?:that|it) already|(?:a\s+)?different\s+(?:film|movie|one)|another\s+(?:film|movie)|something else|not that (?:one|film|movie))\b/i;

/**
 * The wishes, with the film and the theater the page holds standing in where the participant named
 * none: "we've seen that one" or "that's too far, somewhere closer" said of what the agent chose.
 */
export function withPageChoices(
  model: PreferenceModel,
  onPage: PreferenceContext['onPage'],
  text: string,
): PreferenceModel {
  let hard = model.hard;
  // Only plain words turn down a film nobody named ("something on sunday instead" keeps it).
  for (const [kind, name] of [
    ['title', PAGE_FILM_REFUSED.test(text) ? onPage?.film : undefined],
    ['theater', onPage?.theater],
  ] as const) {
    const held = hard.find((c) => c.kind === kind);
    if (!name || (held?.kind === kind && (held.is?.length ?? 0) > 0)) continue;
    // A refusal held ("not northgate") stays beside what the page holds.
    const not = held?.kind === kind ? held.not : undefined;
    hard = [...hard.filter((c) => c.kind !== kind), { kind, is: [name], ...(not && { not }) }];
  }
  return hard === model.hard ? model : { ...model, hard: byKind(hard).filter(isHardConstraint) };
}
