import { describe, expect, it } from 'vitest';
import { hard, read, soft } from './testing.ts';

describe('rows', () => {
  it.each([
    ['the second row', { allowed: ['B'] }],
    ['in the 3rd row', { allowed: ['C'] }],
    ['front row', { allowed: ['A'] }],
    ['row C', { allowed: ['C'] }],
    ['row C or D', { allowed: ['C', 'D'] }],
    ['rows C-F', { allowed: ['C', 'D', 'E', 'F'] }],
    ['row 4', { allowed: ['D'] }],
    ['in the first two rows', { allowed: ['A', 'B'] }],
    ['not the first three rows', { notFirst: 3 }],
    ['not in the front row', { notFirst: 1 }],
    ['not the back row', { notLast: 1 }],
    ['row 4 or further back', { notFirst: 3 }],
    ['row G or further back', { notFirst: 6 }],
    ['no further forward than row D pls', { notFirst: 3 }],
    ['nothing in front of row D', { notFirst: 3 }],
    ['no closer than row E', { notFirst: 4 }],
    ['no closer to the screen than row 4', { notFirst: 3 }],
    ['no further back than row F', { allowed: ['A', 'B', 'C', 'D', 'E', 'F'] }],
    ['nothing behind the sixth row', { allowed: ['A', 'B', 'C', 'D', 'E', 'F'] }],
  ])('"%s"', (text, expected) => {
    expect(hard(text)).toEqual([{ kind: 'rows', ...expected }]);
  });

  it('vague positions are soft approximations', () => {
    expect(soft('at the back')).toEqual([{ kind: 'rows', notFirst: 4 }]);
    expect(soft('the back rows ideally')).toEqual([{ kind: 'rows', notFirst: 4 }]);
    expect(soft('not too close to the screen')).toEqual([{ kind: 'rows', notFirst: 3 }]);
    expect(soft('we need to sit together, and not too close to the front')).toEqual([{ kind: 'rows', notFirst: 3 }]);
  });

  it('the back row, and the last rows counted, are the last rows of whichever room it is', () => {
    expect(hard('back row please')).toEqual([{ kind: 'rows', last: 1 }]);
    expect(hard('in the very back row')).toEqual([{ kind: 'rows', last: 1 }]);
    expect(hard('we all want to be in the last two rows')).toEqual([{ kind: 'rows', last: 2 }]);
    expect(hard('one of the back 3 rows')).toEqual([{ kind: 'rows', last: 3 }]);
    expect(hard('not the back row')).toEqual([{ kind: 'rows', notLast: 1 }]);
  });

  it('a vague position that restates a precise one in the same message leaves the precise one', () => {
    const said = 'two in the very front row please. we like being right up close to the screen';
    expect(hard(said)).toContainEqual({ kind: 'rows', allowed: ['A'] });
    expect(soft(said)).toEqual([]);
  });

  it('"row or" is not a row label', () => {
    expect(hard('a row or two')).toEqual([]);
  });
});

describe('seat kind', () => {
  it.each([
    ['premium seats', { seatKind: 'premium' }],
    ['no premium seats', { seatKind: 'standard' }],
    ['I need a wheelchair space', { seatKind: 'wheelchair', count: 1 }],
    ['two wheelchair spaces', { seatKind: 'wheelchair', count: 2 }],
    ['my dad uses a wheelchair', { seatKind: 'wheelchair', count: 1 }],
    ['an accessible seat', { seatKind: 'wheelchair', count: 1 }],
  ])('"%s"', (text, expected) => {
    expect(hard(text).find((c) => c.kind === 'seatKind')).toEqual({ kind: 'seatKind', ...expected });
  });

  it.each([
    'a wheelchair space plus the seat next to it',
    'a wheelchair spot for myself and a normal seat next to it for my carer',
    'a wheelchair space for my dad, and a regular seat beside it for me',
  ])('"%s": the space and an ordinary seat beside it', (text) => {
    expect(hard(text)).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'adjacent' },
      { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
    ]);
  });

  it('"2 premium seats" also sets the seat count', () => {
    expect(hard('2 premium seats')).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'seatKind', seatKind: 'premium' },
    ]);
  });
});

describe('adjacent and centered', () => {
  it.each(['seats together', 'next to each other', 'side by side', 'we want to sit together'])('"%s"', (text) => {
    expect(hard(text)).toEqual([{ kind: 'adjacent' }]);
  });

  it.each([
    ["my son uses a wheelchair and i'll sit beside him", 'adjacent'],
    ['seats next to my mum, 3 tickets', 'adjacent'],
    ["me and my dad, don't split us up", 'adjacent'],
    ["4 tickets, we can't be separated", 'adjacent'],
    ["2 seats, we don't mind sitting apart", 'none'],
    ['2 seats, next to the aisle', 'none'],
  ])('"%s" → %s', (text, wanted) => {
    const adjacent = hard(text).some((c) => c.kind === 'adjacent');
    expect(adjacent).toBe(wanted === 'adjacent');
  });

  it('"not together" drops the wish', () => {
    expect(hard('seats together', "we don't have to sit together")).toEqual([]);
    expect(hard('seats together', 'not together after all')).toEqual([]);
  });

  it.each(['in the middle', 'centered seats', 'central seats', 'middle rows'])('"%s" → soft centered', (text) => {
    expect(soft(text)).toEqual([{ kind: 'centered' }]);
  });
});

describe('refusals said by the whole party, and words that only look like one', () => {
  it('reads "none of us wants to be in the first four rows" as a refusal of those rows', () => {
    expect(hard('None of us wants to be in the first four rows. 3 tickets')).toContainEqual({
      kind: 'rows',
      notFirst: 4,
    });
  });

  it('reads "my mate\'s never seen a 3d film" as no refusal of 3D', () => {
    expect(hard("whatever they've got in 3d, my mate's never seen a 3d film. 2 tickets")).toContainEqual({
      kind: 'format',
      is: ['3D'],
    });
  });
});

describe('together, asked as a question', () => {
  it('reads "can we all be next to each other in one row?" as seats together', () => {
    expect(hard('can we all be next to each other in one row? 3 tickets')).toContainEqual({ kind: 'adjacent' });
  });
});

describe('a companion seated beside a wheelchair space', () => {
  it.each([
    'I need one of the wheelchair spaces with her seat right beside it',
    'a wheelchair space for me and him in the seat next to it',
  ])('"%s" wants the seats together', (text) => {
    expect(hard(text)).toContainEqual({ kind: 'adjacent' });
  });
});

describe('a party in one row', () => {
  it.each(['all 5 of us in a row please', 'All 7 of us in one row please'])('"%s" wants the seats together', (text) => {
    expect(hard(text)).toContainEqual({ kind: 'adjacent' });
  });

  it('is not a row named by its letter ("in row F")', () => {
    expect(hard('2 seats in row F')).not.toContainEqual({ kind: 'adjacent' });
  });
});

describe('a row and every row behind it', () => {
  it.each([
    ['row G or further back', { kind: 'rows', notFirst: 6 }],
    ['the fifth row or further back, if you please', { kind: 'rows', notFirst: 4 }],
    ['row C or closer', { kind: 'rows', allowed: ['A', 'B', 'C'] }],
  ])('"%s"', (text, rows) => {
    expect(hard(`2 tickets, ${text}`)).toContainEqual(rows);
  });

  it('reads "we want the middle of the row" as seats in the middle of the row', () => {
    expect(hard('we want the middle of the row')).toContainEqual({ kind: 'rowMiddle' });
  });
});

describe('the middle of the row, not at either end', () => {
  it.each([
    "I'd like a wheelchair space right in the centre of the row please, not at either end",
    'right in the centre of the row',
    '2 tickets, not on the end of a row',
    '2 tickets, no end seats',
    'in the middle of the row please, not the aisle end',
    'dead centre of the row',
    'sat together dead in the middle of the row',
    'a seat nowhere near either end of the row',
    'keep us away from the ends of the row',
    "don't put us on the end please",
    "I'd rather not be on the end",
    'we dont want to be stuck off at the side',
    'mid-row seats',
    'anywhere in the middle of a row is fine but not an end seat',
  ])('"%s" is hard: every seat in the middle half of its row', (text) => {
    expect(hard(text)).toContainEqual({ kind: 'rowMiddle' });
    expect(soft(text)).not.toContainEqual({ kind: 'rowMiddle' });
  });

  it.each([
    'ideally central',
    'somewhere in the middle would be nice',
    'ideally in the middle of the row',
    'preferably not on the end of a row',
    'if possible no end seats',
    "I'd love to be right in the centre of the row",
  ])('"%s" stays the soft preference for central seats', (text) => {
    expect(soft(text)).toEqual([{ kind: 'centered' }]);
    expect(hard(text)).not.toContainEqual({ kind: 'rowMiddle' });
  });

  it.each([
    '2 tickets, an end seat is fine',
    "2 tickets, we don't mind the end seats",
    '2 tickets, on the end please, I need the loo',
    '2 tickets, I get a headache watching from off to the side',
    '2 tickets on saturday, at the end of the day it does not matter',
    '2 tickets, not in the middle of the row',
  ])('"%s" asks for no seat in the middle', (text) => {
    const all = [...hard(text), ...soft(text)].map((c) => c.kind);
    expect(all).not.toContain('rowMiddle');
    expect(all).not.toContain('centered');
  });

  it('reads "the middle of row G" as both the row and its middle', () => {
    expect(hard('2 tickets in the middle of row G')).toEqual(
      expect.arrayContaining([{ kind: 'rows', allowed: ['G'] }, { kind: 'rowMiddle' }]),
    );
  });

  it('is withdrawn with the other seat wishes ("any seats are fine")', () => {
    expect(hard('2 tickets, not on the end of a row', 'actually any seats are fine')).toEqual([
      { kind: 'seatCount', count: 2 },
    ]);
  });
});

describe('the front rows and the dead centre', () => {
  it('"front rows only" after a reason keeps the front half', () => {
    expect(hard("2 adults, can't do stairs so front rows only")).toContainEqual({
      kind: 'rows',
      allowed: ['A', 'B', 'C', 'D'],
    });
  });
  it('"not the front rows" is not too close to the screen', () => {
    expect(soft('2 adults, not the front rows')).toContainEqual({ kind: 'rows', notFirst: 3 });
  });
  it('"dead centre", "smack in the middle" wish for central seats', () => {
    expect(soft('2 adults, dead centre please')).toContainEqual({ kind: 'centered' });
    expect(soft('2 adults, smack in the middle')).toContainEqual({ kind: 'centered' });
  });
});

describe('a wheelchair space and recliners together', () => {
  it('keeps the wheelchair space and asks for one recliner beside it', () => {
    const model = read(
      "I'm a wheelchair user and I'd like my wheelchair space in the recliner section, with my wife in the recliner beside me. Saturday.",
    ).model;
    expect(model.hard).toContainEqual({ kind: 'seatKind', seatKind: 'wheelchair', count: 1 });
    expect(model.hard).toContainEqual({ kind: 'seatKind', seatKind: 'premium', count: 1 });
    expect(model.hard).toContainEqual({ kind: 'adjacent' });
    expect(model.hard).toContainEqual({ kind: 'seatCount', count: 2 });
  });

  it('one seat cannot be both: a recliner said later for one replaces the wheelchair space', () => {
    const kinds = read('a wheelchair space saturday for 1', 'make it a recliner instead').model.hard.filter(
      (c) => c.kind === 'seatKind',
    );
    expect(kinds).toEqual([{ kind: 'seatKind', seatKind: 'premium' }]);
  });

  it('other kinds still replace: recliners, then standard seats', () => {
    const kinds = read('recliners for 2 saturday', 'actually standard seats').model.hard.filter(
      (c) => c.kind === 'seatKind',
    );
    expect(kinds).toEqual([{ kind: 'seatKind', seatKind: 'standard' }]);
  });
});
