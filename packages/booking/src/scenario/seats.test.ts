import { describe, expect, it } from 'vitest';
import { inRowMiddle } from './seats.ts';

const middleOf = (seatsPerRow: number) =>
  Array.from({ length: seatsPerRow }, (_, i) => i + 1).filter((n) => inRowMiddle(n, seatsPerRow));

describe('inRowMiddle', () => {
  it('keeps the seats wholly in the middle half of the row', () => {
    expect(middleOf(12)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(middleOf(18)).toEqual([6, 7, 8, 9, 10, 11, 12, 13]);
    expect(middleOf(10)).toEqual([4, 5, 6, 7]);
    expect(middleOf(8)).toEqual([3, 4, 5, 6]);
  });

  it('leaves a short row only what is not an end', () => {
    expect(middleOf(4)).toEqual([2, 3]);
    expect(middleOf(3)).toEqual([2]);
    expect(middleOf(2)).toEqual([]);
    expect(middleOf(1)).toEqual([]);
  });
});
