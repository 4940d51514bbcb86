import { describe, expect, it } from 'vitest';
import { hard, soft } from './testing.ts';

describe('distance', () => {
  it.each([
    ['within 5 km', 5],
    ['less than 2.5km away', 2.5],
    ['no further than 3 miles', 4.8],
    ['10 km max', 10],
  ])('"%s" → %s km', (text, maxKm) => {
    expect(hard(text)).toEqual([{ kind: 'distance', maxKm }]);
  });

  it.each(['nearby', 'close to me', 'somewhere not too far', 'the closest cinema', 'near home'])(
    '"%s" → soft closest',
    (text) => {
      expect(soft(text)).toEqual([{ kind: 'closest' }]);
    },
  );
});

describe('format', () => {
  it.each([
    ['IMAX', { is: ['IMAX'] }],
    ['in 3D', { is: ['3D'] }],
    ['IMAX or 3D', { is: ['IMAX', '3D'] }],
    ['a regular screening', { is: ['Standard'] }],
    ['2D please', { is: ['Standard'] }],
    ['not 3D', { not: ['3D'] }],
    ['no IMAX', { not: ['IMAX'] }],
    ['nothing in 3D', { not: ['3D'] }],
    ['a non-IMAX one', { not: ['IMAX'] }],
    ['3D instead of IMAX', { is: ['3D'] }],
  ])('"%s"', (text, expected) => {
    expect(hard(text)).toEqual([{ kind: 'format', ...expected }]);
  });

  it('"standard seats" is a seat kind, not a format', () => {
    expect(hard('standard seats')).toEqual([{ kind: 'seatKind', seatKind: 'standard' }]);
  });
});

describe('price', () => {
  it.each([
    ['under $40', 40],
    ['max 50 dollars', 50],
    ['no more than $45.50 in total', 45.5],
    ['our budget is 60', 60],
    ['$40 tops', 40],
  ])('"%s" → %s', (text, maxTotal) => {
    expect(hard(text)).toEqual([{ kind: 'price', maxTotal }]);
  });

  it('a per-ticket ceiling becomes a total with the seat count', () => {
    expect(hard('max $15 per ticket for two')).toContainEqual({ kind: 'price', maxTotal: 30 });
    expect(hard('two tickets', 'under $12 each')).toContainEqual({ kind: 'price', maxTotal: 24 });
  });

  it('a per-ticket ceiling without a seat count is left out', () => {
    expect(hard('under $12 per ticket')).toEqual([]);
  });

  it.each(['the cheapest option', 'as cheap as possible', 'something affordable', 'not too expensive'])(
    '"%s" → soft cheapest',
    (text) => {
      expect(soft(text)).toEqual([{ kind: 'cheapest' }]);
    },
  );
});
