import { describe, expect, it } from 'vitest';
import { hard } from './testing.ts';

const party = (...m: string[]) => hard(...m).filter((c) => c.kind === 'seatCount' || c.kind === 'ticketMix');

describe('seat count', () => {
  it.each([
    ['two tickets', 2],
    ['2 seats', 2],
    ['for 3 people', 3],
    ['tickets for 2', 2],
    ['a table for four', 4],
    ['for two', 2],
    ["we're 5", 5],
    ['the two of us', 2],
    ['both of us', 2],
    ['me and my wife', 2],
    ['my wife and I', 2],
    ['me and two friends', 3],
    ['just me', 1],
    ['a couple of tickets', 2],
    ['a party of six', 6],
  ])('"%s" → %s', (text, count) => {
    expect(party(text)).toEqual([{ kind: 'seatCount', count }]);
  });

  it.each([
    ['going with my dad', 2],
    ['my wife, my son and I', 3],
  ])('"%s" → %s', (text, count) => {
    expect(party(text)).toEqual([{ kind: 'seatCount', count }]);
  });

  it('counts companions only when the speaker comes along', () => {
    expect(party('my daughter loves cartoons')).toEqual([]);
    expect(party('my husband uses a wheelchair')).toEqual([]);
  });

  it('"me and my kids" has no count to give', () => {
    expect(party('me and my kids')).toEqual([]);
  });

  it('"for 7" alone is neither seats nor a time', () => {
    expect(hard('book for 7')).toEqual([]);
  });
});

describe('ticket mix', () => {
  it.each([
    ['two adults and a child', { adult: 2, child: 1 }, 3],
    ['2 adult tickets', { adult: 2 }, 2],
    ['a senior and 2 kids', { child: 2, senior: 1 }, 3],
    ['me and my wife and our two kids', { adult: 2, child: 2 }, 4],
    ['me and a child', { adult: 1, child: 1 }, 2],
    ['4 tickets, one of them for a child', { adult: 3, child: 1 }, 4],
  ])('"%s"', (text, mix, count) => {
    expect(party(text)).toEqual([
      { kind: 'seatCount', count },
      { kind: 'ticketMix', ...mix },
    ]);
  });

  it('"plus a child" adds to the party, counting earlier seats as adults', () => {
    expect(party('2 tickets', 'plus a child')).toEqual([
      { kind: 'seatCount', count: 3 },
      { kind: 'ticketMix', adult: 2, child: 1 },
    ]);
  });

  it('"another adult" adds to the mix', () => {
    expect(party('two adults and a child', 'another adult')).toEqual([
      { kind: 'seatCount', count: 4 },
      { kind: 'ticketMix', adult: 3, child: 1 },
    ]);
  });

  it('"one more ticket" adds a seat', () => {
    expect(party('two tickets', 'one more ticket')).toEqual([{ kind: 'seatCount', count: 3 }]);
  });

  it('a new seat count that does not fit the old mix drops the mix', () => {
    expect(party('two adults and a child', 'actually 4 tickets')).toEqual([{ kind: 'seatCount', count: 4 }]);
    expect(party('two adults and a child', '3 tickets')).toEqual([
      { kind: 'seatCount', count: 3 },
      { kind: 'ticketMix', adult: 2, child: 1 },
    ]);
  });
});
