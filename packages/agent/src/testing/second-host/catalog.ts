/*
 * The second host's own catalog: how a small cinema chain's site, written without Usher, keeps its
 * listings. Its names, ids and units are its own: films with star ratings as text and running
 * times like "2h 8m", cinemas with distances in miles, sessions with 12-hour start times and the
 * seats still free, seats like `R3-S7` on numbered rows, and fares priced as a discount off the
 * session's full price. Nothing here comes from `@usher/booking`.
 */

export interface Film {
  filmId: string;
  name: string;
  /** Comma-separated. */
  categories: string;
  runtime: string;
  /** Out of 5, as text ("4.25"). */
  stars: string;
  certificate: string;
}

export interface Cinema {
  cinemaId: string;
  cinemaName: string;
  distanceMiles: number;
  features: string[];
  /** Numbered rows, 1 at the screen. */
  rowCount: number;
  seatsPerRow: number;
  /** An aisle runs after each of these seat numbers. */
  aisles: number[];
  /** `rowNumber-seatNumber` of the wheelchair spaces. */
  accessible: string[];
  vipRows: number[];
}

export interface Session {
  sessionRef: string;
  filmId: string;
  cinemaId: string;
  /** `YYYY-MM-DD`. */
  day: string;
  /** "7:30 PM". */
  startsAt: string;
  /** "2d", "3d" or "imax". */
  screen: string;
  /** The full fare, format included; other fares are a discount off it. */
  ticketPrice: number;
  /** `R3-S7` ids of the seats sold. */
  sold: string[];
}

/** A kind of ticket the site sells ("Child, under 12"). */
export interface Fare {
  fareCode: string;
  name: string;
  /** Who it is for, as the site says it ("under 12"); empty for the full fare. */
  ages: string;
  /** Taken off the session's full price (0 for the full fare). */
  discount: number;
}

export interface CinemaCatalog {
  currency: string;
  /** The fares on sale, the full fare first. */
  fares: Fare[];
  films: Film[];
  cinemas: Cinema[];
  sessions: Session[];
  /** Added per seat: VIP rows and accessible spaces. */
  vipCharge: number;
  accessibleCharge: number;
  /** The days the site lists, first one today. */
  days: string[];
}

export interface SeatRecord {
  seatRef: string;
  rowNumber: number;
  seatNumber: number;
  seatType: 'regular' | 'vip' | 'accessible';
  occupied: boolean;
  extraCharge: number;
}

/** A fare's price at a session: the full price less the fare's discount. */
export const farePrice = (session: Session, fare: Fare) =>
  Math.round((session.ticketPrice - fare.discount) * 100) / 100;

export const seatRef = (row: number, seat: number) => `R${row}-S${seat}`;

export function seatsOfSession(catalog: CinemaCatalog, session: Session): SeatRecord[] {
  const cinema = catalog.cinemas.find((c) => c.cinemaId === session.cinemaId);
  if (!cinema) return [];
  const sold = new Set(session.sold);
  const seats: SeatRecord[] = [];
  for (let row = 1; row <= cinema.rowCount; row++) {
    for (let seat = 1; seat <= cinema.seatsPerRow; seat++) {
      const ref = seatRef(row, seat);
      const accessible = cinema.accessible.includes(`${row}-${seat}`);
      const vip = !accessible && cinema.vipRows.includes(row);
      seats.push({
        seatRef: ref,
        rowNumber: row,
        seatNumber: seat,
        seatType: accessible ? 'accessible' : vip ? 'vip' : 'regular',
        occupied: sold.has(ref),
        extraCharge: accessible ? catalog.accessibleCharge : vip ? catalog.vipCharge : 0,
      });
    }
  }
  return seats;
}
