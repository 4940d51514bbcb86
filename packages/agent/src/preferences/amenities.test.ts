import { describe, expect, it } from 'vitest';
import { amenitiesWished, theatersLacking, theatersOffering } from './amenities.ts';

const THEATERS = [
  { name: 'Lakeside 12', amenities: ['Recliner Seating', 'IMAX'] },
  { name: 'Old Mill Cinema', amenities: ['Free Parking'] },
  { name: 'Riverside Art House', amenities: ['Cafe'] },
];

describe('a theater wished for by what it offers', () => {
  it('is read where a place is said to offer it', () => {
    expect(
      theatersOffering(amenitiesWished("wherever has free parking, I'm not paying for a car park again"), THEATERS),
    ).toEqual(['Old Mill Cinema']);
    expect(theatersOffering(amenitiesWished('at the cinema with the cafe, she loves a cuppa'), THEATERS)).toEqual([
      'Riverside Art House',
    ]);
    expect(theatersOffering(amenitiesWished("somewhere that's got a café"), THEATERS)).toEqual(['Riverside Art House']);
  });

  it('is not read from an amenity said of something else', () => {
    expect(amenitiesWished('coffee after the film, then home')).toEqual([]);
    expect(amenitiesWished("I'm not paying for a car park again")).toEqual([]);
  });

  it('chooses nothing when the stage lists no amenities, or none or every theater offers it', () => {
    const wished = amenitiesWished('a cinema with parking');
    expect(
      theatersOffering(
        wished,
        THEATERS.map(({ name }) => ({ name })),
      ),
    ).toBeNull();
    expect(theatersOffering(amenitiesWished('a cinema with a restaurant'), THEATERS)).toBeNull();
    expect(
      theatersOffering(wished, [
        { name: 'A', amenities: ['Parking'] },
        { name: 'B', amenities: ['Free parking'] },
      ]),
    ).toBeNull();
  });
});

describe('theaters that lack it', () => {
  it('are the ones that list amenities without it: none of them can be the theater wished for', () => {
    const wished = amenitiesWished('it has to be at the art house with the café');
    expect(wished.length).toBe(1);
    const others = THEATERS.filter((t) => t.name !== 'Riverside Art House');
    expect(theatersOffering(wished, others)).toBeNull();
    expect(theatersLacking(wished, others)).toEqual(['Lakeside 12', 'Old Mill Cinema']);
    // A theater that lists nothing says nothing.
    expect(theatersLacking(wished, [{ name: 'Quiet Place' }])).toEqual([]);
  });
});

describe('recliner seating', () => {
  it('names the theaters that list it', () => {
    expect(theatersOffering(amenitiesWished('the cinema that has recliner seating'), THEATERS)).toEqual([
      'Lakeside 12',
    ]);
  });
});
