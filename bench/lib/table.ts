import type { Table } from './suite.ts';

/** Renders a table as aligned text: the first column left-aligned, figures right-aligned. */
export function formatTable(table: Table): string {
  const lines = [table.columns, ...table.rows];
  const widths = table.columns.map((_, i) => Math.max(...lines.map((cells) => (cells[i] ?? '').length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = '-'.repeat(widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1));
  return [
    table.title,
    render(table.columns),
    rule,
    ...table.rows.map(render),
    ...(table.notes ?? []).map((n) => `  ${n}`),
  ].join('\n');
}

/** `1234567.8` → `1,234,568`; `0.5` with `digits` 2 → `0.50`. */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
