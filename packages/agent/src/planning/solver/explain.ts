import type { HardConstraint } from '@usher/booking';
import type { Item, UiSpec } from '@usher/protocol';
import { clockOf, dateLabel, endMinutesOf, list, minutesOf, num, orList, some, text } from './fields.ts';
import { startOf } from './judge.ts';
import { mixSize } from './model.ts';
import type { OptionStage } from './types.ts';

/*
 * Words for reasons and dead-ends. A wish is phrased so it reads after a noun, singular or
 * plural ("no showtime on Sun 22 Nov starting at or after 18:00, in IMAX"); an observation says
 * what the stage does offer ("the latest starts at 16:30"), so a participant sees why.
 */

const bound = (time: string) => clockOf(minutesOf(time));

function timeWish(verb: string, after?: string, before?: string): string {
  if (after !== undefined && before !== undefined) return `${verb} between ${bound(after)} and ${bound(before)}`;
  return after !== undefined ? `${verb} at or after ${bound(after)}` : `${verb} by ${bound(before ?? '')}`;
}

/** Rows a participant accepts, e.g. `in rows C or D, not in the first 2 rows`. */
export function rowsWish(c: Extract<HardConstraint, { kind: 'rows' }>): string {
  const parts = [
    c.allowed && `in row${c.allowed.length > 1 ? 's' : ''} ${orList(c.allowed)}`,
    c.notFirst && `not in the first ${c.notFirst} row${c.notFirst > 1 ? 's' : ''}`,
    c.notLast && `not in the last ${c.notLast} row${c.notLast > 1 ? 's' : ''}`,
    c.last && (c.last === 1 ? 'in the back row' : `in the last ${c.last} rows`),
  ];
  return parts.filter(Boolean).join(', ');
}

/** A hard constraint as a participle phrase: `starting at or after 18:00`, `in IMAX`, `within 5 km`. */
export function wish(c: HardConstraint): string {
  switch (c.kind) {
    case 'date':
      return `on ${orList(c.dates.map(dateLabel))}`;
    case 'startTime':
      return timeWish('starting', c.after, c.before);
    case 'endTime':
      return timeWish('ending', c.after, c.before);
    case 'genre':
      return [c.include && `of genre ${orList(c.include)}`, c.exclude && `without ${orList(c.exclude)}`]
        .filter(Boolean)
        .join(', ');
    case 'title':
      return [c.is && `titled ${orList(c.is.map((t) => `"${t}"`))}`, c.not && `other than ${orList(c.not)}`]
        .filter(Boolean)
        .join(', ');
    case 'rating':
      return `rated at least ${c.min}`;
    case 'runtime':
      return runtimeWords(c, 'running');
    case 'ageRating':
      return `rated ${orList(c.allowed)}`;
    case 'distance':
      return `within ${c.maxKm} km`;
    case 'theater':
      return [c.is && `at ${orList(c.is)}`, c.not && `other than ${orList(c.not)}`].filter(Boolean).join(', ');
    case 'format':
      return [c.is && `in ${orList(c.is)}`, c.not && `not in ${orList(c.not)}`].filter(Boolean).join(', ');
    case 'seatCount':
      return `with ${c.count} seats left`;
    case 'ticketMix':
      return `with ${mixSize(c)} seats left`;
    case 'adjacent':
      return 'side by side';
    case 'rows':
      return rowsWish(c);
    case 'rowMiddle':
      return 'in the middle of the row';
    case 'seatKind':
      return c.count === undefined ? `all ${c.seatKind}` : `with at least ${c.count} ${c.seatKind}`;
    case 'price':
      return `costing at most ${c.maxTotal.toFixed(2)}`;
  }
}

/** `running at most 100 minutes`, `running 90 to 120 minutes`. */
export function runtimeWords(
  c: { maxMinutes?: number | undefined; minMinutes?: number | undefined },
  verb: string,
): string {
  if (c.maxMinutes !== undefined && c.minMinutes !== undefined)
    return `${verb} ${c.minMinutes} to ${c.maxMinutes} minutes`;
  return c.maxMinutes !== undefined
    ? `${verb} at most ${c.maxMinutes} minutes`
    : `${verb} at least ${c.minMinutes} minutes`;
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** The highest (lowest) of a number the items show, or that the stage does not show it. */
function most(words: string, items: readonly Item[], key: string, pick: (...xs: number[]) => number): string {
  const shown = items.map((i) => num(i, key)).filter(Number.isFinite);
  return shown.length > 0 ? `${words} ${pick(...shown)}` : `${words} not shown`;
}

/**
 * What the items of a choice stage offer on `c`'s dimension, e.g. `the latest starts at 16:30`;
 * `all` is every option of the stage, when `items` are only those meeting the other wishes.
 */
export function observe(c: HardConstraint, items: readonly Item[], all: readonly Item[] = items): string {
  const starts = items.map(startOf);
  const ends = items.map((i) => endMinutesOf(startOf(i), text(i, 'endTime')));
  switch (c.kind) {
    case 'startTime':
    case 'endTime': {
      const times = c.kind === 'startTime' ? starts : ends;
      const verb = c.kind === 'startTime' ? 'starts' : 'ends';
      const latest = Math.max(...times);
      const earliest = Math.min(...times);
      if (c.after !== undefined && latest < minutesOf(c.after)) return `the latest ${verb} at ${clockOf(latest)}`;
      if (c.before !== undefined && earliest > minutesOf(c.before))
        return `the earliest ${verb} at ${clockOf(earliest)}`;
      return `they ${verb.slice(0, -1)} at ${some(times.map(clockOf))}`;
    }
    case 'format':
      return `all are ${orList(unique(items.map((i) => text(i, 'format'))))}`;
    case 'seatCount':
    case 'ticketMix':
      return most('the most seats left is', items, 'seatsLeft', Math.max);
    case 'genre':
      return `genres on offer: ${some(unique(items.flatMap((i) => list(i, 'genres'))))}`;
    case 'title': {
      // A title no option carries at all (a film not showing) is said to have no showings.
      const names = new Set(all.flatMap((i) => [text(i, 'title') || i.value, i.id]).map((n) => n.toLowerCase()));
      const absent = (c.is ?? []).filter((t) => !names.has(t.toLowerCase()));
      const showing = some(items.map((i) => i.value));
      if (c.is && absent.length === c.is.length)
        return `${orList(absent)} ${absent.length === 1 ? 'has' : 'have'} no showings; the movies showing are ${showing}`;
      return `showing: ${showing}`;
    }
    case 'rating':
      return most('the highest rating is', items, 'rating', Math.max);
    case 'ageRating':
      return `age ratings on offer: ${unique(items.map((i) => text(i, 'ageRating'))).join(', ')}`;
    case 'theater':
      // Which theaters there are, so a name that matches none of them can be replaced.
      return `the theaters on offer are ${orList(
        items.map((i) => text(i, 'name') || i.value),
        'and',
      )}`;
    case 'distance':
      return `${most('the nearest is', items, 'distanceKm', Math.min)} km away`.replace(
        / not shown km away$/,
        ' not shown',
      );
    case 'date':
      return `days with showings: ${some(items.map((i) => i.value))}`;
    default:
      return `${items.length} option${items.length === 1 ? '' : 's'} on offer`;
  }
}

/** The noun and the scope a choice stage's dead-end speaks of ("showtime", " on Sun 22 Nov"). */
export function stageNoun(stage: OptionStage, spec: UiSpec): { noun: string; where: string } {
  const b = spec.state.booking;
  switch (stage) {
    case 'movie':
      return { noun: 'movie', where: '' };
    case 'theater':
      return { noun: 'theater', where: b?.movie ? ` showing ${b.movie.title}` : '' };
    case 'date':
      return {
        noun: 'day',
        where: b?.movie && b.theater ? ` with ${b.movie.title} at ${b.theater.name}` : '',
      };
    case 'time':
      return { noun: 'showtime', where: b?.date ? ` on ${dateLabel(b.date)}` : '' };
  }
}

/** `No …` with a capital and a full stop. */
export function sentence(s: string): string {
  const t = s.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?…]$/.test(t) ? '' : '.'}`;
}

/** A hint for the planner when a filter hides options: clearing it may turn up what the stage lacks. */
export function hiddenNote(spec: UiSpec): string {
  const hidden = spec.items.length - spec.visibleItems.length;
  return hidden > 0
    ? ` (${hidden} option${hidden === 1 ? ' is' : 's are'} hidden by the current filter; clearing it may help)`
    : '';
}
