import { Catalog, checkBooking, type Scenario, type SubmittedBooking, SubmittedBookingSchema } from '@usher/booking';
import type { Task } from '@usher/study';

/** A task's outcome by its checker: what the export's success columns hold. */
export interface TaskSuccess {
  success: boolean;
  /** The first hard wish that failed (its kind), or null. */
  failedWish: string | null;
  /** Every failed hard wish, `kind: detail`, joined with `; `. */
  failedWishes: string | null;
  hardMet: number;
  hardTotal: number;
  /** Soft wishes scored 1 (fully met). */
  softMet: number;
  softTotal: number;
  /** The soft wishes' scores summed (each 0..1). */
  softScore: number;
}

/**
 * The submitted booking rebuilt from the booking summary the confirm stage showed (the uiSpec's
 * `state.booking`, which the study log holds in every `state.updated`): ids from the summary,
 * seats' rows and kinds from the task's scenario, as the engine's submit builds them. Null when
 * the summary does not describe a complete booking of this scenario.
 */
export function bookingFromSummary(scenario: Scenario, summary: unknown): SubmittedBooking | null {
  if (typeof summary !== 'object' || summary === null) return null;
  const s = summary as Record<string, unknown>;
  const catalog = new Catalog(scenario);
  const id = (v: unknown) => (typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : undefined);
  const showing = catalog.showing(String(id(s.showing)));
  const movie = catalog.movie(String(id(s.movie)));
  const theater = catalog.theater(String(id(s.theater)));
  if (!showing || !movie || !theater || showing.movieId !== movie.id || showing.theaterId !== theater.id) return null;
  const byId = new Map(catalog.seatsOf(showing).map((seat) => [seat.id, seat]));
  const seatIds = Array.isArray(s.seats) ? s.seats : [];
  const seats = seatIds.flatMap((seatId) => {
    const seat = byId.get(String(seatId));
    return seat ? [{ id: seat.id, row: seat.row, rowIndex: seat.rowIndex, number: seat.number, kind: seat.kind }] : [];
  });
  if (seats.length !== seatIds.length) return null;
  const parsed = SubmittedBookingSchema.safeParse({
    reference: '',
    scenarioId: scenario.id,
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
    tickets: s.tickets,
    total: s.total,
    currency: s.currency ?? scenario.currency,
  });
  return parsed.success ? parsed.data : null;
}

/** Checks a submitted booking against the task's success constraints (@usher/booking's checker). */
export function taskSuccess(task: Pick<Task, 'success' | 'title'>, scenario: Scenario, booking: SubmittedBooking) {
  const check = checkBooking(scenario, booking, { text: task.title, ...task.success });
  const failed = check.hard.filter((h) => !h.ok);
  const result: TaskSuccess = {
    success: check.satisfied,
    failedWish: failed[0]?.constraint.kind ?? null,
    failedWishes: failed.length > 0 ? failed.map((h) => `${h.constraint.kind}: ${h.detail}`).join('; ') : null,
    hardMet: check.hard.length - failed.length,
    hardTotal: check.hard.length,
    softMet: check.soft.filter((s) => s.score >= 1).length,
    softTotal: check.soft.length,
    softScore: check.soft.reduce((sum, s) => sum + s.score, 0),
  };
  return result;
}
