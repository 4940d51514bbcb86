import type { Constraint } from '@usher/booking';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  nextWeekday,
  nextWeekendDates,
  resolveDayMonth,
  resolveDayOfMonth,
  shortDateLabel,
  weekendDates,
} from './dates.ts';
import { hard, read, soft } from './testing.ts';

// The default scenario's today: Saturday 21 November 2026.
const dates = (...messages: string[]) => hard(...messages).find((c) => c.kind === 'date');

describe('calendar helpers', () => {
  it('counts days and names them like the booking UI', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(shortDateLabel('2026-11-22')).toBe('Sun 22 Nov');
    expect(nextWeekday('2026-11-21', 6)).toBe('2026-11-21');
    expect(nextWeekday('2026-11-21', 1)).toBe('2026-11-23');
  });

  it('keeps only the weekend days not yet past', () => {
    expect(weekendDates('2026-11-21')).toEqual(['2026-11-21', '2026-11-22']);
    expect(weekendDates('2026-11-22')).toEqual(['2026-11-22']);
    expect(weekendDates('2026-11-25')).toEqual(['2026-11-28', '2026-11-29']);
  });

  it('reads "next weekend" as the following one during a weekend, the coming one on a weekday', () => {
    expect(nextWeekendDates('2026-11-21')).toEqual(['2026-11-28', '2026-11-29']);
    expect(nextWeekendDates('2026-11-22')).toEqual(['2026-11-28', '2026-11-29']);
    expect(nextWeekendDates('2026-11-25')).toEqual(['2026-11-28', '2026-11-29']);
  });

  it('puts dates without a year in the future, and rejects impossible ones', () => {
    expect(resolveDayMonth('2026-11-21', 3, 1)).toBe('2027-01-03');
    expect(resolveDayMonth('2026-11-21', 31, 11)).toBeUndefined();
    expect(resolveDayOfMonth('2026-11-21', 5)).toBe('2026-12-05');
    expect(resolveDayOfMonth('2026-11-21', 24)).toBe('2026-11-24');
  });
});

describe('date phrasings', () => {
  it.each([
    ['today', ['2026-11-21']],
    ['tonight', ['2026-11-21']],
    ['tomorrow', ['2026-11-22']],
    ['the day after tomorrow', ['2026-11-23']],
    ['on wed 25 nov', ['2026-11-25']],
    ['on Wed, Nov 25', ['2026-11-25']],
    ['this weekend', ['2026-11-21', '2026-11-22']],
    ['next weekend', ['2026-11-28', '2026-11-29']],
    ['on Monday', ['2026-11-23']],
    ['Saturday', ['2026-11-21']],
    ['next Saturday', ['2026-11-28']],
    ['Friday or Saturday', ['2026-11-21', '2026-11-27']],
    ['Nov 24', ['2026-11-24']],
    ['24 November', ['2026-11-24']],
    ['the 24th of November', ['2026-11-24']],
    ['2026-11-24', ['2026-11-24']],
    ['on the 24th', ['2026-11-24']],
    ['Tue 24 Nov', ['2026-11-24']],
  ])('"%s"', (text, expected) => {
    expect(dates(text)).toEqual({ kind: 'date', dates: expected });
  });

  it('"tonight" also means the evening, unless a time is given', () => {
    expect(hard('tonight')).toContainEqual({ kind: 'startTime', after: '17:00' });
    expect(hard('tonight at 7:30')).toContainEqual({ kind: 'startTime', after: '19:30', before: '19:30' });
  });

  it('a later day replaces the earlier one; "too" adds; "not" removes', () => {
    expect(dates('this weekend', 'actually make it Sunday')?.dates).toEqual(['2026-11-22']);
    expect(dates('Monday', 'Tuesday works too')?.dates).toEqual(['2026-11-23', '2026-11-24']);
    expect(dates('Monday', 'also Tuesday')?.dates).toEqual(['2026-11-23', '2026-11-24']);
    expect(dates('this weekend', 'not Saturday')?.dates).toEqual(['2026-11-22']);
    expect(dates('monday, tuesday or wednesday', 'not monday or tuesday')?.dates).toEqual(['2026-11-25']);
  });

  it('a day refused while none is wished for leaves every other day of the next two weeks', () => {
    const u = read('any day this week except monday, 2, encore');
    expect(u.model.hard.find((c) => c.kind === 'date')).toEqual({
      kind: 'date',
      dates: Array.from({ length: 14 }, (_, i) => addDays('2026-11-21', i)).filter((d) => d !== '2026-11-23'),
    });
    expect(u.summary).toContain('any day from Sat 21 Nov to Fri 4 Dec except Mon 23 Nov');
  });

  it('"or sunday" opening a later message adds the day', () => {
    expect(dates('Saturday for 2', 'or sunday, whichever is cheaper')?.dates).toEqual(['2026-11-21', '2026-11-22']);
  });

  it('a day that "works too" widens the days wanted: either is acceptable, the first preferred', () => {
    const dateOf = (list: readonly Constraint[]) => list.find((c) => c.kind === 'date');
    expect(dateOf(hard('preferably saturday, sunday works too'))).toEqual({
      kind: 'date',
      dates: ['2026-11-21', '2026-11-22'],
    });
    expect(dateOf(soft('preferably saturday, sunday works too'))).toEqual({ kind: 'date', dates: ['2026-11-21'] });
    expect(dateOf(hard('ideally tomorrow but monday would be ok too'))?.dates).toEqual(['2026-11-22', '2026-11-23']);
    expect(dateOf(soft('ideally tomorrow but monday would be ok too'))?.dates).toEqual(['2026-11-22']);
    // Across messages, as a window widens: the day said first stays the preference.
    expect(dateOf(hard('wednesday if possible', 'thursday is fine as well'))?.dates).toEqual([
      '2026-11-25',
      '2026-11-26',
    ]);
    expect(dateOf(soft('wednesday if possible', 'thursday is fine as well'))?.dates).toEqual(['2026-11-25']);
    // A day offered as only a soft fallback leaves everything soft.
    expect(dateOf(hard('friday if we can, saturday would be nice too'))).toBeUndefined();
  });

  it('a refusal of something else does not reach the day after it', () => {
    expect(dates('anything but horror on monday')?.dates).toEqual(['2026-11-23']);
    expect(dates('no 3D on the 24th')?.dates).toEqual(['2026-11-24']);
    expect(dates('nothing scary this sunday')?.dates).toEqual(['2026-11-22']);
  });

  it('reads days named for a fixed date, this year or next once past', () => {
    expect(dates('christmas day, 2 tickets')?.dates).toEqual(['2026-12-25']);
    expect(dates('on xmas eve')?.dates).toEqual(['2026-12-24']);
    expect(dates("new year's eve")?.dates).toEqual(['2026-12-31']);
    expect(dates('new years day')?.dates).toEqual(['2027-01-01']);
    expect(dates('halloween')?.dates).toEqual(['2027-10-31']);
    // "Eve" alone is still the evening.
    expect(hard('friday eve')).toContainEqual({ kind: 'startTime', after: '17:00' });
  });

  it('ignores past dates and "the 2nd row"', () => {
    expect(dates('2026-11-20')).toBeUndefined();
    expect(dates('the 2nd row')).toBeUndefined();
  });
});

describe('a week or two on', () => {
  it.each([
    ['2 tickets a week today', ['2026-11-28']],
    ['this day next week please', ['2026-11-28']],
    ["in a week's time, 2 tickets", ['2026-11-28']],
    ['a week on friday, 2 tickets', ['2026-12-04']],
    ['friday week for 2', ['2026-12-04']],
    ['in a fortnight', ['2026-12-05']],
    ['for a week today, Saturday the 28th', ['2026-11-28']],
  ])('"%s"', (text, expected) => {
    expect(dates(text)).toEqual({ kind: 'date', dates: expected });
  });

  it('"back in a week" is no day for the booking', () => {
    expect(dates("friday please, we'll be back in a week")).toEqual({ kind: 'date', dates: ['2026-11-27'] });
  });
});

describe('"sat" and "sun" after this, next or coming', () => {
  it('are days whatever follows ("this sat please")', () => {
    expect(dates('2 tickets this sat please')).toEqual({ kind: 'date', dates: ['2026-11-21'] });
    expect(dates('next sun works')).toEqual({ kind: 'date', dates: ['2026-11-22'] });
    expect(dates('we sat near the front last time')).toBeUndefined();
  });
});

describe('a week said as a span', () => {
  // Today is Saturday 21 November 2026: next week is 23–29 November.
  it.each([
    [
      '2 tickets sometime next week',
      ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'],
    ],
    [
      'one evening next week, 2 of us',
      ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'],
    ],
  ])('"%s"', (text, days) => {
    expect(dates(text)).toEqual({ kind: 'date', dates: days });
  });
  it('a day named beside it is the wish', () => {
    expect(dates("what's on next week? 2 for orbital drift on tuesday")).toEqual({
      kind: 'date',
      dates: ['2026-11-24'],
    });
  });
  it('"any day this week" says any day will do', () => {
    expect(dates('2 tickets, any day this week works')).toBeUndefined();
  });
  it('"mon-wed next week" and "next weekend" stay as they were', () => {
    expect(dates('mon-wed next week, 2')).toEqual({ kind: 'date', dates: ['2026-11-23', '2026-11-24', '2026-11-25'] });
    expect(dates('2 tickets next weekend')?.kind).toBe('date');
  });
});

describe('"sat" and "sun" before a clock', () => {
  it.each([
    ['orbital drift sat 7pm, 2 of us', ['2026-11-21']],
    ['sun 3pm, 2 tickets', ['2026-11-22']],
    ['sat or sun, 2 tickets', ['2026-11-21', '2026-11-22']],
  ])('"%s"', (text, days) => {
    expect(dates(text)).toEqual({ kind: 'date', dates: days });
  });
  it('"we sat 2 rows back" names no day', () => {
    expect(dates('we sat 2 rows back last time, 2 for orbital drift')).toBeUndefined();
  });
});

describe('the same weekday again, a week on', () => {
  // Today is Saturday 21 November 2026.
  it.each([
    [['orbital drift tuesday, 2 adults', 'sorry I meant next tuesday'], ['2026-12-01']],
    [['orbital drift friday, 2 adults', 'no, the friday after'], ['2026-12-04']],
  ])('%j', (messages, days) => {
    expect(dates(...messages)).toEqual({ kind: 'date', dates: days });
  });
  it('"next tuesday" said first is the coming one', () => {
    expect(dates('orbital drift next tuesday, 2 adults')).toEqual({ kind: 'date', dates: ['2026-11-24'] });
  });
  it('another weekday said after one held is that day', () => {
    expect(dates('orbital drift tuesday, 2 adults', 'actually next wednesday')).toEqual({
      kind: 'date',
      dates: ['2026-11-25'],
    });
  });
});

describe('"the day after" a day said as tomorrow or today', () => {
  // Today is Saturday 21 November 2026.
  it.each([
    ['2 adults, tomorrow or the day after', ['2026-11-22', '2026-11-23']],
    ['2 adults tonight or the night after', ['2026-11-21', '2026-11-22']],
  ])('"%s"', (text, days) => {
    expect(dates(text)).toEqual({ kind: 'date', dates: days });
  });
});

describe('a weekday named beside "a weekday"', () => {
  // Today is Saturday 21 November 2026.
  it('"a cheap weekday matinee. tuesday" is Tuesday', () => {
    expect(dates('me and my coursemate fancy a cheap weekday matinee. tuesday, between 12 and 3')).toEqual({
      kind: 'date',
      dates: ['2026-11-24'],
    });
  });
  it('a weekday refused or only hoped for leaves the span', () => {
    expect(dates('any weekday evening except friday, 2 adults')).toEqual({
      kind: 'date',
      dates: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26'],
    });
    expect(dates('any weekday, ideally tuesday, 2 adults')?.dates).toHaveLength(5);
  });
});

describe('a day preferred among the days allowed', () => {
  it.each([
    ['friday or saturday, ideally saturday, 2 adults', ['2026-11-21', '2026-11-27'], ['2026-11-21']],
    ['any day this weekend, ideally sunday, 2 adults', ['2026-11-21', '2026-11-22'], ['2026-11-22']],
  ])('"%s" keeps every day allowed and prefers one', (text, allowed, preferred) => {
    expect(dates(text)).toEqual({ kind: 'date', dates: allowed });
    expect(soft(text).find((c) => c.kind === 'date')).toEqual({ kind: 'date', dates: preferred });
  });
});

describe('a day said as when the participant leaves', () => {
  it.each([
    [
      "I'm in town for a conference and fly home first thing Friday, so it's tonight or tomorrow, nothing else. 1 adult",
      ['2026-11-21', '2026-11-22'],
    ],
    ['we fly back on sunday so saturday night, 2 adults', ['2026-11-21']],
  ])('"%s"', (text, days) => {
    expect(dates(text)).toEqual({ kind: 'date', dates: days });
  });

  it('"tonight or tomorrow" is tomorrow at any time; "tonight" alone is the evening', () => {
    expect(hard('tonight or tomorrow, 2 adults').find((c) => c.kind === 'startTime')).toBeUndefined();
    expect(hard('tonight, 2 adults').find((c) => c.kind === 'startTime')).toEqual({
      kind: 'startTime',
      after: '17:00',
    });
  });
});
