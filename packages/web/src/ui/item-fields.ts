import type { Item } from '@usher/protocol';

/* Typed reads of an item's flat fields (an Item holds text, numbers, flags or lists under any name). */

export function text(item: Item, field: string): string | undefined {
  const value = item[field];
  return typeof value === 'string' ? value : undefined;
}

export function num(item: Item, field: string): number | undefined {
  const value = item[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function list(item: Item, field: string): string[] {
  const value = item[field];
  return Array.isArray(value) ? value : [];
}

export function flag(item: Item, field: string): boolean {
  return item[field] === true;
}
