import type { Item } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { buildSeatGrid, gridColumns, moveFocus } from './seat-grid.ts';

function seats(rows: string[], perRow: number, taken: string[] = [], hidden: string[] = []): Item[] {
  return rows.flatMap((row, rowIndex) =>
    Array.from({ length: perRow }, (_, i) => {
      const id = `${row}${i + 1}`;
      return { id, value: id, isDisabled: taken.includes(id), row, rowIndex, number: i + 1, kind: 'standard' };
    }).filter((s) => !hidden.includes(s.id)),
  );
}

const meta = { rows: ['A', 'B', 'C'], seatsPerRow: 4, aisleAfter: [2] };
const free = (s: Item) => s.isDisabled !== true;

describe('buildSeatGrid', () => {
  it('keeps the place of a seat a filter hides', () => {
    const grid = buildSeatGrid(seats(['A', 'B', 'C'], 4, [], ['B2']), meta);
    expect(grid.rows.map((r) => r.label)).toEqual(['A', 'B', 'C']);
    expect(grid.rows[1]?.seats.map((s) => s?.id ?? null)).toEqual(['B1', null, 'B3', 'B4']);
  });

  it('puts an aisle column after the seats meta names', () => {
    const grid = buildSeatGrid(seats(['A'], 4), meta);
    expect(gridColumns(grid)).toBe(
      'var(--row-label) var(--seat) var(--seat) var(--aisle) var(--seat) var(--seat) var(--row-label)',
    );
  });

  it('works out rows and width from the items when meta is missing', () => {
    const grid = buildSeatGrid(seats(['A', 'B'], 3), undefined);
    expect(grid.rows.map((r) => r.label)).toEqual(['A', 'B']);
    expect(grid.seatsPerRow).toBe(3);
  });
});

describe('moveFocus', () => {
  const grid = buildSeatGrid(seats(['A', 'B', 'C'], 4, ['A2', 'B1', 'B2', 'B3', 'B4']), meta);

  it('skips taken seats along a row', () => {
    expect(moveFocus(grid, 'A1', 'ArrowRight', free)).toBe('A3');
    expect(moveFocus(grid, 'A3', 'ArrowLeft', free)).toBe('A1');
    expect(moveFocus(grid, 'A1', 'ArrowLeft', free)).toBeUndefined();
  });

  it('jumps over a row with no free seat to the nearest seat below', () => {
    expect(moveFocus(grid, 'A3', 'ArrowDown', free)).toBe('C3');
    expect(moveFocus(grid, 'C2', 'ArrowUp', free)).toBe('A1');
  });

  it('goes to the ends of the row with Home and End', () => {
    expect(moveFocus(grid, 'C2', 'Home', free)).toBe('C1');
    expect(moveFocus(grid, 'C2', 'End', free)).toBe('C4');
  });
});
