import { describe, expect, it } from 'vitest';
import { PERIODS, typicality, typicalStartOf } from './time-of-day.ts';

const evening = PERIODS.find((p) => p.period === 'evening');
const at = (clock: string) => {
  const [h = 0, m = 0] = clock.split(':').map(Number);
  return h * 60 + m;
};

describe('the typical start of a named part of the day', () => {
  it('knows the windows a reader gives the named parts of the day, and no other', () => {
    expect(typicalStartOf({ after: '17:00' })?.period).toBe('evening');
    expect(typicalStartOf({ after: '12:00', before: '17:00' })?.period).toBe('afternoon');
    expect(typicalStartOf({ before: '12:00' })?.period).toBe('morning');
    expect(typicalStartOf({ after: '18:30' })).toBeUndefined();
    expect(typicalStartOf({ after: '17:00', before: '19:00' })).toBeUndefined();
  });

  it('an evening start within half an hour of 19:00 is the most typical; 18:00–20:30 beats 17:00 and the late show', () => {
    if (!evening) throw new Error('no evening');
    expect(typicality(at('19:00'), evening)).toBe(1);
    expect(typicality(at('18:30'), evening)).toBe(1);
    expect(typicality(at('19:30'), evening)).toBe(1);
    expect(typicality(at('20:00'), evening)).toBeGreaterThan(typicality(at('20:30'), evening));
    expect(typicality(at('18:00'), evening)).toBe(0.75);
    expect(typicality(at('20:30'), evening)).toBe(0.75);
    expect(typicality(at('17:00'), evening)).toBeLessThan(0.75);
    expect(typicality(at('23:00'), evening)).toBeLessThan(typicality(at('17:30'), evening));
    expect(typicality(at('23:45'), evening)).toBe(0);
  });
});
