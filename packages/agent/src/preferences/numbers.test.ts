import { describe, expect, it } from 'vitest';
import { COUNT, ORDINAL, parseCount, parseOrdinal } from './numbers.ts';

describe('numbers', () => {
  it('reads counts as digits and words', () => {
    expect(parseCount('3')).toBe(3);
    expect(parseCount('Two')).toBe(2);
    expect(parseCount('an')).toBe(1);
    expect(parseCount('ten')).toBe(10);
    expect(parseCount('many')).toBeUndefined();
  });

  it('reads ordinals as digits and words', () => {
    expect(parseOrdinal('second')).toBe(2);
    expect(parseOrdinal('3rd')).toBe(3);
    expect(parseOrdinal('24th')).toBe(24);
    expect(parseOrdinal('last')).toBeUndefined();
  });

  it('offers whole-token patterns', () => {
    expect(new RegExp(`^${COUNT}$`, 'i').test('seven')).toBe(true);
    expect(new RegExp(`^${ORDINAL}$`, 'i').test('21st')).toBe(true);
  });
});
