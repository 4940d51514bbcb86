import type { Constraint, HardConstraint } from '@usher/booking';
import type { UiSpec } from '@usher/protocol';
import { num, text } from './fields.ts';
import { kindMet, midRow, type SeatLayout, type SeatView, seatInRows, together } from './judge.ts';
import { ofKind, requiredSeats } from './model.ts';

/*
 * Seat sets for the seat stage. The required size comes from `requiredSeats`; the participant's
 * seats (`state.selectedList`) are part of every set, because the solver never undoes a choice.
 * Enumeration stays small: every run of free seats side by side in a row (no aisle inside), plus,
 * when adjacency is not required, one set of the best single seats.
 */

/** The seat map's shape from `meta` (rows from the seats themselves when `meta` lacks them). */
export function readLayout(spec: UiSpec, seats: readonly SeatView[]): SeatLayout {
  const meta = spec.meta ?? {};
  const rows = Array.isArray(meta.rows) ? meta.rows.map(String) : [];
  const fromSeats = [...new Map(seats.map((s) => [s.rowIndex, s.row])).entries()].sort((a, b) => a[0] - b[0]);
  return {
    rows: rows.length > 0 ? rows : fromSeats.map(([, row]) => row),
    seatsPerRow: typeof meta.seatsPerRow === 'number' ? meta.seatsPerRow : Math.max(0, ...seats.map((s) => s.number)),
    aisleAfter: Array.isArray(meta.aisleAfter) ? meta.aisleAfter.filter((n) => typeof n === 'number') : [],
  };
}

/** Every seat of the map (`items`), free only when visible, not taken and not disabled. */
export function readSeats(spec: UiSpec): SeatView[] {
  const visible = new Set(spec.visibleItems.filter((i) => i.isDisabled !== true).map((i) => i.id));
  return spec.items.map((item, order) => ({
    id: item.id,
    row: text(item, 'row'),
    rowIndex: num(item, 'rowIndex'),
    number: num(item, 'number'),
    kind: text(item, 'kind'),
    surcharge: num(item, 'priceSurcharge') || 0,
    free: visible.has(item.id) && item.isDisabled !== true && item.taken !== true,
    order,
  }));
}

/** The hard seat constraints in the form enumeration needs. */
export interface SeatRules {
  size: number;
  adjacent: boolean;
  /** Rules each seat must meet: rows, the middle of the row, and seat kinds without a count. */
  perSeat: Array<Extract<HardConstraint, { kind: 'rows' | 'rowMiddle' | 'seatKind' }>>;
  /** Seat kinds with a count: the set as a whole must hold that many. */
  counted: Array<Extract<HardConstraint, { kind: 'seatKind' }>>;
}

/**
 * Rules from the hard constraints judged at the seat stage. The size is the required count
 * (`requiredSeats`); when no hard constraint fixes it, a larger selection of the participant's
 * own sets it instead (their seats are never dropped).
 */
export function seatRules(hard: readonly HardConstraint[], soft: readonly Constraint[], selected: number): SeatRules {
  const need = requiredSeats({ hard: [...hard], soft: [...soft] });
  const kinds = ofKind(hard, 'seatKind');
  return {
    size: need.hard ? need.count : Math.max(need.count, selected),
    adjacent: hard.some((c) => c.kind === 'adjacent'),
    perSeat: [...ofKind(hard, 'rows'), ...ofKind(hard, 'rowMiddle'), ...kinds.filter((c) => c.count === undefined)],
    counted: kinds.filter((c) => c.count !== undefined),
  };
}

/** Whether a seat meets every per-seat rule. */
export function seatAllowed(seat: SeatView, rules: SeatRules, layout: SeatLayout): boolean {
  return rules.perSeat.every((c) => seatMeets(c, seat, layout));
}

/** Whether a seat meets one per-seat rule. */
export function seatMeets(c: SeatRules['perSeat'][number], seat: SeatView, layout: SeatLayout): boolean {
  switch (c.kind) {
    case 'rows':
      return seatInRows(c, seat, layout);
    case 'rowMiddle':
      return midRow(seat, layout);
    case 'seatKind':
      return seat.kind === c.seatKind;
  }
}

const key = (set: readonly SeatView[]) =>
  set
    .map((s) => s.order)
    .sort((a, b) => a - b)
    .join(',');

/** Seats by row label, each row in seat-number order. */
function byRow(seats: readonly SeatView[]): SeatView[][] {
  const rows = new Map<string, SeatView[]>();
  for (const s of seats) rows.set(s.row, [...(rows.get(s.row) ?? []), s]);
  return [...rows.values()].map((r) => r.sort((a, b) => a.number - b.number));
}

/**
 * Candidate sets of `rules.size` seats that meet every hard seat rule and contain `selected`.
 * `seatScore` orders single seats for the best-seats set. The caller ranks and trims.
 */
export function candidateSets(
  seats: readonly SeatView[],
  selected: readonly SeatView[],
  rules: SeatRules,
  layout: SeatLayout,
  seatScore: (seat: SeatView) => number,
): SeatView[][] {
  const { size } = rules;
  if (selected.length > size || size < 1) return [];
  const mine = new Set(selected.map((s) => s.id));
  const usable = (s: SeatView) => mine.has(s.id) || (s.free && seatAllowed(s, rules, layout));
  const complete = (set: SeatView[]) =>
    set.length === size &&
    selected.every((s) => set.some((x) => x.id === s.id)) &&
    rules.counted.every((c) => kindMet(c, set)) &&
    (!rules.adjacent || together(set, layout));

  const found = new Map<string, SeatView[]>();
  for (const row of byRow(seats)) {
    for (let i = 0; i + size <= row.length; i++) {
      const run = row.slice(i, i + size);
      if (run.every(usable) && together(run, layout) && complete(run)) found.set(key(run), run);
    }
  }
  if (!rules.adjacent) {
    const best = bestSeats(seats, selected, rules, usable, seatScore);
    if (best && complete(best)) found.set(key(best), best);
  }
  return [...found.values()];
}

/** The selection plus the best single seats, taking seats of a counted kind first. */
function bestSeats(
  seats: readonly SeatView[],
  selected: readonly SeatView[],
  rules: SeatRules,
  usable: (s: SeatView) => boolean,
  seatScore: (seat: SeatView) => number,
): SeatView[] | undefined {
  const set = [...selected];
  const pool = seats
    .filter((s) => usable(s) && !set.includes(s))
    .sort((a, b) => seatScore(b) - seatScore(a) || a.order - b.order);
  const take = (pick: (s: SeatView) => boolean, n: number) => {
    for (const s of pool) {
      if (n <= 0 || set.length >= rules.size) return;
      if (!set.includes(s) && pick(s)) {
        set.push(s);
        n--;
      }
    }
  };
  for (const c of rules.counted) {
    take((s) => s.kind === c.seatKind, (c.count ?? 0) - set.filter((s) => s.kind === c.seatKind).length);
  }
  take(() => true, rules.size - set.length);
  return set.length === rules.size ? set : undefined;
}

/** The longest run of usable seats side by side, and its row. */
export function longestRun(
  seats: readonly SeatView[],
  usable: (s: SeatView) => boolean,
  layout: SeatLayout,
): { length: number; row: string } {
  let bestRun = { length: 0, row: '' };
  for (const row of byRow(seats)) {
    let run = 0;
    row.forEach((s, i) => {
      const prev = row[i - 1];
      const continues = prev !== undefined && usable(prev) && together([prev, s], layout);
      run = usable(s) ? (continues ? run + 1 : 1) : 0;
      if (run > bestRun.length) bestRun = { length: run, row: s.row };
    });
  }
  return bestRun;
}
