/**
 * Writes scenarios/default.json: a week of showings at five theaters. The JSON is the source of
 * truth (edit it by hand if you like); this script only made it, deterministically, so it can be
 * rerun after changing the programme below: `npx tsx packages/booking/scripts/generate-default-scenario.ts`.
 */
import { writeFileSync } from 'node:fs';
import { parseScenario } from '../src/scenario/parse.ts';
import type { ScenarioInput, SeatMap } from '../src/scenario/schema.ts';
import { seatsOf } from '../src/scenario/seats.ts';
import { addDays, minutesOf } from '../src/time.ts';

const TODAY = '2026-11-21'; // a Saturday
const DAYS = 7;

const movies: ScenarioInput['movies'] = [
  movie(
    'm-paper-lanterns',
    'Paper Lanterns',
    ['Animation', 'Family', 'Adventure'],
    96,
    7.9,
    'PG',
    'A shy girl follows a trail of floating lanterns into a city of paper spirits to find her lost grandfather.',
  ),
  movie(
    'm-orbital-drift',
    'Orbital Drift',
    ['Sci-Fi', 'Thriller'],
    148,
    8.3,
    'PG-13',
    'Stranded on a failing space station, two engineers have one orbit to bring it home.',
  ),
  movie(
    'm-quiet-harbor',
    'The Quiet Harbor',
    ['Drama'],
    124,
    7.6,
    'PG-13',
    'A widowed fisherman and his estranged daughter rebuild a boat, and each other, over one winter.',
  ),
  movie(
    'm-second-helpings',
    'Second Helpings',
    ['Comedy'],
    101,
    6.8,
    'PG-13',
    'Two rival caterers are booked for the same wedding and refuse to leave the kitchen.',
  ),
  movie(
    'm-love-in-lisbon',
    'Love in Lisbon',
    ['Romantic Comedy', 'Romance', 'Comedy'],
    109,
    6.9,
    'PG-13',
    'A tour guide who hates tourists falls for the one who keeps getting lost.',
  ),
  movie(
    'm-hollow-house',
    'The Hollow House',
    ['Horror'],
    98,
    6.4,
    'R',
    'A family moves into a house whose walls are thinner than they look, and something lives between them.',
  ),
  movie(
    'm-night-ledger',
    'Night Ledger',
    ['Thriller', 'Crime'],
    117,
    7.4,
    'R',
    'A night-shift accountant finds a ledger that predicts crimes before they happen.',
  ),
  movie(
    'm-deep-blue-cities',
    'Deep Blue Cities',
    ['Documentary'],
    88,
    8.1,
    'G',
    'Coral reefs filmed like metropolises: rush hours, night shifts and neighbourhood feuds.',
  ),
  movie(
    'm-iron-meridian',
    'Iron Meridian',
    ['Action', 'Adventure'],
    136,
    7.0,
    'PG-13',
    'A disgraced courier races an armoured train across three borders to deliver one envelope.',
  ),
  movie(
    'm-pip-and-the-comet',
    'Pip and the Comet',
    ['Family', 'Animation', 'Comedy'],
    85,
    7.2,
    'G',
    'A small mouse with a big telescope tries to catch a comet before it leaves the sky.',
  ),
  movie(
    'm-last-cartographer',
    'The Last Cartographer',
    ['Adventure', 'Drama'],
    178,
    8.5,
    'PG-13',
    'An ageing mapmaker sets out to chart the one valley no map has ever shown.',
  ),
  movie(
    'm-midnight-static',
    'Midnight Static',
    ['Horror', 'Sci-Fi'],
    93,
    5.9,
    'NC-17',
    'A late-night radio host picks up a broadcast from a station that burned down in 1987.',
  ),
  movie(
    'm-courtside',
    'Courtside',
    ['Drama', 'Sport'],
    115,
    7.1,
    'PG',
    'A retired coach agrees to train a hopeless high-school basketball team for one last season.',
  ),
  movie(
    'm-encore',
    'Encore',
    ['Musical', 'Romance'],
    131,
    7.7,
    'PG',
    'A stagehand gets one night to prove she belongs in the spotlight.',
  ),
  movie(
    'm-winter-kings',
    'Winter Kings',
    ['Drama', 'History'],
    162,
    7.8,
    'PG-13',
    'Coming soon: the last winter of a medieval kingdom, told by its cooks.',
  ),
];

const seatMaps: SeatMap[] = [
  seatMap('sm-grand', 10, 14, [3, 11], ['F', 'G', 'H'], ['J1', 'J2', 'J13', 'J14']),
  seatMap('sm-lumen', 8, 10, [5], ['E', 'F', 'G'], ['H1', 'H10']),
  seatMap('sm-riverside', 12, 18, [4, 14], ['G', 'H', 'I', 'J'], ['E1', 'E2', 'E17', 'E18']),
  seatMap('sm-starlight', 14, 20, [5, 15], ['H', 'I', 'J', 'K'], ['F1', 'F2', 'F19', 'F20']),
  seatMap('sm-oakwood', 9, 12, [6], ['F', 'G'], ['A1', 'A12', 'I1', 'I12']),
];

const theaters: ScenarioInput['theaters'] = [
  {
    id: 't-grand',
    name: 'Grand Central Cinema',
    distanceKm: 0.8,
    amenities: ['wheelchair access', 'bar', '3D'],
    seatMapId: 'sm-grand',
    internal: { screens: 4, posTerminal: 'POS-GC-01' },
  },
  {
    id: 't-lumen',
    name: 'Lumen Arthouse',
    distanceKm: 2.5,
    amenities: ['bar', 'recliners', 'wheelchair access'],
    seatMapId: 'sm-lumen',
    internal: { screens: 2, posTerminal: 'POS-LU-01' },
  },
  {
    id: 't-riverside',
    name: 'Riverside IMAX',
    distanceKm: 4.2,
    amenities: ['IMAX', '3D', 'recliners', 'parking', 'wheelchair access'],
    seatMapId: 'sm-riverside',
    internal: { screens: 5, posTerminal: 'POS-RI-02' },
  },
  {
    id: 't-starlight',
    name: 'Starlight Multiplex',
    distanceKm: 9.6,
    amenities: ['IMAX', '3D', 'parking', 'wheelchair access', 'bar', 'arcade'],
    seatMapId: 'sm-starlight',
    internal: { screens: 12, posTerminal: 'POS-ST-07' },
  },
  {
    id: 't-oakwood',
    name: 'Oakwood Community Cinema',
    distanceKm: 14.5,
    amenities: ['parking', 'wheelchair access', 'family room'],
    seatMapId: 'sm-oakwood',
    internal: { screens: 1, posTerminal: 'POS-OW-01' },
  },
];

type Days = 'all' | 'weekend' | 'weekdays' | number[];
type Format = 'Standard' | 'IMAX' | '3D';
/** Per theater: [movie id without `m-`, format, start times, on which days]. */
const programme: Record<string, [string, Format, string[], Days][]> = {
  grand: [
    ['paper-lanterns', 'Standard', ['10:30', '13:15'], 'all'],
    ['paper-lanterns', '3D', ['15:45'], 'all'],
    ['pip-and-the-comet', 'Standard', ['11:00'], 'weekend'],
    ['pip-and-the-comet', '3D', ['16:30'], 'weekdays'],
    ['second-helpings', 'Standard', ['17:40', '20:10'], 'all'],
    ['love-in-lisbon', 'Standard', ['18:50', '21:30'], 'all'],
    ['night-ledger', 'Standard', ['22:15'], 'all'],
    ['iron-meridian', '3D', ['19:20'], 'all'],
    ['hollow-house', 'Standard', ['23:00'], [0, 6]],
  ],
  lumen: [
    ['quiet-harbor', 'Standard', ['14:00', '18:30', '21:00'], 'all'],
    ['deep-blue-cities', 'Standard', ['12:00', '16:40'], 'all'],
    ['last-cartographer', 'Standard', ['19:45'], 'all'],
    ['love-in-lisbon', 'Standard', ['16:15'], 'weekend'],
    ['courtside', 'Standard', ['20:30'], 'weekdays'],
  ],
  riverside: [
    ['orbital-drift', 'IMAX', ['13:00', '16:30', '19:30', '22:40'], 'all'],
    ['orbital-drift', 'Standard', ['14:10', '20:50'], 'all'],
    ['iron-meridian', 'IMAX', ['11:20'], 'all'],
    ['iron-meridian', '3D', ['17:15', '21:15'], 'all'],
    ['last-cartographer', 'IMAX', ['10:00'], 'weekend'],
    ['paper-lanterns', '3D', ['10:40', '14:20'], 'all'],
    ['deep-blue-cities', 'IMAX', ['12:10'], 'weekend'],
  ],
  starlight: [
    ['orbital-drift', 'IMAX', ['12:00', '18:45', '22:00'], 'all'],
    ['orbital-drift', 'Standard', ['15:10'], 'all'],
    ['iron-meridian', 'Standard', ['13:30', '19:10'], 'all'],
    ['iron-meridian', '3D', ['22:30'], 'all'],
    ['pip-and-the-comet', '3D', ['10:15'], 'all'],
    ['pip-and-the-comet', 'Standard', ['14:50'], 'weekend'],
    ['paper-lanterns', 'Standard', ['11:10', '16:00'], 'all'],
    ['hollow-house', 'Standard', ['20:40'], 'all'],
    ['midnight-static', 'Standard', ['22:55'], [0, 6]],
    ['second-helpings', 'Standard', ['17:30'], 'all'],
    ['night-ledger', 'Standard', ['20:00'], 'all'],
    ['encore', 'Standard', ['18:10'], 'all'],
  ],
  oakwood: [
    ['pip-and-the-comet', 'Standard', ['10:30', '14:00'], 'weekend'],
    ['pip-and-the-comet', 'Standard', ['16:00'], 'weekdays'],
    ['paper-lanterns', 'Standard', ['12:15'], 'weekend'],
    ['paper-lanterns', 'Standard', ['17:00'], 'weekdays'],
    ['courtside', 'Standard', ['19:00'], 'all'],
    ['encore', 'Standard', ['15:30'], 'weekend'],
    ['quiet-harbor', 'Standard', ['21:10'], [0, 6]],
  ],
};

/** Showings that are full, so the time stage has a disabled option. */
const SOLD_OUT = new Set(['sh-riverside-1121-1930']);

const showings: NonNullable<ScenarioInput['showings']> = [];
for (let day = 0; day < DAYS; day++) {
  const date = addDays(TODAY, day);
  const weekend = day === 0 || day === 1; // Saturday and Sunday
  for (const [theaterKey, lines] of Object.entries(programme)) {
    const theater = theaters.find((t) => t.id === `t-${theaterKey}`);
    const map = seatMaps.find((m) => m.id === theater?.seatMapId);
    if (theater === undefined || map === undefined) throw new Error(`no theater ${theaterKey}`);
    const seats = seatsOf(map);
    for (const [movieKey, format, times, days] of lines) {
      const on = days === 'all' || (days === 'weekend' ? weekend : days === 'weekdays' ? !weekend : days.includes(day));
      if (!on) continue;
      for (const time of times) {
        const id = `sh-${theaterKey}-${date.slice(5).replace('-', '')}-${time.replace(':', '')}`;
        const random = mulberry32(hash(id));
        // Evenings and weekends sell better; far-off days have sold less so far.
        const hour = minutesOf(time) / 60;
        const base = hour < 14 ? 0.05 : hour < 18 ? 0.12 : hour < 22 ? 0.3 : 0.15;
        const fill = SOLD_OUT.has(id)
          ? 1
          : Math.min(0.9, base * (weekend ? 1.5 : 1) * (1 - day * 0.09) + random() * 0.1);
        showings.push({
          id,
          movieId: `m-${movieKey}`,
          theaterId: theater.id,
          date,
          time,
          format,
          takenSeats: takeSeats(seats, fill, random),
        });
      }
    }
  }
}
showings.sort((a, b) => (a.date + a.time + a.id < b.date + b.time + b.id ? -1 : 1));

const scenario: ScenarioInput = {
  id: 'default',
  name: 'A week at the movies (default)',
  today: TODAY,
  currency: 'USD',
  movies,
  theaters,
  seatMaps,
  showings,
  ticketTypes: [
    { id: 'adult', label: 'Adult', price: 14.5 },
    { id: 'child', label: 'Child (under 12)', price: 9.5 },
    { id: 'senior', label: 'Senior (65+)', price: 10.5 },
  ],
  formatSurcharges: { Standard: 0, IMAX: 5, '3D': 3 },
  seatKindSurcharges: { standard: 0, premium: 3, wheelchair: 0 },
};

parseScenario(scenario, 'default.json'); // refuse to write a scenario the package would reject
writeFileSync(new URL('../scenarios/default.json', import.meta.url), compactJson(scenario));
console.log(`wrote packages/booking/scenarios/default.json (${showings.length} showings)`);

function movie(
  id: string,
  title: string,
  genres: string[],
  durationMinutes: number,
  rating: number,
  ageRating: 'G' | 'PG' | 'PG-13' | 'R' | 'NC-17',
  synopsis: string,
) {
  const code = `DST-${(hash(id) % 9000) + 1000}`;
  return {
    id,
    title,
    genres,
    durationMinutes,
    rating,
    ageRating,
    synopsis,
    internal: { distributorCode: code, rentalSharePct: 50 + (hash(title) % 15) },
  };
}

function seatMap(
  id: string,
  rowCount: number,
  seatsPerRow: number,
  aisleAfter: number[],
  premium: string[],
  wheelchair: string[],
) {
  const rows = Array.from({ length: rowCount }, (_, i) => String.fromCharCode(65 + i));
  return { id, rows, seatsPerRow, aisleAfter, kinds: { premium, wheelchair } };
}

/** Takes seats in small groups (people come in ones to fours), favouring the middle and back rows. */
function takeSeats(seats: ReturnType<typeof seatsOf>, fill: number, random: () => number): string[] {
  const target = Math.round(seats.length * fill);
  if (target >= seats.length) return seats.map((s) => s.id);
  const taken = new Set<string>();
  const rows = [...new Set(seats.map((s) => s.row))];
  while (taken.size < target) {
    const r = Math.min(rows.length - 1, Math.floor(Math.sqrt(random()) * rows.length));
    const rowSeats = seats.filter((s) => s.row === rows[r]);
    const size = 1 + Math.floor(random() * 4);
    const start = Math.floor(random() * rowSeats.length);
    for (const seat of rowSeats.slice(start, start + size)) if (taken.size < target) taken.add(seat.id);
  }
  return seats.filter((s) => taken.has(s.id)).map((s) => s.id);
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pretty at the top, one record per line below, so the file stays readable and diffable. */
function compactJson(value: Record<string, unknown>): string {
  const lines = Object.entries(value).map(([key, field]) => {
    const body = Array.isArray(field)
      ? `[\n${field.map((item) => `    ${JSON.stringify(item)}`).join(',\n')}\n  ]`
      : JSON.stringify(field);
    return `  ${JSON.stringify(key)}: ${body}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}
