import { describe, expect, it } from 'vitest';
import { hard } from './testing.ts';

const dates = (...m: string[]) => hard(...m).filter((c) => c.kind === 'date');

describe('dates the rules do not know, read by chrono-node against the study day', () => {
  it.each([
    ['on 11/27', '2026-11-27'],
    ['27/11', '2026-11-27'],
    ['in 3 days', '2026-11-24'],
    ['in 2 weeks', '2026-12-05'],
  ])('"%s" → %s', (text, date) => {
    expect(dates(text)).toEqual([{ kind: 'date', dates: [date] }]);
  });

  it('reads "4/12" as whichever of 12 April and 4 December comes first on or after the study day', () => {
    // The study day is Saturday 21 November 2026.
    expect(dates('on 4/12')).toEqual([{ kind: 'date', dates: ['2026-12-04'] }]);
    expect(dates('on 12/4')).toEqual([{ kind: 'date', dates: ['2026-12-04'] }]);
    expect(dates('on 1/12/2026')).toEqual([{ kind: 'date', dates: ['2026-12-01'] }]);
    // A day over 12 has one reading either way round.
    expect(dates('on 12/22')).toEqual([{ kind: 'date', dates: ['2026-12-22'] }]);
    expect(dates('on 22/12')).toEqual([{ kind: 'date', dates: ['2026-12-22'] }]);
  });

  it('keeps only whole days written with a digit or a month', () => {
    expect(dates('for a week')).toEqual([]);
    expect(dates('at 7pm')).toEqual([]);
  });

  it('a refused day is dropped from the days wanted', () => {
    expect(dates('11/27 or 11/28', 'not 11/27')).toEqual([{ kind: 'date', dates: ['2026-11-28'] }]);
  });
});
