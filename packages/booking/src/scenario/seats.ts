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
