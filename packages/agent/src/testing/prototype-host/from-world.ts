import { Catalog, type Scenario, type SubmittedBooking } from '@usher/booking';
import {
  durationText,
  type PlacedBooking,
  type PrototypeCatalog,
  type SeatRecord,
  type SeatType,
  type ShowingRecord,
} from './catalog.ts';

/*
 * The test's translation between one of the suite's worlds and the prototype host's records, so
 * the same stories run on both hosts and the same checker judges the booking. The host never sees
 * the world; only this file knows both. Where the prototype's data has no equivalent, it says so:
 * theaters have no location (left empty) and no screens (one per theater's film), a seat's price
 * is the adult ticket plus the format's and the seat kind's surcharges (the prototype prices seats,
 * not tickets), and the date stage lists every day up to the world's last showing (the prototype
 * lists five).
 */

const round2 = (n: number) => Math.round(n * 100) / 100;
/** The prototype lists this many days from the study day. */
const PROTOTYPE_DATE_WINDOW = 5;

export interface Translation {
  catalog: PrototypeCatalog;
  /** The world's booking for a booking the host made. */
  toWorld(booking: PlacedBooking): SubmittedBooking;
}

export function fromWorld(world: Scenario): Translation {
  const worldCatalog = new Catalog(world);
  const movieId = new Map(world.movies.map((m, n) => [m.id, `m${n + 1}`]));
  const theaterId = new Map(world.theaters.map((t, n) => [t.id, `t${n + 1}`]));
  const adult = world.ticketTypes.find((t) => t.id === 'adult');
  const adultPrice = adult?.price ?? 0;

  // Each theater shows each of its films on a screen of its own.
  const screens = new Map<string, string[]>();
  for (const s of worldCatalog.orderedShowings) {
    const films = screens.get(s.theaterId) ?? [];
    if (!films.includes(s.movieId)) films.push(s.movieId);
    screens.set(s.theaterId, films);
  }

  const showingId = new Map<string, string>();
  const showings: ShowingRecord[] = [];
  const seats: SeatRecord[] = [];
  for (const s of worldCatalog.orderedShowings) {
    const m = movieId.get(s.movieId) ?? s.movieId;
    const t = theaterId.get(s.theaterId) ?? s.theaterId;
    let id = `s_${m}_${t}_${s.date.replaceAll('-', '')}_${s.time.replace(':', '')}_${s.format.toLowerCase()}`;
    while ([...showingId.values()].includes(id)) id = `${id}_b`;
    showingId.set(s.id, id);
    const theater = worldCatalog.theater(s.theaterId);
    const map = theater ? worldCatalog.seatMapOf(theater) : undefined;
    showings.push({
      id,
      movieId: m,
      theaterId: t,
      screenNumber: (screens.get(s.theaterId) ?? []).indexOf(s.movieId) + 1,
      date: s.date,
      time: s.time,
      format: s.format,
      totalSeats: (map?.rows.length ?? 0) * (map?.seatsPerRow ?? 0),
    });
    const taken = new Set(s.takenSeats);
    for (const seat of worldCatalog.seatsOf(s)) {
      const type: SeatType =
        seat.kind === 'wheelchair' ? 'wheelchair' : seat.kind === 'premium' ? 'premium' : 'standard';
      seats.push({
        id: `${id}-${seat.row}${seat.number}`,
        showingId: id,
        row: seat.row,
        number: seat.number,
        type,
        price: round2(adultPrice + world.formatSurcharges[s.format] + world.seatKindSurcharges[seat.kind]),
        status: taken.has(seat.id) ? 'occupied' : 'available',
      });
    }
  }

  const days = worldCatalog.days().length;
  const catalog: PrototypeCatalog = {
    studyDate: world.today,
    dateWindow: Math.max(PROTOTYPE_DATE_WINDOW, days),
    movies: world.movies.map((m) => ({
      id: movieId.get(m.id) ?? m.id,
      title: m.title,
      genre: [...m.genres],
      rating: String(m.rating / 2),
      duration: durationText(m.durationMinutes),
      ageRating: m.ageRating,
      synopsis: m.synopsis,
    })),
    theaters: world.theaters.map((t) => ({
      id: theaterId.get(t.id) ?? t.id,
      name: t.name,
      location: '',
      screenCount: Math.max(1, screens.get(t.id)?.length ?? 1),
      distanceMiles: round2(t.distanceKm / 1.609344),
      amenities: [...t.amenities],
    })),
    showings,
    seats,
  };

  const back = (map: Map<string, string>, id: string) => [...map.entries()].find(([, v]) => v === id)?.[0];
  const toWorld = (booking: PlacedBooking): SubmittedBooking => {
    const showing = worldCatalog.showing(back(showingId, booking.showingId));
    if (!showing) throw new Error(`showing ${booking.showingId} is not in the world`);
    const movie = worldCatalog.movie(showing.movieId);
    const theater = worldCatalog.theater(showing.theaterId);
    const worldSeats = worldCatalog.seatsOf(showing);
    const chosen = booking.seatIds.map((id) => {
      const record = seats.find((s) => s.id === id);
      const seat = worldSeats.find((s) => s.row === record?.row && s.number === record?.number);
      if (!seat) throw new Error(`seat ${id} is not in the world`);
      return seat;
    });
    return {
      reference: booking.id,
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
      tickets: [
        {
          typeId: 'adult',
          label: adult?.label ?? 'Adult',
          quantity: chosen.length,
          unitPrice: round2(adultPrice + world.formatSurcharges[showing.format]),
        },
      ],
      total: round2(booking.totalPrice),
      currency: world.currency,
    } as SubmittedBooking;
  };
  return { catalog, toWorld };
}
