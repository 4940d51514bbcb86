import type { Format, SeatKind, TicketTypeId } from '../story/constraints.ts';
import { addDays, clockOf, minutesOf } from '../time.ts';
import type { Movie, Scenario, SeatMap, Showing, Theater, TicketType } from './schema.ts';
import { type Seat, seatsOf } from './seats.ts';

/** Rounds to cents, so sums of prices such as 0.1 + 0.2 print as 0.3. */
export function roundMoney(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/**
 * Indexed, read-only lookups over a parsed scenario, shared by the engine and the story checker.
 * Lists keep the scenario's order (catalog order), except showings, which run by date and time.
 */
export class Catalog {
  private readonly movies = new Map<string, Movie>();
  private readonly theaters = new Map<string, Theater>();
  private readonly seatMaps = new Map<string, SeatMap>();
  private readonly showings = new Map<string, Showing>();
  private readonly seatCache = new Map<string, Seat[]>();
  /** Showings ordered by date, time, then id. */
  readonly orderedShowings: readonly Showing[];

  constructor(readonly scenario: Scenario) {
    for (const movie of scenario.movies) this.movies.set(movie.id, movie);
    for (const theater of scenario.theaters) this.theaters.set(theater.id, theater);
    for (const map of scenario.seatMaps) this.seatMaps.set(map.id, map);
    for (const showing of scenario.showings) this.showings.set(showing.id, showing);
    this.orderedShowings = [...scenario.showings].sort(
      (a, b) => cmp(a.date, b.date) || cmp(a.time, b.time) || cmp(a.id, b.id),
    );
  }

  movie(id: string | undefined): Movie | undefined {
    return id === undefined ? undefined : this.movies.get(id);
  }

  theater(id: string | undefined): Theater | undefined {
    return id === undefined ? undefined : this.theaters.get(id);
  }

  showing(id: string | undefined): Showing | undefined {
    return id === undefined ? undefined : this.showings.get(id);
  }

  ticketType(id: string): TicketType | undefined {
    return this.scenario.ticketTypes.find((type) => type.id === id);
  }

  /** The seat map of a theater (parseScenario guarantees it exists). */
  seatMapOf(theater: Theater): SeatMap {
    const map = this.seatMaps.get(theater.seatMapId);
    if (map === undefined) throw new Error(`theater ${theater.id} has no seat map ${theater.seatMapId}`);
    return map;
  }

  /** Every seat of the showing's theater. */
  seatsOf(showing: Showing): Seat[] {
    const theater = this.theater(showing.theaterId);
    if (theater === undefined) return [];
    let seats = this.seatCache.get(theater.seatMapId);
    if (seats === undefined) {
      seats = seatsOf(this.seatMapOf(theater));
      this.seatCache.set(theater.seatMapId, seats);
    }
    return seats;
  }

  /** Seats not yet taken for a showing. */
  freeSeatsOf(showing: Showing): Seat[] {
    const taken = new Set(showing.takenSeats);
    return this.seatsOf(showing).filter((seat) => !taken.has(seat.id));
  }

  /** Showings matching every given id or date, by date and time. */
  showingsWhere(where: { movieId?: string; theaterId?: string; date?: string }): Showing[] {
    return this.orderedShowings.filter(
      (s) =>
        (where.movieId === undefined || s.movieId === where.movieId) &&
        (where.theaterId === undefined || s.theaterId === where.theaterId) &&
        (where.date === undefined || s.date === where.date),
    );
  }

  /** The bookable days: from `today` to the last day with a showing. */
  days(): string[] {
    const last = this.orderedShowings.at(-1)?.date ?? this.scenario.today;
    const out: string[] = [];
    for (let day = this.scenario.today; day <= last; day = addDays(day, 1)) out.push(day);
    return out;
  }

  /** Minutes after the showing day's midnight at which the movie ends (may exceed 1440). */
  endMinutesOf(showing: Showing): number {
    return minutesOf(showing.time) + (this.movie(showing.movieId)?.durationMinutes ?? 0);
  }

  /** The end time on a 24-hour clock, e.g. `01:10` for a late showing. */
  endTimeOf(showing: Showing): string {
    return clockOf(this.endMinutesOf(showing));
  }

  /** One ticket of a type for a showing in `format`: base price plus the format surcharge. */
  unitPrice(type: TicketType, format: Format): number {
    return roundMoney(type.price + this.scenario.formatSurcharges[format]);
  }

  seatSurcharge(kind: SeatKind): number {
    return this.scenario.seatKindSurcharges[kind];
  }

  /** Tickets plus seat surcharges. Unknown ticket types count as nothing. */
  total(format: Format, seats: readonly Seat[], quantities: Partial<Record<TicketTypeId, number>>): number {
    let sum = 0;
    for (const type of this.scenario.ticketTypes) sum += (quantities[type.id] ?? 0) * this.unitPrice(type, format);
    for (const seat of seats) sum += this.seatSurcharge(seat.kind);
    return roundMoney(sum);
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
