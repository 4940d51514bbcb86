import { type BookingSummary, BookingSummarySchema } from '@usher/protocol';
import { z } from 'zod';
import { type Catalog, roundMoney } from '../scenario/catalog.ts';
import { FormatSchema, SeatKindSchema, type TicketTypeId, TicketTypeIdSchema } from '../story/constraints.ts';

/** What the participant has chosen so far. Later choices are only kept while earlier ones stand. */
export const SelectionsSchema = z.object({
  movieId: z.string().optional(),
  theaterId: z.string().optional(),
  date: z.string().optional(),
  showingId: z.string().optional(),
  seats: z.array(z.string()).default([]),
  quantities: z.partialRecord(TicketTypeIdSchema, z.number().int().min(0)).default({}),
});
export type Selections = z.infer<typeof SelectionsSchema>;

export const emptySelections = (): Selections => ({ seats: [], quantities: {} });

/** A booking as submitted on the confirm stage: ids plus the values derived from the catalog. */
export const SubmittedBookingSchema = z.object({
  /** Deterministic reference shown to the participant, e.g. `USH-3K9Q2A`. */
  reference: z.string(),
  scenarioId: z.string(),
  movieId: z.string(),
  movieTitle: z.string(),
  theaterId: z.string(),
  theaterName: z.string(),
  showingId: z.string(),
  date: z.string(),
  time: z.string(),
  endTime: z.string(),
  format: FormatSchema,
  seats: z.array(
    z.object({
      id: z.string(),
      row: z.string(),
      rowIndex: z.number().int(),
      number: z.number().int(),
      kind: SeatKindSchema,
    }),
  ),
  tickets: z.array(
    z.object({
      typeId: TicketTypeIdSchema,
      label: z.string(),
      quantity: z.number().int().positive(),
      unitPrice: z.number(),
    }),
  ),
  total: z.number(),
  currency: z.string(),
});
export type SubmittedBooking = z.infer<typeof SubmittedBookingSchema>;

/** The chosen ticket lines (quantity > 0), in the scenario's ticket-type order. */
export function ticketLines(catalog: Catalog, selections: Selections, format: z.infer<typeof FormatSchema>) {
  return catalog.scenario.ticketTypes
    .filter((type) => (selections.quantities[type.id] ?? 0) > 0)
    .map((type) => ({
      typeId: type.id,
      label: type.label,
      quantity: selections.quantities[type.id] ?? 0,
      unitPrice: catalog.unitPrice(type, format),
    }));
}

/** Sum of the chosen ticket quantities. */
export function ticketCount(quantities: Partial<Record<TicketTypeId, number>>): number {
  return Object.values(quantities).reduce((sum, n) => sum + (n ?? 0), 0);
}

/** The breadcrumb the participant sees: every choice so far, with the total once tickets are chosen. */
export function bookingSummary(catalog: Catalog, selections: Selections): BookingSummary {
  const summary: BookingSummary = { currency: catalog.scenario.currency };
  const movie = catalog.movie(selections.movieId);
  if (movie) summary.movie = { id: movie.id, title: movie.title };
  const theater = catalog.theater(selections.theaterId);
  if (theater) summary.theater = { id: theater.id, name: theater.name };
  if (selections.date !== undefined) summary.date = selections.date;
  const showing = catalog.showing(selections.showingId);
  if (showing) {
    summary.showing = {
      id: showing.id,
      time: showing.time,
      endTime: catalog.endTimeOf(showing),
      format: showing.format,
    };
    if (selections.seats.length > 0) summary.seats = [...selections.seats];
    const tickets = ticketLines(catalog, selections, showing.format);
    if (tickets.length > 0) {
      summary.tickets = tickets;
      summary.total = catalog.total(showing.format, chosenSeats(catalog, selections), selections.quantities);
    }
  }
  return summary;
}

/** The chosen seats with their rows and kinds, in the order they were chosen. */
export function chosenSeats(catalog: Catalog, selections: Selections) {
  const showing = catalog.showing(selections.showingId);
  if (!showing) return [];
  const byId = new Map(catalog.seatsOf(showing).map((seat) => [seat.id, seat]));
  return selections.seats.flatMap((id) => {
    const seat = byId.get(id);
    return seat ? [{ ...seat }] : [];
  });
}

/**
 * The submitted booking for complete selections. The reference hashes the booking with a
 * per-engine sequence number, so the same calls give the same reference and two bookings
 * of one engine never share one.
 */
export function submitBooking(catalog: Catalog, selections: Selections, sequence: number): SubmittedBooking {
  const movie = catalog.movie(selections.movieId);
  const theater = catalog.theater(selections.theaterId);
  const showing = catalog.showing(selections.showingId);
  if (!movie || !theater || !showing) throw new Error('the booking is not complete');
  const seats = chosenSeats(catalog, selections);
  const key = [catalog.scenario.id, showing.id, seats.map((s) => s.id).join(','), sequence].join('|');
  return {
    reference: `USH-${fnv1a(key).toString(36).toUpperCase().padStart(7, '0')}`,
    scenarioId: catalog.scenario.id,
    movieId: movie.id,
    movieTitle: movie.title,
    theaterId: theater.id,
    theaterName: theater.name,
    showingId: showing.id,
    date: showing.date,
    time: showing.time,
    endTime: catalog.endTimeOf(showing),
    format: showing.format,
    seats,
    tickets: ticketLines(catalog, selections, showing.format),
    total: roundMoney(catalog.total(showing.format, seats, selections.quantities)),
    currency: catalog.scenario.currency,
  };
}

/**
 * The booking a confirm stage's summary (the uiSpec's `state.booking`) describes, as
 * {@link submitBooking} makes it: how the export judges a logged booking and the suite's simulated
 * participant a pending one. Null when the summary is not a complete, consistent booking of this
 * catalog (another host's ids, a seat the showing does not have, an unknown ticket type).
 */
export function bookingFromSummary(catalog: Catalog, summary: unknown): SubmittedBooking | null {
  const read = BookingSummarySchema.safeParse(summary);
  if (!read.success) return null;
  const { movie, theater, date, showing, seats = [], tickets = [] } = read.data;
  const known = showing ? catalog.showing(showing.id) : undefined;
  if (!known || !movie || !theater || known.movieId !== movie.id || known.theaterId !== theater.id) return null;
  const seatIds = new Set(catalog.seatsOf(known).map((seat) => seat.id));
  if (!seats.every((id) => seatIds.has(id))) return null;
  const quantities: Partial<Record<TicketTypeId, number>> = {};
  for (const line of tickets) {
    const type = TicketTypeIdSchema.safeParse(line.typeId);
    if (!type.success) return null;
    quantities[type.data] = line.quantity;
  }
  const selections = {
    movieId: movie.id,
    theaterId: theater.id,
    date: date ?? known.date,
    showingId: known.id,
    seats,
    quantities,
  };
  return submitBooking(catalog, selections, 0);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
