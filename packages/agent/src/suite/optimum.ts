import {
  Catalog,
  type Constraint,
  candidateShowings,
  checkBooking,
  type HardConstraint,
  inRowMiddle,
  type Scenario,
  type Seat,
  type Showing,
  type Story,
  type SubmittedBooking,
  type TicketTypeId,
} from '@usher/booking';

/**
 * Soft constraints that the showing decides (with the total of its cheapest fitting seats): these
 * are what "best" compares. Seat-level ones (`centered`, and `adjacent`, `rows`, `seatKind`,
 * `seatCount`, `ticketMix` used softly) are left out of the comparison.
 */
const SHOWING_LEVEL = new Set<Constraint['kind']>([
  'date',
  'startTime',
  'endTime',
  'genre',
  'title',
  'theater',
  'rating',
  'ageRating',
  'runtime',
  'distance',
  'format',
  'price',
  'cheapest',
  'closest',
  'earliest',
  'latest',
  'highestRated',
]);

export const isShowingLevel = (c: Constraint): boolean => SHOWING_LEVEL.has(c.kind);

/** A booking the world allows that meets every hard constraint. */
export interface FeasibleOption {
  showing: Showing;
  booking: SubmittedBooking;
  /** Sum of the showing-level soft scores of this booking. */
  softScore: number;
}

const hardOf = <K extends HardConstraint['kind']>(story: Story, kind: K) =>
  story.hard.filter((c): c is Extract<HardConstraint, { kind: K }> => c.kind === kind);

/** The party: a hard seat count, else the hard ticket mix's total, else one; undefined when they disagree. */
export function partyOf(story: Story): { seats: number; tickets: Partial<Record<TicketTypeId, number>> } | undefined {
  const count = hardOf(story, 'seatCount')[0]?.count;
  const mix = hardOf(story, 'ticketMix')[0];
  const tickets = mix ? { adult: mix.adult ?? 0, child: mix.child ?? 0, senior: mix.senior ?? 0 } : undefined;
  const mixTotal = tickets ? (tickets.adult ?? 0) + (tickets.child ?? 0) + (tickets.senior ?? 0) : undefined;
  const seats = count ?? mixTotal ?? 1;
  if (mixTotal !== undefined && mixTotal !== seats) return undefined;
  return { seats, tickets: tickets ?? { adult: seats } };
}

function rowAllowed(seat: Seat, rows: number, story: Story): boolean {
  return hardOf(story, 'rows').every(
    (c) =>
      (!c.allowed || c.allowed.map((r) => r.toUpperCase()).includes(seat.row)) &&
      (c.notFirst === undefined || seat.rowIndex >= c.notFirst) &&
      (c.notLast === undefined || seat.rowIndex <= rows - 1 - c.notLast) &&
      (c.last === undefined || seat.rowIndex > rows - 1 - c.last),
  );
}

/**
 * The cheapest seat set of `n` seats among `free` that meets the hard seat constraints (rows,
 * the middle of the row, seat kinds, adjacency), or undefined. Adjacent sets are every run of `n` in one row with no aisle
 * inside; otherwise the cheapest seats of each wanted kind first, then the cheapest of the rest.
 */
export function cheapestSeats(world: Scenario, showing: Showing, story: Story, n: number): Seat[] | undefined {
  const catalog = new Catalog(world);
  const theater = catalog.theater(showing.theaterId);
  if (!theater) return undefined;
  const map = catalog.seatMapOf(theater);
  const surcharge = (seats: readonly Seat[]) => seats.reduce((sum, s) => sum + catalog.seatSurcharge(s.kind), 0);
  const kinds = hardOf(story, 'seatKind');
  const kindsOk = (seats: readonly Seat[]) =>
    kinds.every((k) => seats.filter((s) => s.kind === k.seatKind).length >= (k.count ?? seats.length));
  const pool = catalog
    .freeSeatsOf(showing)
    .filter((s) => rowAllowed(s, map.rows.length, story))
    .filter((s) => hardOf(story, 'rowMiddle').length === 0 || inRowMiddle(s.number, map.seatsPerRow))
    .filter((s) => kinds.every((k) => k.count !== undefined || s.kind === k.seatKind));
  if (hardOf(story, 'adjacent').length > 0 && n > 1) {
    const free = new Set(pool.map((s) => s.id));
    let best: Seat[] | undefined;
    for (const first of pool) {
      const run = pool.filter((s) => s.row === first.row && s.number >= first.number && s.number < first.number + n);
      const split = run.some((s) => s.number < first.number + n - 1 && map.aisleAfter.includes(s.number));
      if (run.length !== n || split || !run.every((s) => free.has(s.id)) || !kindsOk(run)) continue;
      if (!best || surcharge(run) < surcharge(best)) best = run;
    }
    return best;
  }
  const bySurcharge = [...pool].sort((a, b) => catalog.seatSurcharge(a.kind) - catalog.seatSurcharge(b.kind));
  const chosen: Seat[] = [];
  for (const k of kinds) {
    const have = chosen.filter((s) => s.kind === k.seatKind).length;
    const more = bySurcharge
      .filter((s) => s.kind === k.seatKind && !chosen.includes(s))
      .slice(0, (k.count ?? 0) - have);
    chosen.push(...more);
  }
  chosen.push(...bySurcharge.filter((s) => !chosen.includes(s)).slice(0, Math.max(0, n - chosen.length)));
  return chosen.length === n && kindsOk(chosen) ? chosen : undefined;
}

/** A booking as the host would submit it, for scoring a hypothetical choice with the checker. */
export function bookingFor(
  world: Scenario,
  showing: Showing,
  seats: readonly Seat[],
  quantities: Partial<Record<TicketTypeId, number>>,
): SubmittedBooking {
  const catalog = new Catalog(world);
  const movie = catalog.movie(showing.movieId);
  const theater = catalog.theater(showing.theaterId);
  return {
    reference: 'SUITE',
    scenarioId: world.id,
    movieId: showing.movieId,
    movieTitle: movie?.title ?? showing.movieId,
    theaterId: showing.theaterId,
    theaterName: theater?.name ?? showing.theaterId,
    showingId: showing.id,
    date: showing.date,
    time: showing.time,
    endTime: catalog.endTimeOf(showing),
    format: showing.format,
    seats: seats.map(({ id, row, rowIndex, number, kind }) => ({ id, row, rowIndex, number, kind })),
    tickets: world.ticketTypes
      .filter((t) => (quantities[t.id] ?? 0) > 0)
      .map((t) => ({
        typeId: t.id,
        label: t.label,
        quantity: quantities[t.id] ?? 0,
        unitPrice: catalog.unitPrice(t, showing.format),
      })),
    total: catalog.total(showing.format, seats, quantities),
    currency: world.currency,
  };
}

/** Sum of the showing-level soft scores of a booking (the measure "best" compares). */
export function showingSoftScore(world: Scenario, booking: SubmittedBooking, story: Story): number {
  const check = checkBooking(world, booking, story);
  return check.soft.filter((s) => isShowingLevel(s.constraint)).reduce((sum, s) => sum + s.score, 0);
}

/**
 * Every showing that can hold a booking meeting all hard constraints, each with its cheapest such
 * booking (the hard ticket mix, or adults for the seat count) and that booking's showing-level
 * soft score. Every option is confirmed by `checkBooking`.
 */
export function feasibleOptions(world: Scenario, story: Story): FeasibleOption[] {
  const party = partyOf(story);
  if (!party) return [];
  return candidateShowings(world, story).flatMap((showing) => {
    const seats = cheapestSeats(world, showing, story, party.seats);
    if (!seats) return [];
    const booking = bookingFor(world, showing, seats, party.tickets);
    if (!checkBooking(world, booking, story).satisfied) return [];
    return [{ showing, booking, softScore: showingSoftScore(world, booking, story) }];
  });
}

/**
 * The fewest tool calls that make a booking: select + next on each of the four choice stages,
 * a select per seat and next, a setQuantity per ticket type bought and next, and next to confirm.
 */
export function minimumToolCalls(booking: Pick<SubmittedBooking, 'seats' | 'tickets'>): number {
  return 2 * 4 + booking.seats.length + 1 + booking.tickets.length + 1 + 1;
}
