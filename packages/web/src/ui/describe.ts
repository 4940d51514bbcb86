import type { Filter, Item, Sort, Stage } from '@usher/protocol';
import { formatClock, formatDateShort, formatDuration, formatMoney } from './format.ts';

/*
 * Plain words for the modifications an agent makes, so a participant can tell what happened to
 * the list: "genre is Sci-Fi", "Sorted by rating, high to low".
 */

const FIELD_LABELS: Record<string, string> = {
  ageRating: 'age rating',
  amenities: 'amenities',
  distanceKm: 'distance',
  durationMinutes: 'duration',
  endTime: 'end time',
  isToday: 'today',
  isTomorrow: 'tomorrow',
  kind: 'seat type',
  label: 'ticket type',
  priceSurcharge: 'seat surcharge',
  rowIndex: 'row number',
  number: 'seat number',
  seatsLeft: 'seats left',
  startMinutes: 'start time',
  time: 'start time',
  unitPrice: 'unit price',
  value: 'name',
};

const MONEY_FIELDS = new Set(['price', 'unitPrice', 'subtotal', 'priceSurcharge']);
const TIME_FIELDS = new Set(['startMinutes', 'time', 'endTime', 'date']);

/** A field name as words: `distanceKm` → `distance`, `someField` → `some field`. */
export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

export type FieldKind = 'string' | 'number' | 'boolean' | 'array';

/** What kind of values a field holds on these items (the first one that has it decides). */
export function fieldKind(items: readonly Item[], field: string): FieldKind {
  for (const item of items) {
    const value = item[field];
    if (value === undefined || value === null) continue;
    return Array.isArray(value) ? 'array' : (typeof value as FieldKind);
  }
  return 'string';
}

/** One value of a field as a participant reads it: `148` duration → `2 h 28 min`. */
export function fieldValue(field: string, value: unknown, currency?: string): string {
  if (Array.isArray(value)) return value.map((v) => fieldValue(field, v, currency)).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isNaN(n) && typeof value !== 'boolean' && String(value).trim() !== '') {
    if (field === 'durationMinutes') return formatDuration(n);
    if (field === 'distanceKm') return `${n} km`;
    if (field === 'startMinutes') return formatClock(n);
    if (MONEY_FIELDS.has(field)) return formatMoney(n, currency);
  }
  if (field === 'date' && typeof value === 'string') return formatDateShort(value);
  return String(value);
}

const NUMBER_OPS: Record<string, string> = { gt: 'above', gte: 'at least', lt: 'below', lte: 'at most' };

/** `{genre eq Sci-Fi}` → `genre is Sci-Fi`; `{amenities contains IMAX}` → `amenities include IMAX`. */
export function describeFilter(filter: Filter, kind: FieldKind, currency?: string): string {
  const label = fieldLabel(filter.field);
  const value = fieldValue(filter.field, filter.value, currency);
  const { operator } = filter;
  if (kind === 'boolean') return (operator === 'neq') === (value === 'yes') ? `not ${label}` : label;
  if (kind === 'array') {
    if (operator === 'neq') return `${label} exclude ${value}`;
    if (operator === 'in') return `${label} include any of ${value}`;
    return `${label} include ${value}`;
  }
  switch (operator) {
    case 'eq':
      return `${label} is ${value}`;
    case 'neq':
      return `${label} is not ${value}`;
    case 'contains':
      return `${label} contains “${value}”`;
    case 'in':
      return `${label} is one of ${value}`;
    default:
      return `${label} ${NUMBER_OPS[operator] ?? operator} ${value}`;
  }
}

/** `{rating desc}` → `Sorted by rating, high to low`. */
export function describeSort(sort: Sort, kind: FieldKind): string {
  const asc = sort.order === 'asc';
  let order: string;
  if (TIME_FIELDS.has(sort.field)) order = asc ? 'earliest first' : 'latest first';
  else if (sort.field === 'distanceKm') order = asc ? 'nearest first' : 'farthest first';
  else if (sort.field === 'durationMinutes') order = asc ? 'shortest first' : 'longest first';
  else if (kind === 'number') order = asc ? 'low to high' : 'high to low';
  else if (kind === 'boolean') order = asc ? '“no” first' : '“yes” first';
  else order = asc ? 'A to Z' : 'Z to A';
  return `Sorted by ${fieldLabel(sort.field)}, ${order}`;
}

const NOUNS: Record<Stage, string> = {
  movie: 'movie',
  theater: 'theater',
  date: 'day',
  time: 'showtime',
  seat: 'seat',
  ticket: 'ticket type',
  confirm: 'line',
};

/** What one item of a stage is called: `movie`, `showtime` … */
export function stageNoun(stage: Stage): string {
  return NOUNS[stage];
}

export const STAGE_LABELS: Record<Stage, string> = {
  movie: 'Movie',
  theater: 'Theater',
  date: 'Date',
  time: 'Time',
  seat: 'Seats',
  ticket: 'Tickets',
  confirm: 'Confirm',
};
