import { describe, expect, it } from 'vitest';
import { midRow, type SeatLayout, type SeatView } from './judge.ts';
import { scoreSeats } from './rank.ts';

const layout: SeatLayout = { rows: 'ABCDEFGHIJ'.split(''), seatsPerRow: 12, aisleAfter: [] };
const seat = (row: string, number: number): SeatView => ({
  id: `${row}${number}`,
  row,
  rowIndex: layout.rows.indexOf(row),
  number,
  kind: 'standard',
  surcharge: 0,
  free: true,
  order: 0,
});
const ctx = { layout, surcharges: [0], adjacencyGiven: true };

describe('"the middle of the row, not at either end"', () => {
  it('is the middle half of a row of twelve: seats 4 to 9', () => {
    expect([3, 4, 9, 10].map((n) => midRow(seat('E', n), layout))).toEqual([false, true, true, false]);
  });

  it('outweighs how central in the room the seats are: a middle pair further back beats a side pair in a better row', () => {
    const side = scoreSeats([seat('E', 3), seat('E', 4)], [{ kind: 'centered' }], ctx);
    const middle = scoreSeats([seat('I', 6), seat('I', 7)], [{ kind: 'centered' }], ctx);
    expect(middle.score).toBeGreaterThan(side.score);
    expect(middle.notes).toContain('in the middle of the row');
  });
});
