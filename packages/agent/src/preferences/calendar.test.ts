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

  it('keeps only whole days written with a digit or a month', () => {
    expect(dates('for a week')).toEqual([]);
    expect(dates('at 7pm')).toEqual([]);
  });

  it('a refused day is dropped from the days wanted', () => {
    expect(dates('11/27 or 11/28', 'not 11/27')).toEqual([{ kind: 'date', dates: ['2026-11-28'] }]);
  });
});
