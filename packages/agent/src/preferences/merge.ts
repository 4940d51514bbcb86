import type { Constraint, ConstraintKind } from '@usher/booking';
import { byKind, isHardConstraint, PREFERENCE_KINDS } from './kinds.ts';
import { clock, minutesOf } from './times.ts';
import type { Op, PreferenceModel, Strength } from './types.ts';

/*
 * Applying a message's operations to the model. The general rule is "the latest statement of a
 * kind wins, with the strength it was said with"; four families refine that rule:
 * - lists with a positive and a negative side (genre, title, theater, format, date): a new positive list
 *   replaces the old one (several in one message join: "IMAX or 3D"), refusals accumulate
 *   ("no horror", later "no thrillers either"), and a value moves sides when restated;
 * - time windows: a named window ("evening", "around 7") replaces both bounds, a single bound
 *   ("before 9") changes only its side, dropping the other side if they no longer fit together;
 * - counts (seat count, ticket mix, dates) may be added to ("plus a child", "either day");
 * - a fallback widens what is acceptable and keeps the old wish as the preference ("afternoon works
 *   too", "otherwise regular is fine", "Sunday works too");
 * - everything else is replaced whole.
 * A kind can then sit in both lists (hard "not 3D", soft "IMAX"); each list holds at most one
 * constraint per kind once a message has touched it. What a message means for the wishes already
 * held (a film or theater turned down, a change of mind, "next sunday") is read in held.ts.
 */

interface Lists {
  hard: Constraint[];
  soft: Constraint[];
}

const SIDES: Partial<Record<ConstraintKind, readonly [string, string?]>> = {
  genre: ['include', 'exclude'],
  title: ['is', 'not'],
  theater: ['is', 'not'],
  format: ['is', 'not'],
  date: ['dates'],
};
const BOUNDED: readonly ConstraintKind[] = ['startTime', 'endTime'];
const STRENGTHS: readonly Strength[] = ['hard', 'soft'];

/** The model after a message's operations; pure. */
export function merge(model: PreferenceModel, ops: readonly Op[]): PreferenceModel {
  const lists: Lists = { hard: [...model.hard], soft: [...model.soft] };
  const replaced = new Set<ConstraintKind>();
  const touched = new Set<ConstraintKind>();
  const saysStart = ops.some(
    (op) => op.type === 'set' && op.constraint.kind === 'startTime' && op.mode !== 'later' && op.mode !== 'earlier',
  );
  const ordered = [...ops].sort((a, b) => a.rank - b.rank || a.at - b.at).filter((op) => !vaguer(op, ops));
  for (const op of ordered) {
    if (op.type === 'set' && (op.perTicket || op.implied)) continue;
    if (op.type === 'remove') remove(lists, op.kind, op.value);
    else set(lists, op, replaced, saysStart);
    touched.add(op.type === 'remove' ? op.kind : op.constraint.kind);
  }
  reconcileParty(lists, touched);
  const perTicket = perTicketLimit(model.perTicket, ordered);
  if (perTicket) perTicketPrice(lists, perTicket);
  for (const op of ordered) if (op.type === 'set' && op.implied) implied(lists, op);
  return {
    hard: byKind(lists.hard.filter(isHardConstraint)),
    soft: byKind(lists.soft),
    ...(perTicket ? { perTicket } : {}),
  };
}

/**
 * "In the very front row … we like being right up close to the screen": a vague wish about the rows
 * that only restates a precise one said in the same message adds nothing and replaces nothing.
 */
function vaguer(op: Op, ops: readonly Op[]): boolean {
  if (op.type !== 'set' || op.strength !== 'soft' || op.constraint.kind !== 'rows') return false;
  const wider = op.constraint.allowed ?? [];
  return ops.some(
    (o) =>
      o !== op &&
      o.type === 'set' &&
      o.strength === 'hard' &&
      o.constraint.kind === 'rows' &&
      (o.constraint.allowed ?? []).length > 0 &&
      (o.constraint.allowed ?? []).every((row) => wider.includes(row)),
  );
}

function ofKind(lists: Lists, kind: ConstraintKind): Array<{ c: Constraint; strength: Strength }> {
  return STRENGTHS.flatMap((strength) => lists[strength].filter((c) => c.kind === kind).map((c) => ({ c, strength })));
}

function replaceKind(lists: Lists, kind: ConstraintKind, next: Array<{ c: Constraint; strength: Strength }>): void {
  for (const s of STRENGTHS) lists[s] = lists[s].filter((c) => c.kind !== kind);
  for (const { c, strength } of next) lists[strength].push(c);
}

type Fields = Record<string, unknown>;
/** A constraint's fields, to read or copy whatever its kind. */
export const fields = (c: Constraint) => c as unknown as Fields;
/** A constraint of `kind` from fields read with {@link fields}. */
export const build = (kind: ConstraintKind, f: Fields) => ({ kind, ...f }) as unknown as Constraint;

function set(lists: Lists, op: Extract<Op, { type: 'set' }>, replaced: Set<ConstraintKind>, saysStart: boolean): void {
  const kind = op.constraint.kind;
  const strength: Strength = PREFERENCE_KINDS.includes(kind) ? 'soft' : op.strength;
  if (op.mode === 'later' || op.mode === 'earlier') return shift(lists, op.mode, saysStart);
  if (SIDES[kind]) return setSides(lists, op, strength, replaced);
  if (BOUNDED.includes(kind)) return setBounds(lists, op, strength);
  if (op.mode === 'add') return replaceKind(lists, kind, [{ c: added(lists, op.constraint), strength }]);
  if (op.mode === 'retype' && op.constraint.kind === 'ticketMix') return retype(lists, op.constraint, strength);
  if (op.mode === 'less' && op.constraint.kind === 'ticketMix') return fewer(lists, op.constraint, strength);
  if ((op.mode === 'speaker' || op.mode === 'person') && op.constraint.kind === 'ticketMix')
    return oneRetyped(lists, op.constraint, strength, op.mode);
  if (op.mode === 'refine' && kind === 'ticketMix') {
    // "No, just one adult": the named ticket types change, the others stay.
    const old = ofKind(lists, 'ticketMix')[0]?.c;
    const base = old?.kind === 'ticketMix' ? old : {};
    const next = { ...base, ...op.constraint } as { adult?: number; child?: number; senior?: number };
    return replaceKind(lists, kind, [{ c: mix(next.adult ?? 0, next.child ?? 0, next.senior ?? 0), strength }]);
  }
  if (op.constraint.kind === 'seatKind') return setSeatKind(lists, op.constraint, strength);
  replaceKind(lists, kind, [{ c: op.constraint, strength }]);
}

/**
 * A kind of seat replaces the one held, but a wheelchair space and recliners go together: "my
 * wheelchair space, with my wife in the recliner beside me" keeps the space and asks for at least
 * one recliner (all of them could not be, with a wheelchair space among the seats), when the party
 * has seats for both.
 */
function setSeatKind(lists: Lists, c: Extract<Constraint, { kind: 'seatKind' }>, strength: Strength): void {
  const held = ofKind(lists, 'seatKind').filter(
    (h): h is { c: Extract<Constraint, { kind: 'seatKind' }>; strength: Strength } => h.c.kind === 'seatKind',
  );
  const together = (a: string, b: string) => [a, b].sort().join() === 'premium,wheelchair';
  const kept = held.filter((h) => h.c.seatKind !== c.seatKind && together(h.c.seatKind, c.seatKind));
  const counted = (k: Extract<Constraint, { kind: 'seatKind' }>) =>
    k.seatKind === 'premium' && k.count === undefined ? { ...k, count: 1 } : k;
  // One seat cannot be both: "a wheelchair space for 1", then "make it a recliner instead" replaces.
  const seats = seatsCounted(lists);
  const needed = [...kept.map((h) => h.c), c].reduce((sum, k) => sum + (counted(k).count ?? 1), 0);
  if (kept.length === 0 || (seats !== undefined && needed > seats))
    return replaceKind(lists, 'seatKind', [{ c, strength }]);
  replaceKind(lists, 'seatKind', [
    ...kept.map((h) => ({ c: counted(h.c), strength: h.strength })),
    { c: counted(c), strength },
  ]);
}

interface Side {
  value: string;
  positive: boolean;
  strength: Strength;
}
const key = (v: string) => v.toLowerCase();

function setSides(lists: Lists, op: Extract<Op, { type: 'set' }>, strength: Strength, replaced: Set<ConstraintKind>) {
  const kind = op.constraint.kind;
  const [pos, neg] = SIDES[kind] ?? [];
  let entries = readSides(lists, kind);
  const put = (values: unknown, positive: boolean) => {
    for (const value of (values as string[] | undefined) ?? []) {
      // "Friday or Saturday, ideally Saturday": a value preferred among those allowed stays allowed.
      const allowed = positive && strength === 'soft';
      entries = entries.filter((e) => key(e.value) !== key(value) || (allowed && e.positive && e.strength === 'hard'));
      entries.push({ value, positive, strength });
    }
  };
  const positives = pos ? fields(op.constraint)[pos] : undefined;
  if (op.mode === 'widen' && entries.some((e) => e.positive)) {
    return writeSides(lists, kind, widenSides(entries, (positives as string[] | undefined) ?? [], strength));
  }
  if (positives !== undefined && op.mode !== 'add' && !replaced.has(kind)) {
    entries = entries.filter((e) => !e.positive);
    replaced.add(kind);
  }
  put(positives, true);
  if (neg) put(fields(op.constraint)[neg], false);
  writeSides(lists, kind, entries);
}

/**
 * "Is there a 3D showing? Otherwise regular is fine": the values wanted so far and the fallback
 * are all acceptable, said as firmly as the fallback; the values wanted so far stay as the preference.
 */
function widenSides(entries: Side[], fallback: string[], strength: Strength): Side[] {
  const wanted = [...new Set(entries.filter((e) => e.positive).map((e) => e.value))];
  const union = [...wanted, ...fallback.filter((v) => !wanted.some((w) => key(w) === key(v)))];
  const refused = entries.filter((e) => !e.positive && !fallback.some((v) => key(v) === key(e.value)));
  const acceptable = union.map((value) => ({ value, positive: true, strength }));
  const preferred =
    strength === 'hard' ? wanted.map((value) => ({ value, positive: true, strength: 'soft' as const })) : [];
  return [...refused, ...acceptable, ...preferred];
}

function readSides(lists: Lists, kind: ConstraintKind): Side[] {
  const [pos, neg] = SIDES[kind] ?? [];
  return ofKind(lists, kind).flatMap(({ c, strength }) => {
    const f = fields(c);
    const side = (name: string | undefined, positive: boolean) =>
      ((name ? f[name] : undefined) as string[] | undefined)?.map((value) => ({ value, positive, strength })) ?? [];
    return [...side(pos, true), ...side(neg, false)];
  });
}

function writeSides(lists: Lists, kind: ConstraintKind, entries: Side[]): void {
  const [pos = '', neg] = SIDES[kind] ?? [];
  const next = STRENGTHS.flatMap((strength) => {
    const of = (positive: boolean) =>
      entries.filter((e) => e.strength === strength && e.positive === positive).map((e) => e.value);
    const f: Fields = {};
    if (of(true).length > 0) f[pos] = kind === 'date' ? [...of(true)].sort() : of(true);
    if (neg && of(false).length > 0) f[neg] = of(false);
    return Object.keys(f).length > 0 ? [{ c: build(kind, f), strength }] : [];
  });
  replaceKind(lists, kind, next);
}

type Bound = { value: string; strength: Strength };

function setBounds(lists: Lists, op: Extract<Op, { type: 'set' }>, strength: Strength): void {
  const kind = op.constraint.kind;
  const given = fields(op.constraint) as { after?: string; before?: string };
  const bounds: { after?: Bound; before?: Bound } = {};
  if (op.mode === 'widen') return widenBounds(lists, op, strength);
  if (op.mode === 'refine') {
    for (const { c, strength: s } of ofKind(lists, kind)) {
      const f = fields(c) as { after?: string; before?: string };
      if (f.after) bounds.after = { value: f.after, strength: s };
      if (f.before) bounds.before = { value: f.before, strength: s };
    }
  }
  // "In the evening … we'd prefer one that starts after 9pm": a softer bound inside a hard one keeps
  // the hard one as the limit and is the preference within it.
  const floor: { after?: string; before?: string } = {};
  const inside = (side: 'after' | 'before', old: string, now: string) =>
    side === 'after' ? minutesOf(old) < minutesOf(now) : minutesOf(old) > minutesOf(now);
  for (const side of ['after', 'before'] as const) {
    const old = bounds[side];
    const now = given[side];
    if (now && strength === 'soft' && old?.strength === 'hard' && inside(side, old.value, now)) floor[side] = old.value;
  }
  if (given.after) bounds.after = { value: given.after, strength };
  if (given.before) bounds.before = { value: given.before, strength };
  // A new bound that contradicts the old opposite one replaces it ("afternoon", then "after 6pm").
  if (bounds.after && bounds.before && minutesOf(bounds.after.value) > minutesOf(bounds.before.value)) {
    if (given.after) delete bounds.before;
    else delete bounds.after;
  }
  const next = STRENGTHS.flatMap((s) => {
    const f: Fields = s === 'hard' ? { ...floor } : {};
    if (bounds.after?.strength === s) f.after = bounds.after.value;
    if (bounds.before?.strength === s) f.before = bounds.before.value;
    return Object.keys(f).length > 0 ? [{ c: build(kind, f), strength: s }] : [];
  });
  replaceKind(lists, kind, next);
}

/**
 * "Preferably evening, afternoon works too": the window becomes the union of the old and the new,
 * and the old window stays as the preference.
 */
function widenBounds(lists: Lists, op: Extract<Op, { type: 'set' }>, strength: Strength): void {
  const kind = op.constraint.kind;
  const given = fields(op.constraint) as { after?: string; before?: string };
  const old = ofKind(lists, kind);
  if (old.length === 0) return replaceKind(lists, kind, [{ c: op.constraint, strength }]);
  const windows = [...old.map(({ c }) => fields(c) as { after?: string; before?: string }), given];
  const union: Fields = {};
  if (windows.every((w) => w.after)) union.after = clock(Math.min(...windows.map((w) => minutesOf(w.after ?? ''))));
  if (windows.every((w) => w.before)) union.before = clock(Math.max(...windows.map((w) => minutesOf(w.before ?? ''))));
  const preference = old.map(({ c }) => ({ c, strength: 'soft' as const }));
  replaceKind(lists, kind, [
    ...(Object.keys(union).length > 0 ? [{ c: build(kind, union), strength }] : []),
    ...preference,
  ]);
}

/** A count added to the current one: seats, or tickets by type (a bare seat count counts as adults). */
function added(lists: Lists, c: Constraint): Constraint {
  const seats = ofKind(lists, 'seatCount')[0]?.c;
  const seatCount = seats?.kind === 'seatCount' ? seats.count : 0;
  if (c.kind === 'seatCount') return { kind: 'seatCount', count: seatCount + c.count };
  if (c.kind !== 'ticketMix') return c;
  const old = ofKind(lists, 'ticketMix')[0]?.c;
  const base: { adult?: number; child?: number; senior?: number } =
    old?.kind === 'ticketMix' ? old : { adult: seatCount };
  const sum = (a = 0, b = 0) => a + b;
  return mix(sum(base.adult, c.adult), sum(base.child, c.child), sum(base.senior, c.senior));
}

/** The party the model holds: its tickets, or its seat count as adults; undefined when it holds neither. */
function partyHeld(lists: Lists): { adult?: number; child?: number; senior?: number } | undefined {
  const old = ofKind(lists, 'ticketMix')[0]?.c;
  const seats = ofKind(lists, 'seatCount')[0]?.c;
  return old?.kind === 'ticketMix' ? old : seats?.kind === 'seatCount' ? { adult: seats.count } : undefined;
}

/**
 * "Courtside for me and my dad", then "oh he's 67": the party keeps its size and adults become the
 * types named, where the party does not hold them yet ("my 2 kids", then "they're 6 and 9", changes
 * nothing); with no party known, or too few adults, the types are the party.
 */
function retype(lists: Lists, c: Extract<Constraint, { kind: 'ticketMix' }>, strength: Strength): void {
  const base = partyHeld(lists);
  const child = Math.max(c.child ?? 0, base?.child ?? 0);
  const senior = Math.max(c.senior ?? 0, base?.senior ?? 0);
  const adult = (base?.adult ?? 0) - (child - (base?.child ?? 0)) - (senior - (base?.senior ?? 0));
  if (!base || adult < 0) return replaceKind(lists, 'ticketMix', [{ c, strength }]);
  replaceKind(lists, 'ticketMix', [{ c: mix(adult, child, senior), strength }]);
}

/**
 * One person of the party known takes another ticket type, the party's size staying: the speaker
 * ("2 tickets for me and my son", then "I'm 70": one adult becomes a senior; an adult's age changes
 * nothing), or someone already coming ("my son is actually 13": a child becomes an adult; "my dad
 * is 64, not 66": a senior becomes an adult). With no party known, the person is the party.
 */
function oneRetyped(
  lists: Lists,
  c: Extract<Constraint, { kind: 'ticketMix' }>,
  strength: Strength,
  who: 'speaker' | 'person',
): void {
  const base = partyHeld(lists);
  if (!base) return replaceKind(lists, 'ticketMix', [{ c, strength }]);
  const to = c.child ? 'child' : c.senior ? 'senior' : 'adult';
  const next = { adult: 0, child: 0, senior: 0, ...base };
  const from =
    to !== 'adult'
      ? 'adult'
      : who === 'speaker'
        ? undefined
        : next.child > 0
          ? 'child'
          : next.senior > 0
            ? 'senior'
            : undefined;
  if (!from || next[from] === 0) return;
  // "Me and my son", then "my boy is 4": with one adult left (the speaker) and a child held
  // already, he is that child; nothing changes.
  if (who === 'person' && from === 'adult' && next.adult <= 1 && next[to] > 0) return;
  next[from] -= 1;
  next[to] += 1;
  replaceKind(lists, 'ticketMix', [{ c: mix(next.adult, next.child, next.senior), strength }]);
}

/**
 * "2 for the orchard at 6", then "no, the later one": a start after the showing's time held, with the
 * strength it was held with; with no such time held ("friday evening, the earlier one"), the latest
 * (earliest) showing, softly, within the window held.
 */
function shift(lists: Lists, way: 'later' | 'earlier', saysStart: boolean): void {
  // A start said in the same message is no time held: "friday night, the earlier showing" is the earliest.
  const held = saysStart ? undefined : ofKind(lists, 'startTime')[0];
  const f = held ? (fields(held.c) as { after?: string; before?: string }) : {};
  // Only a showing's own time ("at 6") has a later one; within a window ("evening") it is the latest there.
  const from = f.after !== undefined && f.after === f.before ? f.after : undefined;
  if (held && from) {
    const minutes = minutesOf(from) + (way === 'later' ? 1 : -1);
    const bound = way === 'later' ? { after: clock(minutes) } : { before: clock(minutes) };
    return replaceKind(lists, 'startTime', [{ c: build('startTime', bound), strength: held.strength }]);
  }
  const [wanted, other] = way === 'later' ? (['latest', 'earliest'] as const) : (['earliest', 'latest'] as const);
  replaceKind(lists, other, []);
  replaceKind(lists, wanted, [{ c: { kind: wanted }, strength: 'soft' }]);
}

/** "One of the kids can't make it": their tickets off the party known; nothing when none would be left. */
function fewer(lists: Lists, c: Extract<Constraint, { kind: 'ticketMix' }>, strength: Strength): void {
  const base = partyHeld(lists);
  if (!base) return;
  const next = { adult: 0, child: 0, senior: 0, ...base };
  for (const t of ['adult', 'child', 'senior'] as const) next[t] = Math.max(0, next[t] - (c[t] ?? 0));
  if (next.adult + next.child + next.senior === 0) return;
  if (ofKind(lists, 'ticketMix').length > 0)
    return replaceKind(lists, 'ticketMix', [{ c: mix(next.adult, next.child, next.senior), strength }]);
  // Only a seat count was known: the count shrinks.
  replaceKind(lists, 'seatCount', [{ c: { kind: 'seatCount', count: next.adult }, strength }]);
}

function mix(adult: number, child: number, senior: number): Constraint {
  return {
    kind: 'ticketMix',
    ...(adult > 0 ? { adult } : {}),
    ...(child > 0 ? { child } : {}),
    ...(senior > 0 ? { senior } : {}),
  };
}

function remove(lists: Lists, kind: ConstraintKind, value: string | undefined): void {
  if (value === undefined || !SIDES[kind]) return replaceKind(lists, kind, []);
  writeSides(
    lists,
    kind,
    readSides(lists, kind).filter((e) => key(e.value) !== key(value)),
  );
}

/**
 * Keeps seat count and ticket mix in agreement: a new mix sets the seat count to its total; a new
 * seat count that no longer matches the old mix drops the mix, whose types are then unknown, unless
 * the party shrank and was all of one type.
 */
function reconcileParty(lists: Lists, touched: Set<ConstraintKind>): void {
  const mixEntry = ofKind(lists, 'ticketMix')[0];
  if (mixEntry?.c.kind !== 'ticketMix') return;
  const { adult = 0, child = 0, senior = 0 } = mixEntry.c;
  const total = adult + child + senior;
  const seats = ofKind(lists, 'seatCount')[0]?.c;
  if (touched.has('ticketMix') && total > 0) {
    replaceKind(lists, 'seatCount', [{ c: { kind: 'seatCount', count: total }, strength: mixEntry.strength }]);
  } else if (touched.has('seatCount') && seats?.kind === 'seatCount' && seats.count !== total) {
    // "All adults", then "just the 2 of us now": those left are of the one type there was.
    const types = [adult, child, senior].filter((n) => n > 0).length;
    const shrunk =
      types === 1 && seats.count < total
        ? mix(adult > 0 ? seats.count : 0, child > 0 ? seats.count : 0, senior > 0 ? seats.count : 0)
        : undefined;
    replaceKind(lists, 'ticketMix', shrunk ? [{ c: shrunk, strength: mixEntry.strength }] : []);
  }
}

/**
 * An implied wish (a child in the party: films for children) holds only while nothing of its kind
 * was said and no film is named: the participant who names a film has chosen it. It is a
 * preference, not a requirement: "my son's 11, a sci-fi in 3D" books the sci-fi film on offer
 * whatever its rating when no sci-fi film is rated for children; "anything for the kids" says it
 * firmly (the age-rating rule), and so does "suitable for him" of the child named (`firm`).
 */
function implied(lists: Lists, op: Extract<Op, { type: 'set' }>): void {
  const kind = op.constraint.kind;
  if (ofKind(lists, kind).length > 0) return;
  if (ofKind(lists, 'title').some(({ c }) => c.kind === 'title' && (c.is?.length ?? 0) > 0)) return;
  replaceKind(lists, kind, [{ c: op.constraint, strength: op.firm ? 'hard' : 'soft' }]);
}

/**
 * The per-ticket limit after a message: the last one said, or the old one unless a total limit was
 * said or the price withdrawn since.
 */
function perTicketLimit(old: PreferenceModel['perTicket'], ops: readonly Op[]): PreferenceModel['perTicket'] {
  let limit = old;
  for (const op of ops) {
    if (op.type === 'remove' && op.kind === 'price') limit = undefined;
    if (op.type !== 'set' || op.constraint.kind !== 'price') continue;
    limit = op.perTicket ? { max: op.constraint.maxTotal, strength: op.strength } : undefined;
  }
  return limit;
}

/** "$15 per ticket" is a total once the seat count is known; until then only the limit is kept. */
function perTicketPrice(lists: Lists, limit: NonNullable<PreferenceModel['perTicket']>): void {
  const seats = seatsCounted(lists);
  // A total said before the per-ticket limit is stale, also while the count is unknown.
  if (seats === undefined) return replaceKind(lists, 'price', []);
  const maxTotal = Math.round(limit.max * seats * 100) / 100;
  replaceKind(lists, 'price', [{ c: { kind: 'price', maxTotal }, strength: limit.strength }]);
}

/**
 * How many seats the lists count: the seat count, else the ticket mix, else the seats of a kind
 * counted ("I use a wheelchair" is one); undefined while nothing says (the reader then asks).
 */
function seatsCounted(lists: Lists): number | undefined {
  const seats = ofKind(lists, 'seatCount')[0]?.c;
  if (seats?.kind === 'seatCount') return seats.count;
  const mix = ofKind(lists, 'ticketMix')[0]?.c;
  const people = mix?.kind === 'ticketMix' ? (mix.adult ?? 0) + (mix.child ?? 0) + (mix.senior ?? 0) : 0;
  if (people > 0) return people;
  const kinds = ofKind(lists, 'seatKind').flatMap(({ c }) => (c.kind === 'seatKind' && c.count ? [c.count] : []));
  return kinds.length > 0 ? Math.max(...kinds) : undefined;
}

/*
 * A film is named either by its title or by what it is (genre): a later message that names it the
 * other way replaces the earlier way, unless it says it adds ("also", "too", "as well"). "2 for
 * Midnight Ledger", then "let's do a comedy instead": any comedy, no longer Midnight Ledger; "a
 * comedy", then "make it Paper Moons": Paper Moons, whatever its genre. Refusals stay either way.
 */
