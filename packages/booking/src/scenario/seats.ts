import type { SeatKind } from '../story/constraints.ts';
import type { SeatMap } from './schema.ts';

/** One seat of a seat map, as every part of the package sees it. */
export interface Seat {
  /** Row label and number, e.g. `C7`. */
  id: string;
  row: string;
  /** 0 is the row nearest the screen. */
  rowIndex: number;
  /** 1-based, left to right as seen from the seats. */
  number: number;
  kind: SeatKind;
}

/** The id of a seat: its row label followed by its number. */
export function seatId(row: string, number: number): string {
  return `${row}${number}`;
}

/** Every seat of a map, row by row from the screen, left to right. */
export function seatsOf(map: SeatMap): Seat[] {
  const premium = new Set(map.kinds.premium);
  const wheelchair = new Set(map.kinds.wheelchair);
  const seats: Seat[] = [];
  map.rows.forEach((row, rowIndex) => {
    for (let number = 1; number <= map.seatsPerRow; number++) {
      const id = seatId(row, number);
      // A wheelchair space stays one even in a premium row: it is what the space is built for.
      const kind: SeatKind = wheelchair.has(id) ? 'wheelchair' : premium.has(row) ? 'premium' : 'standard';
      seats.push({ id, row, rowIndex, number, kind });
    }
  });
  return seats;
}

/** True when an aisle runs between seat `number` and seat `number + 1`. */
export function aisleBetween(map: SeatMap, number: number): boolean {
  return map.aisleAfter.includes(number);
}

/**
 * Whether seat `number` lies wholly in the middle half of a row of `seatsPerRow` seats, the
 * `rowMiddle` constraint's meaning: seat n covers the stretch from n - 1 to n of the row, and the
 * middle half runs from a quarter of the row to three quarters. A row of 12 keeps seats 4–9, of 18
 * seats 6–13, of 3 seat 2; a row of 1 or 2 seats has nothing but ends. Aisles play no part: this is
 * the seat's place in the whole row.
 */
export function inRowMiddle(number: number, seatsPerRow: number): boolean {
  return number - 1 >= seatsPerRow / 4 && number <= (3 * seatsPerRow) / 4;
}
