import type { Catalog } from '../scenario/catalog.ts';
import type { Format } from '../story/constraints.ts';
import { chosenSeats, type Selections, ticketLines } from './booking.ts';
import type { EngineState } from './state.ts';

/**
 * The raw records behind the current stage, for the host's developer panel only (DESIGN.md:
 * `backendData` never leaves the host). Deep copies, so the panel cannot change the scenario.
 */
export function backendData(catalog: Catalog, state: EngineState): Record<string, unknown> | null {
  const { stage, selections: sel } = state;
  if (stage === null) return null;
  const s = catalog.scenario;
  const movie = catalog.movie(sel.movieId);
  const theater = catalog.theater(sel.theaterId);
  const showing = catalog.showing(sel.showingId);
  const records: Record<string, unknown> = {};
  switch (stage) {
    case 'movie':
      records.movies = s.movies;
      break;
    case 'theater':
      records.theaters = s.theaters.filter(
        (t) => catalog.showingsWhere({ movieId: sel.movieId, theaterId: t.id }).length > 0,
      );
      break;
    case 'date':
    case 'time':
      records.showings = catalog.showingsWhere({
        movieId: sel.movieId,
        theaterId: sel.theaterId,
        date: stage === 'time' ? sel.date : undefined,
      });
      break;
    case 'seat':
      records.seatMap = theater ? catalog.seatMapOf(theater) : null;
      break;
    default:
      records.ticketTypes = s.ticketTypes;
  }
  return structuredClone({
    stage,
    scenarioId: s.id,
    selections: sel,
    movie: movie ?? null,
    theater: theater ?? null,
    showing: showing ?? null,
    ...records,
    pricing: {
      currency: s.currency,
      ticketTypes: s.ticketTypes,
      formatSurcharges: s.formatSurcharges,
      seatKindSurcharges: s.seatKindSurcharges,
      // What the choices so far cost, as the engine computes it (null before a showing is chosen).
      quote: showing ? quote(catalog, sel, showing.format) : null,
    },
  });
}

function quote(catalog: Catalog, sel: Selections, format: Format) {
  const seats = chosenSeats(catalog, sel);
  return {
    format,
    formatSurchargePerTicket: catalog.scenario.formatSurcharges[format],
    tickets: ticketLines(catalog, sel, format),
    seatSurcharges: seats.map((seat) => ({
      seatId: seat.id,
      kind: seat.kind,
      surcharge: catalog.seatSurcharge(seat.kind),
    })),
    total: catalog.total(format, seats, sel.quantities),
  };
}
