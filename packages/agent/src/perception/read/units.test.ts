import { describe, expect, it } from 'vitest';
import {
  clockFrom,
  endClockAfter,
  formatFrom,
  impliedRatingScale,
  isoDayFrom,
  kmFromMiles,
  kmFromText,
  minutesFromDuration,
  ratingOutOf10,
  rowLetters,
  seatFromId,
  seatKindFrom,
} from './units.ts';

describe('the conversions onto the agent model', () => {
  it('distances: miles and written units to km, to a tenth', () => {
    expect(kmFromMiles(1)).toBe(1.6);
    expect(kmFromMiles(2.5)).toBe(4);
    expect(kmFromText('2.3 mi')).toBe(3.7);
    expect(kmFromText('4 km')).toBe(4);
    expect(kmFromText('800 m')).toBe(0.8);
    expect(kmFromText('near')).toBeNaN();
  });

  it('ratings: onto 10 points from their own scale, said in the text or given', () => {
    expect(ratingOutOf10('4.2/5', 10)).toBe(8.4);
    expect(ratingOutOf10('84%', 10)).toBe(8.4);
    expect(ratingOutOf10('4.2', 5)).toBe(8.4);
    expect(ratingOutOf10(7.6, 10)).toBe(7.6);
    expect(ratingOutOf10(6, 5)).toBeNaN();
    expect(ratingOutOf10('great', 10)).toBeNaN();
    expect(impliedRatingScale([3.5, 4.8, 2])).toBe(5);
    expect(impliedRatingScale([7.2, 8.1])).toBe(10);
    expect(impliedRatingScale([72, 91])).toBe(100);
  });

  it('durations: minutes from numbers and the usual spellings', () => {
    expect(minutesFromDuration(105)).toBe(105);
    expect(minutesFromDuration('105 min')).toBe(105);
    expect(minutesFromDuration('1h 45m')).toBe(105);
    expect(minutesFromDuration('2h')).toBe(120);
    expect(minutesFromDuration('PT1H45M')).toBe(105);
    expect(minutesFromDuration('1:45')).toBe(105);
    expect(minutesFromDuration('long')).toBeNaN();
  });

  it('clock times, end times after midnight, and days', () => {
    expect(clockFrom('7:30 PM')).toBe('19:30');
    expect(clockFrom('12:15 am')).toBe('00:15');
    expect(clockFrom('9pm')).toBe('21:00');
    expect(clockFrom('2026-11-21T19:30:00')).toBe('19:30');
    expect(clockFrom('9:05')).toBe('09:05');
    expect(clockFrom('25:61 pm')).toBeUndefined();
    expect(endClockAfter('22:40', 148)).toBe('01:08');
    expect(endClockAfter('19:30', 105)).toBe('21:15');
    expect(isoDayFrom('2026-11-21T10:00:00Z')).toBe('2026-11-21');
    expect(isoDayFrom(Date.UTC(2026, 10, 21, 17))).toBe('2026-11-21');
  });

  it('seats: rows as letters from numbers and ids in other notations; kinds and formats in the model words', () => {
    expect(rowLetters(3)).toBe('C');
    expect(rowLetters('3')).toBe('C');
    expect(rowLetters('c')).toBe('C');
    expect(rowLetters(27)).toBe('AA');
    expect(seatFromId('C7')).toEqual({ row: 'C', number: 7 });
    expect(seatFromId('C-07')).toEqual({ row: 'C', number: 7 });
    expect(seatFromId('R3-S7')).toEqual({ row: 'C', number: 7 });
    expect(seatFromId('row3-seat7')).toEqual({ row: 'C', number: 7 });
    expect(seatFromId('37')).toBeUndefined();
    expect(seatKindFrom('accessible')).toBe('wheelchair');
    expect(seatKindFrom('VIP')).toBe('premium');
    expect(seatKindFrom('regular')).toBe('standard');
    expect(formatFrom('imax')).toBe('IMAX');
    expect(formatFrom('3d')).toBe('3D');
    expect(formatFrom('2D')).toBe('Standard');
    expect(formatFrom('Dolby Cinema')).toBe('Dolby Cinema');
  });
});
