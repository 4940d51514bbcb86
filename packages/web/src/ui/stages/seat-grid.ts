import type { Item } from '@usher/protocol';

/*
 * The seat map's geometry, apart from React: where each visible seat sits (row, number), where
 * the aisles run, and where the arrow keys move focus. A seat a filter hides leaves its place
 * empty, so the room keeps its shape.
 */

export interface SeatRow {
  label: string;
  /** Index 0 is seat number 1; null where no visible seat is. */
  seats: (Item | null)[];
}

export interface SeatGrid {
  rows: SeatRow[];
  seatsPerRow: number;
  /** Seat numbers after which an aisle runs. */
  aisleAfter: number[];
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');

/** Lays out `items` on the map that `meta` describes; without meta, rows and width come from the items. */
export function buildSeatGrid(items: readonly Item[], meta: Record<string, unknown> | undefined): SeatGrid {
  const rowLabels = isStringArray(meta?.rows) ? [...meta.rows] : [];
  let seatsPerRow = typeof meta?.seatsPerRow === 'number' ? meta.seatsPerRow : 0;
  for (const item of items) {
    const row = typeof item.row === 'string' ? item.row : null;
    if (row !== null && !rowLabels.includes(row)) rowLabels.push(row);
    if (typeof item.number === 'number') seatsPerRow = Math.max(seatsPerRow, item.number);
  }
  const rows: SeatRow[] = rowLabels.map((label) => ({ label, seats: Array.from({ length: seatsPerRow }, () => null) }));
  const byLabel = new Map(rows.map((r) => [r.label, r]));
  for (const item of items) {
    const row = typeof item.row === 'string' ? byLabel.get(item.row) : undefined;
    if (row && typeof item.number === 'number' && item.number >= 1) row.seats[item.number - 1] = item;
  }
  const aisleAfter = isNumberArray(meta?.aisleAfter) ? meta.aisleAfter.filter((n) => n >= 1 && n < seatsPerRow) : [];
  return { rows, seatsPerRow, aisleAfter };
}

/** CSS grid columns: a row label, the seats with aisles between, a row label. */
export function gridColumns(grid: SeatGrid): string {
  const cols = ['var(--row-label)'];
  for (let n = 1; n <= grid.seatsPerRow; n++) {
    cols.push('var(--seat)');
    if (grid.aisleAfter.includes(n)) cols.push('var(--aisle)');
  }
  cols.push('var(--row-label)');
  return cols.join(' ');
}

/** Width of the grid in seat widths (an aisle counts as 0.6, a row label as 1), for scaling. */
export function gridUnits(grid: SeatGrid): number {
  return grid.seatsPerRow + grid.aisleAfter.length * 0.6 + 2;
}

type Position = { row: number; col: number };

function positionOf(grid: SeatGrid, id: string): Position | null {
  for (let row = 0; row < grid.rows.length; row++) {
    const col = grid.rows[row]?.seats.findIndex((s) => s?.id === id) ?? -1;
    if (col >= 0) return { row, col };
  }
  return null;
}

/**
 * Where an arrow key (or Home/End) moves focus from seat `fromId`, among the seats `canFocus`
 * accepts; undefined when there is nowhere to go. Up and Down take the nearest seat in the next
 * row that has one.
 */
export function moveFocus(
  grid: SeatGrid,
  fromId: string,
  key: string,
  canFocus: (seat: Item) => boolean,
): string | undefined {
  const from = positionOf(grid, fromId);
  if (!from) return undefined;
  const ok = (seat: Item | null | undefined): seat is Item => seat != null && canFocus(seat);
  const row = grid.rows[from.row]?.seats ?? [];
  switch (key) {
    case 'ArrowLeft':
      for (let c = from.col - 1; c >= 0; c--) if (ok(row[c])) return row[c]?.id;
      return undefined;
    case 'ArrowRight':
      for (let c = from.col + 1; c < row.length; c++) if (ok(row[c])) return row[c]?.id;
      return undefined;
    case 'Home':
      return row.find(ok)?.id;
    case 'End':
      return row.findLast(ok)?.id;
    case 'ArrowUp':
    case 'ArrowDown': {
      const step = key === 'ArrowUp' ? -1 : 1;
      for (let r = from.row + step; r >= 0 && r < grid.rows.length; r += step) {
        const seats = grid.rows[r]?.seats ?? [];
        for (let d = 0; d < seats.length; d++) {
          for (const c of [from.col - d, from.col + d]) if (ok(seats[c])) return seats[c]?.id;
        }
      }
      return undefined;
    }
    default:
      return undefined;
  }
}
