import { describe, expect, it } from 'vitest';
import { hard, read, soft } from './testing.ts';

describe('distance', () => {
  it.each([
    ['within 5 km', 5],
    ['less than 2.5km away', 2.5],
    ['no further than 3 miles', 4.8],
    ['10 km max', 10],
    ['nothing more than 5 km away', 5],
    ['not farther than 2 miles', 3.2],
    ['nothing over 8km from home', 8],
  ])('"%s" → %s km', (text, maxKm) => {
    expect(hard(text)).toEqual([{ kind: 'distance', maxKm }]);
  });

  it.each(['nearby', 'close to me', 'somewhere not too far', 'the closest cinema', 'near home'])(
    '"%s" → soft closest',
    (text) => {
      expect(soft(text)).toEqual([{ kind: 'closest' }]);
    },
  );

  it.each(['somewhere near the middle', 'not too far back', 'somewhere close to the front'])(
    '"%s" is about the seats, not the theater',
    (text) => {
      expect([...hard(text), ...soft(text)].some((c) => c.kind === 'closest')).toBe(false);
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
    ["we don't want to pay for imax or 3d", { not: ['IMAX', '3D'] }],
    ["my wife can't cope with 3D", { not: ['3D'] }],
    ['no IMAX', { not: ['IMAX'] }],
    ['nothing in 3D', { not: ['3D'] }],
    ['a non-IMAX one', { not: ['IMAX'] }],
    ['3D instead of IMAX', { is: ['3D'] }],
  ])('"%s"', (text, expected) => {
    expect(hard(text)).toEqual([{ kind: 'format', ...expected }]);
  });

  it.each([
    ['is there a 3d showing tomorrow? otherwise regular is fine', ['3D', 'Standard'], ['3D']],
    ['3D if possible, if not 2D is fine', ['3D', 'Standard'], ['3D']],
    ['IMAX, otherwise 3D would do', ['IMAX', '3D'], ['IMAX']],
  ])('"%s": the fallback widens the formats, the first stays preferred', (text, acceptable, preferred) => {
    const { hard: firm, soft: wished } = read(text).model;
    expect(firm.filter((c) => c.kind === 'format')).toEqual([{ kind: 'format', is: acceptable }]);
    expect(wished.filter((c) => c.kind === 'format')).toEqual([{ kind: 'format', is: preferred }]);
  });

  it('a plain "regular" is a format only as a fallback', () => {
    expect(hard('a regular, 2 tickets')).toEqual([{ kind: 'seatCount', count: 2 }]);
  });

  it('"standard seats" is a seat kind, not a format', () => {
    expect(hard('standard seats')).toEqual([{ kind: 'seatKind', seatKind: 'standard' }]);
  });
});

describe('cheapest', () => {
  it.each(['the cheapest option', 'as cheap as possible', 'something affordable', 'not too expensive'])(
    '"%s" → soft cheapest',
    (text) => {
      expect(soft(text)).toEqual([{ kind: 'cheapest' }]);
    },
  );
});

describe('a distance in words', () => {
  it.each([
    ['less than a mile from my flat', 1.6],
    ['within half a mile', 0.8],
  ])('"%s"', (text, km) => {
    const c = hard(text).find((x) => x.kind === 'distance');
    expect(c?.kind === 'distance' && Math.round(c.maxKm * 10) / 10).toBe(km);
  });
});

describe('a distance refused with "can\'t be more than"', () => {
  it.each([
    ["the cinema can't be more than 10 miles away", 16.1],
    ['it cant be more than 10 miles away, im getting the bus', 16.1],
    ["mustn't be further than 8 km", 8],
  ])('"%s" → within %s km', (text, maxKm) => {
    expect(hard(text).find((c) => c.kind === 'distance')).toEqual({ kind: 'distance', maxKm });
  });
});
