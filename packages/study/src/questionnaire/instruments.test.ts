import { describe, expect, it } from 'vitest';
import { INSTRUMENT_DEFINITIONS, scoreNasaTlxRaw, scoreSus, scoreTrust } from './instruments.ts';

describe('the standard instruments’ scores', () => {
  it('scores SUS as Brooke (1996) does: the scored example of the original form, 22 × 2.5 = 55', () => {
    // Item contributions 4, 1, 1, 4, 1, 2, 1, 1, 4, 3 (odd: answer − 1; even: 5 − answer), total 22.
    expect(scoreSus([5, 4, 2, 1, 2, 3, 2, 4, 5, 2])).toBe(55);
    expect(scoreSus([5, 1, 5, 1, 5, 1, 5, 1, 5, 1])).toBe(100);
    expect(scoreSus([1, 5, 1, 5, 1, 5, 1, 5, 1, 5])).toBe(0);
    expect(scoreSus([3, 3, 3, 3, 3, 3, 3, 3, 3, 3])).toBe(50);
    // Hand-computed: (3+3+3+3+2+4+4+4+1+3) = 30 → 75.
    expect(scoreSus([4, 2, 4, 2, 3, 1, 5, 1, 2, 2])).toBe(75);
  });

  it('scores raw TLX as the mean of the six subscales (Hart 2006)', () => {
    expect(scoreNasaTlxRaw([70, 10, 55, 25, 60, 40])).toBe(43.333333333333336);
    expect(scoreNasaTlxRaw([0, 0, 0, 0, 0, 0])).toBe(0);
  });

  it('scores trust reversing the five distrust items, as the mean of twelve on 1–7', () => {
    // Distrust 1,2,2,3,1 → 7,6,6,5,7 (31); trust items 6,5,6,6,6,7,3 (39): 70 / 12.
    expect(scoreTrust([1, 2, 2, 3, 1, 6, 5, 6, 6, 6, 7, 3])).toBeCloseTo(70 / 12, 10);
    expect(scoreTrust([7, 7, 7, 7, 7, 1, 1, 1, 1, 1, 1, 1])).toBe(1);
    expect(scoreTrust([1, 1, 1, 1, 1, 7, 7, 7, 7, 7, 7, 7])).toBe(7);
  });

  it('refuses answers off the scale or too few, rather than scoring them', () => {
    expect(() => scoreSus([5, 4, 2, 1, 2, 3, 2, 4, 5])).toThrow(/10 answers/);
    expect(() => scoreSus([6, 4, 2, 1, 2, 3, 2, 4, 5, 2])).toThrow(/1–5/);
    expect(() => scoreNasaTlxRaw([0, 0, 0, 0, 0, 101])).toThrow(/0–100/);
    expect(() => scoreTrust([0, 1, 1, 1, 1, 7, 7, 7, 7, 7, 7, 7])).toThrow(/1–7/);
  });

  it('scores an instrument from its own items’ answers, by id', () => {
    const sus = INSTRUMENT_DEFINITIONS.sus;
    expect(sus.items.map((i) => i.id)).toEqual(Array.from({ length: 10 }, (_, i) => `sus-${i + 1}`));
    const answers = new Map(sus.items.map((item, i) => [item.id, [5, 4, 2, 1, 2, 3, 2, 4, 5, 2][i]]));
    expect(sus.score(answers)).toBe(55);
    expect(INSTRUMENT_DEFINITIONS['nasa-tlx-raw'].items).toHaveLength(6);
    expect(INSTRUMENT_DEFINITIONS.trust.items).toHaveLength(12);
  });
});
