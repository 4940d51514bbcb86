import { describe, expect, it } from 'vitest';
import { addDays, clockOf, daysBetween, isClockTime, isIsoDate, minutesOf, shortDateLabel, weekdayOf } from './time.ts';

describe('time helpers', () => {
  it('validates dates and clock times', () => {
    expect(isIsoDate('2026-11-21')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-1-2')).toBe(false);
    expect(isClockTime('23:59')).toBe(true);
    expect(isClockTime('24:00')).toBe(false);
  });

  it('does calendar arithmetic in UTC', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-11-21', '2026-11-27')).toBe(6);
    expect(weekdayOf('2026-11-21')).toBe('Saturday');
    expect(shortDateLabel('2026-11-21')).toBe('Sat 21 Nov');
  });

  it('converts between HH:MM and minutes, wrapping past midnight', () => {
    expect(minutesOf('19:30')).toBe(1170);
    expect(minutesOf('25:00')).toBe(1500);
    expect(clockOf(1360 + 148)).toBe('01:08');
    expect(() => minutesOf('7pm')).toThrow(RangeError);
  });
});
