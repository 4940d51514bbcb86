import { Catalog, type Scenario, type SubmittedBooking } from '@usher/booking';
import type { CinemaCatalog, Fare } from './catalog.ts';
import { seatRef } from './catalog.ts';
import type { PlacedOrder } from './flow.ts';

/*
 * The test's translation between one of the suite's worlds and the second host's catalog, so the
 * same stories run on both hosts and the same checker judges the booking. The host itself never
 * sees the world; only this file knows both.
 */

const twelveHour = (time: string) => {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};
const runtime = (minutes: number) => `${Math.floor(minutes / 60)}h ${minutes % 60}m`;

export interface Translation {
  catalog: CinemaCatalog;
  /** The world's booking for an order the host placed. */
  toWorld(order: PlacedOrder): SubmittedBooking;
}

export function fromWorld(world: Scenario): Translation {
  const film = new Map(world.movies.map((m, n) => [m.id, `F-${101 + n}`]));
  const cinema = new Map(world.theaters.map((t, n) => [t.id, `CIN${n + 1}`]));
  const session = new Map(world.showings.map((s, n) => [s.id, `SH-${String(n + 1).padStart(4, '0')}`]));
  const rowNumber = (row: string, rows: readonly string[]) => rows.indexOf(row) + 1;
  const mapOf = (theaterId: string) => {
    const t = world.theaters.find((x) => x.id === theaterId);
    return world.seatMaps.find((m) => m.id === t?.seatMapId);
  };
  // The full fare is the adult ticket's (else the dearest); every other ticket type is a discount off it.
  const full =
    world.ticketTypes.find((t) => t.id === 'adult') ?? [...world.ticketTypes].sort((a, b) => b.price - a.price)[0];
  const fares: Fare[] = world.ticketTypes.map((t) => {
    // "Child (under 12)": the site's fare name, and who it is for.
    const [, name = t.label, ages = ''] = /^(.*?)\s*(?:\((.*)\))?$/.exec(t.label) ?? [];
    return { fareCode: t.id, name, ages, discount: Math.round(((full?.price ?? 0) - t.price) * 100) / 100 };
  });
  fares.sort((a, b) => a.discount - b.discount);
  // The site lists every day from today to its last session.
  const last =
    world.showings
      .map((s) => s.date)
      .sort()
      .at(-1) ?? world.today;
  const days: string[] = [];
  for (
    let d = new Date(`${world.today}T00:00:00Z`);
    d.toISOString().slice(0, 10) <= last;
    d.setUTCDate(d.getUTCDate() + 1)
  )
    days.push(d.toISOString().slice(0, 10));
  const catalog: CinemaCatalog = {
    currency: world.currency,
    fares,
    films: world.movies.map((m) => ({
      filmId: film.get(m.id) ?? m.id,
      name: m.title,
      categories: m.genres.join(', '),
      runtime: runtime(m.durationMinutes),
      stars: String(m.rating / 2),
      certificate: m.ageRating,
    })),
    cinemas: world.theaters.map((t) => {
      const map = mapOf(t.id);
      const rows = map?.rows ?? [];
      return {
        cinemaId: cinema.get(t.id) ?? t.id,
        cinemaName: t.name,
        distanceMiles: Math.round((t.distanceKm / 1.609344) * 1000) / 1000,
        features: [...t.amenities],
        rowCount: rows.length,
        seatsPerRow: map?.seatsPerRow ?? 0,
        aisles: [...(map?.aisleAfter ?? [])],
        accessible: (map?.kinds.wheelchair ?? []).map(
          (id) => `${rowNumber(id.replace(/\d+$/, ''), rows)}-${id.replace(/^\D+/, '')}`,
        ),
        vipRows: (map?.kinds.premium ?? []).map((row) => rowNumber(row, rows)),
      };
    }),
    sessions: world.showings.map((s) => {
      const rows = mapOf(s.theaterId)?.rows ?? [];
      return {
        sessionRef: session.get(s.id) ?? s.id,
        filmId: film.get(s.movieId) ?? s.movieId,
        cinemaId: cinema.get(s.theaterId) ?? s.theaterId,
        day: s.date,
        startsAt: twelveHour(s.time),
        screen: s.format === 'Standard' ? '2d' : s.format.toLowerCase(),
        ticketPrice: Math.round(((full?.price ?? 0) + world.formatSurcharges[s.format]) * 100) / 100,
        sold: s.takenSeats.map((id) =>
          seatRef(rowNumber(id.replace(/\d+$/, ''), rows), Number(id.replace(/^\D+/, ''))),
        ),
      };
    }),
    vipCharge: world.seatKindSurcharges.premium,
    accessibleCharge: world.seatKindSurcharges.wheelchair,
    days,
  };

  const worldCatalog = new Catalog(world);
  const back = <T>(map: Map<T, string>, id: string) => [...map.entries()].find(([, v]) => v === id)?.[0];
  const toWorld = (order: PlacedOrder): SubmittedBooking => {
    const showing = worldCatalog.showing(back(session, order.sessionRef) as string);
    if (!showing) throw new Error(`session ${order.sessionRef} is not in the world`);
    const movie = worldCatalog.movie(showing.movieId);
    const theater = worldCatalog.theater(showing.theaterId);
    const seats = worldCatalog.seatsOf(showing);
    const rows = mapOf(showing.theaterId)?.rows ?? [];
    const chosen = order.seats.map((ref) => {
      const [, row, number] = /^R(\d+)-S(\d+)$/.exec(ref) ?? [];
      const seat = seats.find((s) => s.row === rows[Number(row) - 1] && s.number === Number(number));
      if (!seat) throw new Error(`seat ${ref} is not in the world`);
      return seat;
    });
    return {
      reference: order.orderId,
      scenarioId: world.id,
      movieId: showing.movieId,
      movieTitle: movie?.title ?? '',
      theaterId: showing.theaterId,
      theaterName: theater?.name ?? '',
      showingId: showing.id,
      date: showing.date,
      time: showing.time,
      endTime: worldCatalog.endTimeOf(showing),
      format: showing.format,
      seats: chosen,
      tickets: order.fares.map((f) => {
        const type = world.ticketTypes.find((t) => t.id === f.fareCode);
        if (!type) throw new Error(`fare ${f.fareCode} is not in the world`);
        return { typeId: type.id, label: type.label, quantity: f.count, unitPrice: f.price };
      }),
      total: order.total,
      currency: world.currency,
    } as SubmittedBooking;
  };
  return { catalog, toWorld };
}
