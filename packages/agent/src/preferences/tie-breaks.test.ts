import { describe, expect, it } from 'vitest';
import { tieBreaksSaid } from './tie-breaks.ts';

describe('preferences said only to break a tie', () => {
  it.each([
    ['tonight, the latest showing of anything PG. if a few cinemas tie, the nearest one', ['closest']],
    ["best rated one, and if there's a tie the cheaper one", ['cheapest']],
    ['the cheapest, and where two are the same price, the earlier one', ['earliest']],
    ["whatever film has the best rating, and if it's on in more than one place, the closest", ['closest']],
    ["any comedy, the cheapest, and if there's a choice the nearest", ['closest']],
    ['the earliest, and if several cinemas have it then the cheaper one', ['cheapest']],
    ['the film with the most stars on sunday. If it plays in many cinemas, the nearest one please', ['closest']],
    ['cheapest please, and if a few come out at the same price, the soonest of those', ['earliest']],
  ])('"%s"', (text, kinds) => {
    expect(tieBreaksSaid(text)).toEqual(kinds);
  });

  it('a preference said plainly is none', () => {
    expect(tieBreaksSaid('whatever is on last tonight at my closest cinema')).toEqual([]);
    expect(tieBreaksSaid('the nearest cinema, the latest showing')).toEqual([]);
  });
});
