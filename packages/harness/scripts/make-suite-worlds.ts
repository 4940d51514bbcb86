/**
 * Derives the suite's extra worlds from the default scenario and writes them to
 * `packages/agent/suite/worlds/` (the JSON files are what the suite reads; rerun after a change):
 * `npx tsx packages/harness/scripts/make-suite-worlds.ts && npx biome format --write packages/agent/suite/worlds`.
 *
 * - small-town: two small theaters, three days, few showings, seat maps mostly sold.
 * - festival: a week of many IMAX and 3D showings at three theaters, dearer tickets and surcharges.
 * - next-month: the small town three weeks later (its `today` is not the machine's).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUITE_DIR } from '@usher/agent/suite/scenario';
import { defaultScenario, parseScenario, type Scenario, type SeatMap, type Showing, seatsOf } from '@usher/booking';

const base = defaultScenario();
const movies = (...ids: string[]) =>
  ids.map((id) => {
    const movie = base.movies.find((m) => m.id === id);
    if (!movie) throw new Error(`no movie ${id} in the default scenario`);
    return { ...movie, synopsis: '', internal: undefined };
  });

/** A showing given by its free seats: every other seat of the map is taken. */
function showing(map: SeatMap, s: Omit<Showing, 'takenSeats'>, free: string[] | 'all'): Showing {
  const taken = free === 'all' ? [] : seatsOf(map).filter((seat) => !free.includes(seat.id));
  return { ...s, takenSeats: taken.map((seat) => seat.id) };
}

function smallTown(): Scenario {
  const house: SeatMap = {
    id: 'sm-house',
    rows: ['A', 'B', 'C', 'D', 'E', 'F'],
    seatsPerRow: 10,
    aisleAfter: [5],
    kinds: { premium: ['E'], wheelchair: ['F1', 'F10'] },
  };
  const regent: SeatMap = {
    id: 'sm-regent',
    rows: ['A', 'B', 'C', 'D', 'E'],
    seatsPerRow: 8,
    aisleAfter: [],
    kinds: { premium: ['E'], wheelchair: [] },
  };
  const maps = { 't-house': house, 't-regent': regent } as const;
  const show = (
    theaterId: keyof typeof maps,
    movieId: string,
    date: string,
    time: string,
    free: string[],
    format: Showing['format'] = 'Standard',
  ) =>
    showing(
      maps[theaterId],
      {
        id: `sh-${theaterId.slice(2)}-${date.slice(5).replace('-', '')}-${time.replace(':', '')}`,
        movieId,
        theaterId,
        date,
        time,
        format,
      },
      free,
    );
  return {
    id: 'small-town',
    name: 'Millbrook, a small town with two cinemas',
    today: '2026-11-21',
    currency: 'USD',
    movies: movies('m-paper-lanterns', 'm-orbital-drift', 'm-second-helpings', 'm-quiet-harbor', 'm-night-ledger'),
    theaters: [
      {
        id: 't-house',
        name: 'Millbrook Picture House',
        distanceKm: 1.2,
        amenities: ['wheelchair access', 'parking', '3D'],
        seatMapId: 'sm-house',
      },
      { id: 't-regent', name: 'The Regent', distanceKm: 7.5, amenities: ['bar'], seatMapId: 'sm-regent' },
    ],
    seatMaps: [house, regent],
    showings: [
      show('t-house', 'm-paper-lanterns', '2026-11-21', '15:00', ['B2', 'B3', 'B4', 'B5', 'D7']),
      show('t-regent', 'm-second-helpings', '2026-11-21', '17:00', ['A1', 'A2', 'A3', 'D6']),
      show('t-house', 'm-orbital-drift', '2026-11-21', '19:00', ['A1', 'C3', 'D8']),
      show('t-regent', 'm-orbital-drift', '2026-11-21', '20:00', ['C4', 'C5', 'E1']),
      show('t-house', 'm-paper-lanterns', '2026-11-22', '14:00', ['C1', 'C2', 'C3', 'C4', 'E6', 'E7'], '3D'),
      show('t-regent', 'm-paper-lanterns', '2026-11-22', '16:00', ['B1', 'B2', 'D5', 'D6']),
      show('t-house', 'm-quiet-harbor', '2026-11-22', '19:30', []),
      show('t-regent', 'm-quiet-harbor', '2026-11-22', '19:30', ['B3', 'B4', 'C2']),
      show('t-house', 'm-night-ledger', '2026-11-22', '21:00', ['A1', 'A2', 'A3', 'D6', 'D7', 'D8', 'F10']),
      show('t-regent', 'm-night-ledger', '2026-11-22', '21:30', ['C1', 'C2', 'C3', 'C4']),
      show('t-house', 'm-second-helpings', '2026-11-23', '18:00', ['A3', 'A4', 'B9']),
      show('t-regent', 'm-second-helpings', '2026-11-23', '18:00', ['D1', 'D2', 'D3']),
      show('t-house', 'm-orbital-drift', '2026-11-23', '20:00', ['E4', 'E5', 'E6', 'C9']),
    ],
    ticketTypes: [
      { id: 'adult', label: 'Adult', price: 11 },
      { id: 'child', label: 'Child (under 12)', price: 7 },
      { id: 'senior', label: 'Senior (65+)', price: 8 },
    ],
    formatSurcharges: { Standard: 0, IMAX: 0, '3D': 2 },
    seatKindSurcharges: { standard: 0, premium: 2, wheelchair: 0 },
  };
}

/** The small town three weeks on: the same showings, every date moved by 21 days. */
function nextMonth(): Scenario {
  const town = smallTown();
  const shift = (date: string) => {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 21);
    return d.toISOString().slice(0, 10);
  };
  return {
    ...town,
    id: 'next-month',
    name: 'Millbrook, three weeks later',
    today: shift(town.today),
    showings: town.showings.map((s) => ({ ...s, id: `${s.id}-dec`, date: shift(s.date) })),
  };
}

function festival(): Scenario {
  const dome: SeatMap = {
    id: 'sm-dome',
    rows: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'],
    seatsPerRow: 16,
    aisleAfter: [4, 12],
    kinds: { premium: ['H', 'I'], wheelchair: ['J1', 'J16'] },
  };
  const harbour: SeatMap = {
    id: 'sm-harbour',
    rows: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'],
    seatsPerRow: 12,
    aisleAfter: [6],
    kinds: { premium: ['G'], wheelchair: ['H1', 'H12'] },
  };
  const oldTown: SeatMap = {
    id: 'sm-oldtown',
    rows: ['A', 'B', 'C', 'D', 'E', 'F'],
    seatsPerRow: 10,
    aisleAfter: [],
    kinds: { premium: [], wheelchair: [] },
  };
  // Per theater: [time, format, movie rotation]; the movie is picked by the day's index.
  const slots: Array<[string, SeatMap, string, Showing['format'], string[]]> = [
    ['t-dome', dome, '11:00', 'IMAX', ['m-orbital-drift', 'm-deep-blue-cities', 'm-iron-meridian']],
    ['t-dome', dome, '14:30', '3D', ['m-iron-meridian', 'm-orbital-drift']],
    ['t-dome', dome, '18:00', 'IMAX', ['m-last-cartographer', 'm-orbital-drift', 'm-iron-meridian']],
    ['t-dome', dome, '21:15', 'IMAX', ['m-orbital-drift', 'm-iron-meridian']],
    ['t-harbour', harbour, '13:00', '3D', ['m-paper-lanterns', 'm-pip-and-the-comet']],
    ['t-harbour', harbour, '16:00', '3D', ['m-pip-and-the-comet', 'm-paper-lanterns', 'm-iron-meridian']],
    ['t-harbour', harbour, '19:30', '3D', ['m-orbital-drift', 'm-iron-meridian']],
    ['t-harbour', harbour, '22:00', 'Standard', ['m-iron-meridian', 'm-orbital-drift', 'm-last-cartographer']],
    ['t-oldtown', oldTown, '15:00', 'Standard', ['m-paper-lanterns', 'm-deep-blue-cities', 'm-pip-and-the-comet']],
    ['t-oldtown', oldTown, '20:00', 'Standard', ['m-last-cartographer', 'm-paper-lanterns', 'm-deep-blue-cities']],
  ];
  const days = ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'];
  const showings = days.flatMap((date, day) =>
    slots.map(([theaterId, map, time, format, rotation], slot) => {
      const movieId = rotation[day % rotation.length] as string;
      // Scattered sales: about one seat in five, in a pattern that moves with the day and slot.
      const free = seatsOf(map)
        .filter((seat, i) => (i * 7 + day * 3 + slot) % 5 !== 0 || seat.rowIndex < 2)
        .map((seat) => seat.id);
      const id = `sh-${theaterId.slice(2)}-${date.slice(5).replace('-', '')}-${time.replace(':', '')}`;
      return showing(map, { id, movieId, theaterId, date, time, format }, free);
    }),
  );
  return {
    id: 'festival',
    name: 'Festival week: IMAX and 3D every day',
    today: '2026-11-21',
    currency: 'USD',
    movies: movies(
      'm-orbital-drift',
      'm-iron-meridian',
      'm-paper-lanterns',
      'm-deep-blue-cities',
      'm-pip-and-the-comet',
      'm-last-cartographer',
    ),
    theaters: [
      {
        id: 't-dome',
        name: 'Festival Dome',
        distanceKm: 3,
        amenities: ['IMAX', '3D', 'wheelchair access'],
        seatMapId: 'sm-dome',
      },
      {
        id: 't-harbour',
        name: 'Harbour Screens',
        distanceKm: 6.5,
        amenities: ['3D', 'wheelchair access'],
        seatMapId: 'sm-harbour',
      },
      { id: 't-oldtown', name: 'Old Town Cinema', distanceKm: 1.1, amenities: ['bar'], seatMapId: 'sm-oldtown' },
    ],
    seatMaps: [dome, harbour, oldTown],
    showings,
    ticketTypes: [
      { id: 'adult', label: 'Adult', price: 18 },
      { id: 'child', label: 'Child (under 12)', price: 12 },
      { id: 'senior', label: 'Senior (65+)', price: 13 },
    ],
    formatSurcharges: { Standard: 0, IMAX: 7, '3D': 4 },
    seatKindSurcharges: { standard: 0, premium: 5, wheelchair: 0 },
  };
}

for (const [file, world] of [
  ['small-town.json', smallTown()],
  ['festival.json', festival()],
  ['next-month.json', nextMonth()],
] as const) {
  const json = JSON.parse(JSON.stringify(world)) as unknown; // drops the undefined fields
  parseScenario(json, file); // throws naming the bad field
  writeFileSync(join(SUITE_DIR, 'worlds', file), `${JSON.stringify(json)}\n`);
  console.log(`wrote worlds/${file}: ${world.showings.length} showings`);
}
