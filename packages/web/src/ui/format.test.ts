import { describe, expect, it } from 'vitest';
import {
  endsNextDay,
  formatClock,
  formatDateLong,
  formatDateShort,
  formatDuration,
  formatMoney,
  humanizeRefusal,
  plural,
} from './format.ts';

describe('format', () => {
  it('writes running times in hours and minutes', () => {
    expect(formatDuration(148)).toBe('2 h 28 min');
    expect(formatDuration(120)).toBe('2 h');
    expect(formatDuration(45)).toBe('45 min');
  });

  it('reads dates in UTC, so no time zone moves the day', () => {
    expect(formatDateShort('2026-11-21')).toBe('Sat 21 Nov');
    expect(formatDateLong('2026-11-22')).toBe('Sunday 22 November 2026');
    expect(formatDateShort('not a date')).toBe('not a date');
  });

  it('writes clock times and sees showings that end after midnight', () => {
    expect(formatClock(1250)).toBe('20:50');
    expect(formatClock(1440 + 68)).toBe('01:08');
    expect(endsNextDay('22:40', '01:08')).toBe(true);
    expect(endsNextDay('13:00', '15:28')).toBe(false);
  });

  it('writes money with its currency', () => {
    expect(formatMoney(19.5, 'USD')).toBe('$19.50');
    expect(formatMoney(42, 'EUR')).toBe('€42.00');
  });

  it('counts nouns', () => {
    expect(plural(1, 'movie')).toBe('1 movie');
    expect(plural(14, 'movie')).toBe('14 movies');
  });

  it('turns a refusal into a sentence without the list of agent tools', () => {
    expect(
      humanizeRefusal(
        '"next" is not available yet on the ticket stage: set ticket quantities; available now: filter, sort',
      ),
    ).toBe('"next" is not available yet on the ticket stage: set ticket quantities.');
    expect(humanizeRefusal('setQuantity: quantities would total 3 but 2 seats are selected')).toBe(
      'Quantities would total 3 but 2 seats are selected.',
    );
    expect(humanizeRefusal('at most 10 seats per booking; deselect a seat before adding C7')).toBe(
      'At most 10 seats per booking; deselect a seat before adding C7.',
    );
  });
});
