import { describe, expect, it } from 'vitest';
import { describeModel } from './describe.ts';
import { hard, read, soft } from './testing.ts';

const price = (...messages: string[]) => {
  const { model } = read(...messages);
  return {
    hard: model.hard.filter((c) => c.kind === 'price'),
    soft: model.soft.filter((c) => c.kind === 'price'),
  };
};

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
});

describe('price limits without a currency, in total or per ticket', () => {
  it.each([
    ['2 adults, we can spend max 25 total', 25],
    ["budget's 40, 3 tickets", 40],
    ['2 tickets, budget 35', 35],
    ["can't spend more than 50, 2 tickets", 50],
    ["3 of us and we don't want to pay over 45", 45],
    ['me and my wife, 40 bucks max', 40],
    ['3 seats, we have 60 to spend', 60],
    ['for 2 under 30 all in', 30],
    ['2 tickets, under 20', 20],
    ['cap it at 55, 4 tickets', 55],
  ])('"%s" → a total of %s', (text, maxTotal) => {
    expect(price(text)).toEqual({ hard: [{ kind: 'price', maxTotal }], soft: [] });
  });

  it.each([
    ['2 tickets, under 20 a ticket', 40],
    ['cap it at twenty quid each, 2 of us', 40],
    ['2 tix, nothing over 15 each', 30],
    ['2 tickets, under a tenner each', 20],
    ['for 4, max 15 pounds a head', 60],
    ["i don't want to pay more than 12 per ticket, 2 adults", 24],
  ])('"%s" → per ticket, a total of %s', (text, maxTotal) => {
    expect(price(text)).toEqual({ hard: [{ kind: 'price', maxTotal }], soft: [] });
  });

  it('money the participant has is the budget, when it carries a currency', () => {
    expect(price("4 adults, we've got about 70 quid between us")).toEqual({
      hard: [{ kind: 'price', maxTotal: 70 }],
      soft: [],
    });
    expect(price('2 tickets, i only have $30')).toEqual({ hard: [{ kind: 'price', maxTotal: 30 }], soft: [] });
    expect(price("we've got a tenner each, 2 of us")).toEqual({ hard: [{ kind: 'price', maxTotal: 20 }], soft: [] });
    // "We have 2 kids": a bare number had is not money.
    expect(price('we have 2 kids, paper lanterns sunday')).toEqual({ hard: [], soft: [] });
  });

  it('a bare number after a row, a seat or a screen is a place, not money', () => {
    for (const text of ['2 for night ledger sunday, row 15 or less', 'seat 20 max please', 'screen no. 14 or under']) {
      expect(price(text), text).toEqual({ hard: [], soft: [] });
    }
    // With a currency it is money wherever it stands.
    expect(price('2 tickets near row 15, £40 or less')).toEqual({ hard: [{ kind: 'price', maxTotal: 40 }], soft: [] });
  });

  it('"no more than $30 for both" is a total, and "both" is the party', () => {
    expect(hard('no more than $30 for both')).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'price', maxTotal: 30 },
    ]);
  });

  it('a hedged limit is soft', () => {
    expect(price('2 tickets, ideally under 25')).toEqual({ hard: [], soft: [{ kind: 'price', maxTotal: 25 }] });
    expect(price('2 tickets, under 20 a ticket if possible')).toEqual({
      hard: [],
      soft: [{ kind: 'price', maxTotal: 40 }],
    });
  });

  it.each([
    'under 2 hours, 2 tickets',
    '2 kids under 12 and me',
    'no more than 3 tickets',
    'for 2, under 5 km',
    'nobody under 18, 2 tickets',
    '2 tickets, max 4',
  ])('"%s" sets no price', (text) => {
    expect(price(text)).toEqual({ hard: [], soft: [] });
  });
});

describe('a per-ticket limit before the count is known', () => {
  it('is kept, said back, and applied when the count comes', () => {
    const first = read('orbital drift tomorrow, under 20 a ticket');
    expect(first.model.hard.some((c) => c.kind === 'price')).toBe(false);
    expect(first.model.perTicket).toEqual({ max: 20, strength: 'hard' });
    expect(describeModel(first.model)).toContain('at most 20 a ticket');
    expect(price('orbital drift tomorrow, under 20 a ticket', 'three of us').hard).toEqual([
      { kind: 'price', maxTotal: 60 },
    ]);
  });

  it('follows the count when the party changes', () => {
    expect(price('2 tickets, max 15 each', 'plus one more').hard).toEqual([{ kind: 'price', maxTotal: 45 }]);
  });

  it('gives way to a total said later, and to a withdrawn price', () => {
    const total = read('2 tickets, max 15 each', 'actually just keep it under 40 in total', 'make that 3 tickets');
    expect(total.model.hard).toContainEqual({ kind: 'price', maxTotal: 40 });
    expect(total.model.perTicket).toBeUndefined();
    const dropped = read('2 tickets, max 15 each', 'forget the budget', 'make that 3 tickets');
    expect(dropped.model.hard.some((c) => c.kind === 'price')).toBe(false);
    expect(dropped.model.perTicket).toBeUndefined();
  });

  it('applies when the seats counted say how many, without a seat count', () => {
    // "I use a wheelchair" counts one seat and asks nothing: the limit must not wait for a count.
    expect(price('i use a wheelchair, night ledger sunday, no more than $15 a ticket').hard).toEqual([
      { kind: 'price', maxTotal: 15 },
    ]);
    expect(price('night ledger sunday, a wheelchair space please, max 12 quid each').hard).toEqual([
      { kind: 'price', maxTotal: 12 },
    ]);
  });

  it('replaces a total said before it', () => {
    expect(price('2 tickets, under $50 total', 'no wait, under 20 a ticket').hard).toEqual([
      { kind: 'price', maxTotal: 40 },
    ]);
  });
});

describe('cheapest and a limit together', () => {
  it('"cheapest … max 25 total": both', () => {
    expect(soft('cheapest option, 2 adults, max 25 total')).toEqual([{ kind: 'cheapest' }]);
    expect(hard('cheapest option, 2 adults, max 25 total')).toContainEqual({ kind: 'price', maxTotal: 25 });
  });
});

describe('a limit said for the tickets together', () => {
  it('"my limit is $22 for the two tickets together" is a total, and no wish to sit together', () => {
    const h = hard('me and my grandson. My limit is $22 for the two tickets together, not a cent more.');
    expect(h).toContainEqual({ kind: 'price', maxTotal: 22 });
    expect(h.some((c) => c.kind === 'adjacent')).toBe(false);
  });
});

describe('money the party has between them', () => {
  it.each([
    ["2 adults fri. we've literally got $30 between us for the tickets so it can't go over that", 30],
    ['2 adults fri. $30 between the two of us', 30],
    ['4 of us, about 60 dollars between the four of us', 60],
    ['2 adults fri, $30 is all we have', 30],
    ['2 adults. 40 quid is our limit', 40],
  ])('"%s" → at most %s in total', (text, maxTotal) => {
    expect(hard(text)).toContainEqual({ kind: 'price', maxTotal });
  });
  it('"between us" with no money is no price', () => {
    expect(price("3 tickets, we'll split the snacks between us").hard).toEqual([]);
  });
});

describe('a bare number after a score, a length or a distance in its clause', () => {
  it.each([
    '1 ticket, nothing with a metascore under 70',
    'nothing rated under 60 please',
    '2 tickets, nothing below 70 percent',
  ])('"%s" sets no price', (text) => {
    expect(price(text).hard).toEqual([]);
  });
  it('a score said in another clause leaves the price', () => {
    expect(price('2 tickets, rated well, under 30').hard).toEqual([{ kind: 'price', maxTotal: 30 }]);
  });
});

describe('money said loosely', () => {
  it.each([
    '2 adults sat, nothing pricey',
    '2 adults sat, on a budget',
    "2 adults sat, we're skint",
    'not too pricey please',
  ])('"%s" wishes for the cheapest', (text) => {
    expect(soft(text)).toContainEqual({ kind: 'cheapest' });
  });
  it.each([
    ['2 adults sat, £25 the pair', 25],
    ['2 adults sat, $30 for the two', 30],
  ])('"%s" → at most %s in total', (text, maxTotal) => {
    expect(hard(text)).toContainEqual({ kind: 'price', maxTotal });
  });
});
