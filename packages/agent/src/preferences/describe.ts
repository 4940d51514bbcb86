import type { Constraint } from '@usher/booking';
import { addDays, shortDateLabel } from './dates.ts';
import { byKind } from './kinds.ts';
import { clock, minutesOf } from './times.ts';
import type { PreferenceModel } from './types.ts';

/*
 * The model in plain English, for the participant to check: hard wishes first, then "ideally"
 * and the soft ones. Dates read "tomorrow (Sun 22 Nov)" when today is known.
 */

/**
 * One sentence, e.g. "Understood: 2 adult tickets, IMAX, tomorrow (Sun 22 Nov), starting after
 * 18:00; ideally the closest theater." Pass `today` (YYYY-MM-DD) to name today and tomorrow.
 */
export function describeModel(model: PreferenceModel, today?: string): string {
  const hard = phrases(model.hard, today, model.perTicket?.strength === 'hard' ? model.perTicket.max : undefined);
  const soft = phrases(model.soft, today, model.perTicket?.strength === 'soft' ? model.perTicket.max : undefined);
  if (hard.length === 0 && soft.length === 0) return 'Understood: no particular requirements yet.';
  const parts = [
    ...(hard.length > 0 ? [hard.join(', ')] : []),
    ...(soft.length > 0 ? [`ideally ${andList(soft)}`] : []),
  ];
  return `Understood: ${parts.join('; ')}.`;
}

/** The list's phrases; a price said per ticket reads as said, with its total once there is one. */
function phrases(list: readonly Constraint[], today: string | undefined, perTicket?: number): string[] {
  const hasMix = list.some((c) => c.kind === 'ticketMix');
  const each = perTicket === undefined ? '' : `at most ${money(perTicket)} a ticket`;
  const out = byKind(list)
    .filter((c) => !(c.kind === 'seatCount' && hasMix))
    .map((c) => (c.kind === 'price' && each ? `${each} (${money(c.maxTotal)} in total)` : phrase(c, today)))
    .filter((p) => p !== '');
  return each && !list.some((c) => c.kind === 'price') ? [...out, each] : out;
}

/** One constraint as a phrase. */
export function phrase(c: Constraint, today?: string): string {
  switch (c.kind) {
    case 'seatCount':
      return plural(c.count, 'ticket');
    case 'ticketMix':
      return tickets(c);
    case 'title':
      return sides(c.is, c.not, (v) => v);
    case 'genre':
      return sides(c.include, c.exclude, (v) => v.toLowerCase(), 'no');
    case 'rating':
      return `rated ${c.min} or higher`;
    case 'ageRating':
      return `age rating ${orList(c.allowed)}`;
    case 'runtime':
      return c.maxMinutes !== undefined && c.minMinutes === undefined
        ? `no longer than ${c.maxMinutes} minutes`
        : c.minMinutes !== undefined && c.maxMinutes === undefined
          ? `at least ${c.minMinutes} minutes long`
          : `${c.minMinutes} to ${c.maxMinutes} minutes long`;
    case 'format':
      return sides(c.is, c.not, (v) => (v === 'Standard' ? 'standard format' : v));
    case 'date':
      return dateList(c.dates, today);
    case 'startTime':
      return window('starting', c.after, c.before);
    case 'endTime':
      return window('finishing', c.after, c.before);
    case 'theater':
      return [c.is && `at ${orList(c.is)}`, c.not && `not at ${orList(c.not)}`].filter(Boolean).join(', ');
    case 'distance':
      return `within ${c.maxKm} km`;
    case 'price':
      return `at most ${money(c.maxTotal)} in total`;
    case 'adjacent':
      return 'seats together';
    case 'rows':
      return rows(c);
    case 'rowMiddle':
      return 'seats in the middle of the row (not at either end)';
    case 'seatKind': {
      const noun = c.seatKind === 'wheelchair' ? 'wheelchair space' : `${c.seatKind} seat`;
      return c.count === undefined ? `${noun}s` : plural(c.count, noun);
    }
    case 'cheapest':
      return 'the cheapest option';
    case 'closest':
      return 'the closest theater';
    case 'earliest':
      return 'the earliest showing';
    case 'latest':
      return 'the latest showing';
    case 'centered':
      return 'seats in the middle';
    case 'highestRated':
      return 'the highest-rated movie';
  }
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const money = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function tickets(c: Extract<Constraint, { kind: 'ticketMix' }>): string {
  const parts = (['adult', 'child', 'senior'] as const)
    .map((type) => [type, c[type] ?? 0] as const)
    .filter(([, n]) => n > 0);
  const [only] = parts;
  if (parts.length === 1 && only) return `${only[1]} ${only[0]} ticket${only[1] === 1 ? '' : 's'}`;
  const total = parts.reduce((sum, [, n]) => sum + n, 0);
  const names = parts.map(([type, n]) => (type === 'child' && n > 1 ? `${n} children` : plural(n, type)));
  return `${plural(total, 'ticket')} (${names.join(', ')})`;
}

function sides(
  yes: readonly string[] | undefined,
  no: readonly string[] | undefined,
  show: (v: string) => string,
  refuse = 'not',
): string {
  return [...(yes ? [orList(yes.map(show))] : []), ...(no ? [`${refuse} ${orList(no.map(show))}`] : [])].join(', ');
}

/** At most this many days are named one by one; more are said as a span with the days left out. */
const DAYS_NAMED = 6;

/** "Sat 5 Dec or Sun 6 Dec"; a long run of days as "any day from … to … except …". */
function dateList(dates: readonly string[], today: string | undefined): string {
  if (dates.length <= DAYS_NAMED) return orList(dates.map((d) => dateLabel(d, today)));
  const sorted = [...dates].sort();
  const first = sorted[0] as string;
  const last = sorted.at(-1) as string;
  const missing: string[] = [];
  for (let d = first; d < last; d = addDays(d, 1)) if (!sorted.includes(d)) missing.push(d);
  const span = `any day from ${shortDateLabel(first)} to ${shortDateLabel(last)}`;
  return missing.length === 0 ? span : `${span} except ${andList(missing.map(shortDateLabel))}`;
}

function dateLabel(date: string, today: string | undefined): string {
  const label = shortDateLabel(date);
  if (today === date) return `today (${label})`;
  if (today !== undefined && addDays(today, 1) === date) return `tomorrow (${label})`;
  return label;
}

/** "23:00", "midnight", "01:00 after midnight". */
function time(t: string): string {
  const m = minutesOf(t);
  if (m === 24 * 60) return 'midnight';
  return m > 24 * 60 ? `${clock(m - 24 * 60)} after midnight` : t;
}

function window(verb: string, after: string | undefined, before: string | undefined): string {
  if (after !== undefined && before !== undefined) {
    return after === before ? `${verb} at ${time(after)}` : `${verb} between ${time(after)} and ${time(before)}`;
  }
  if (after !== undefined) return `${verb} after ${time(after)}`;
  return before !== undefined ? `${verb} by ${time(before)}` : '';
}

function rows(c: Extract<Constraint, { kind: 'rows' }>): string {
  const parts: string[] = [];
  if (c.allowed) parts.push(`${c.allowed.length === 1 ? 'row' : 'rows'} ${orList(c.allowed)}`);
  if (c.notFirst) parts.push(c.notFirst === 1 ? 'not in the front row' : `not in the first ${c.notFirst} rows`);
  if (c.notLast) parts.push(c.notLast === 1 ? 'not in the back row' : `not in the last ${c.notLast} rows`);
  if (c.last) parts.push(c.last === 1 ? 'in the back row' : `in the last ${c.last} rows`);
  return parts.join(', ');
}

function orList(items: readonly string[]): string {
  return joinLast(items, 'or');
}

function andList(items: readonly string[]): string {
  return joinLast(items, 'and');
}

function joinLast(items: readonly string[], word: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}
