import type { UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { decideStage } from './decide.ts';
import { MAX_SEAT_SETS } from './decide-seats.ts';
import { engineAt, model, ORBITAL_1930, ORBITAL_SUNDAY, specOf } from './testing.ts';
import type { RankedSeats, StageDecision } from './types.ts';

// Riverside IMAX: rows A–L (12), 18 seats a row, aisles after 4 and 14; premium rows G–J;
// wheelchair spaces E1, E2, E17, E18.
const seatStage = (selected: string[] = []): UiSpec => specOf(engineAt([...ORBITAL_SUNDAY, ORBITAL_1930], selected));

function sets(decision: StageDecision): RankedSeats[] {
  if (decision.kind !== 'seats') throw new Error(`expected seats, got ${JSON.stringify(decision)}`);
  return decision.options;
}

function deadEnd(decision: StageDecision) {
  if (decision.kind !== 'dead-end') throw new Error(`expected a dead-end, got ${JSON.stringify(decision)}`);
  return decision;
}

const seat = (spec: UiSpec, id: string) => {
  const item = spec.items.find((i) => i.id === id);
  if (!item) throw new Error(`no seat ${id}`);
  return { row: item.row as string, rowIndex: item.rowIndex as number, number: item.number as number, kind: item.kind };
};

describe('seat sets', () => {
  it('offers runs side by side of the required size, free, never across an aisle, best first', () => {
    const spec = seatStage();
    const found = sets(decideStage(spec, model([{ kind: 'seatCount', count: 3 }, { kind: 'adjacent' }])));
    expect(found.length).toBe(MAX_SEAT_SETS);
    for (const set of found) {
      const seats = set.seatIds.map((id) => seat(spec, id));
      expect(new Set(seats.map((s) => s.row)).size).toBe(1);
      const numbers = seats.map((s) => s.number);
      expect(numbers).toEqual([numbers[0], (numbers[0] ?? 0) + 1, (numbers[0] ?? 0) + 2]);
      expect(numbers.slice(0, -1).some((n) => n === 4 || n === 14)).toBe(false);
      for (const id of set.seatIds) expect(spec.items.find((i) => i.id === id)?.isDisabled).toBe(false);
    }
    const scores = found.map((s) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('takes "the last two rows" of whichever room it is (Riverside IMAX: K and L)', () => {
    const spec = seatStage();
    const back = sets(
      decideStage(
        spec,
        model([
          { kind: 'seatCount', count: 3 },
          { kind: 'rows', last: 2 },
        ]),
      ),
    );
    expect(back.length).toBeGreaterThan(0);
    for (const set of back) for (const id of set.seatIds) expect(['K', 'L']).toContain(seat(spec, id).row);
  });

  it('honours rows and seat kinds', () => {
    const spec = seatStage();
    const premium = sets(
      decideStage(
        spec,
        model([
          { kind: 'seatCount', count: 2 },
          { kind: 'rows', notFirst: 3, notLast: 3 },
          { kind: 'seatKind', seatKind: 'premium' },
        ]),
      ),
    );
    for (const set of premium) {
      for (const id of set.seatIds) {
        expect(seat(spec, id).kind).toBe('premium');
        expect(seat(spec, id).rowIndex).toBeGreaterThanOrEqual(3);
        expect(seat(spec, id).rowIndex).toBeLessThanOrEqual(8);
      }
    }
    const wheelchair = sets(
      decideStage(
        spec,
        model([
          { kind: 'seatCount', count: 2 },
          { kind: 'adjacent' },
          { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
        ]),
      ),
    );
    for (const set of wheelchair) expect(set.seatIds.some((id) => seat(spec, id).kind === 'wheelchair')).toBe(true);
  });

  it('without a wish picks one central seat; a party is kept together by default', () => {
    const spec = seatStage();
    const single = sets(decideStage(spec, model([])))[0];
    expect(single?.seatIds).toHaveLength(1);
    expect(seat(spec, single?.seatIds[0] ?? '').rowIndex).toBeGreaterThan(2);
    const pair = sets(decideStage(spec, model([{ kind: 'seatCount', count: 2 }])))[0];
    const [a, b] = (pair?.seatIds ?? []).map((id) => seat(spec, id));
    expect(a?.row).toBe(b?.row);
    expect(Math.abs((a?.number ?? 0) - (b?.number ?? 0))).toBe(1);
  });

  it('spends nothing on premium seats nobody asked for, but takes them when asked', () => {
    const spec = seatStage();
    const kindsOf = (decision: StageDecision) => (sets(decision)[0]?.seatIds ?? []).map((id) => seat(spec, id).kind);
    expect(kindsOf(decideStage(spec, model([{ kind: 'seatCount', count: 2 }])))).toEqual(['standard', 'standard']);
    expect(kindsOf(decideStage(spec, model([{ kind: 'seatCount', count: 2 }], [{ kind: 'centered' }])))).toEqual([
      'premium',
      'premium',
    ]);
    const asked = model([{ kind: 'seatCount', count: 2 }], [{ kind: 'seatKind', seatKind: 'premium' }]);
    expect(kindsOf(decideStage(spec, asked))).toEqual(['premium', 'premium']);
  });

  it('keeps the seats the participant chose and lists only the missing ones to select', () => {
    const found = sets(decideStage(seatStage(['C5']), model([{ kind: 'seatCount', count: 2 }, { kind: 'adjacent' }])));
    // C4 is across the aisle after seat 4, so C5 can only pair with C6.
    expect(found.map((s) => s.seatIds)).toEqual([['C5', 'C6']]);
    expect(found[0]?.toSelect).toEqual(['C6']);
    for (const set of found) {
      expect(set.seatIds).toContain('C5');
      expect(set.toSelect).not.toContain('C5');
      expect(set.reason).toContain('keeps your C5');
    }
  });
});

describe('seat dead-ends', () => {
  it('when the participant’s own seat breaks a row wish', () => {
    const end = deadEnd(decideStage(seatStage(['C5']), model([{ kind: 'rows', notFirst: 3 }])));
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['rows']);
    expect(end.failing[0]?.detail).toBe('you selected C5 (row C), but you want seats not in the first 3 rows');
    // Going back a stage would throw the participant's seat away: this is for them to settle here.
    expect(end.backTo).toBe('seat');
  });

  it('when the participant’s seats cannot sit together', () => {
    const end = deadEnd(
      decideStage(seatStage(['C5', 'D8']), model([{ kind: 'seatCount', count: 2 }, { kind: 'adjacent' }])),
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['adjacent']);
    expect(end.failing[0]?.detail).toBe('your seats C5, D8 are not side by side');
  });

  it('when the participant chose more seats than wanted', () => {
    const end = deadEnd(decideStage(seatStage(['C5', 'C6']), model([{ kind: 'seatCount', count: 1 }])));
    expect(end.failing[0]?.detail).toContain('you already selected 2 seats (C5, C6); the booking needs exactly 1');
  });

  it('when no run side by side is long enough', () => {
    // Riverside's longest run between aisles is seats 5–14: ten.
    const end = deadEnd(decideStage(seatStage(), model([{ kind: 'ticketMix', adult: 11 }, { kind: 'adjacent' }])));
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['ticketMix']);
    expect(end.summary).toContain('at most 10 per booking');
    const grand = specOf(engineAt(['m-paper-lanterns', 't-grand', '2026-11-22', 'sh-grand-1122-1030']));
    // Grand Central: aisles after 3 and 11, so at most 8 side by side.
    const nine = deadEnd(decideStage(grand, model([{ kind: 'seatCount', count: 9 }, { kind: 'adjacent' }])));
    expect(nine.failing.map((f) => f.constraint.kind)).toContain('adjacent');
    expect(nine.summary).toMatch(/^No 9 seats side by side: the longest run of free seats side by side is 8/);
  });

  it('when runs side by side exist but none holds the wanted seat kind', () => {
    // E1's neighbour E2 is taken already; take E16 and E18 too, so no wheelchair space has a free neighbour.
    const spec = seatStage();
    for (const item of [...spec.items, ...spec.visibleItems]) {
      if (item.id === 'E16' || item.id === 'E18') Object.assign(item, { isDisabled: true, taken: true });
    }
    const end = deadEnd(
      decideStage(
        spec,
        model([
          { kind: 'seatCount', count: 2 },
          { kind: 'adjacent' },
          { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
        ]),
      ),
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['adjacent', 'seatKind']);
    expect(end.summary).toBe(
      'No 2 seats side by side, with at least 1 wheelchair: no 2 free seats side by side include 1 wheelchair.',
    );
  });

  it('when seat count and ticket mix disagree', () => {
    const end = deadEnd(
      decideStage(
        seatStage(),
        model([
          { kind: 'seatCount', count: 2 },
          { kind: 'ticketMix', adult: 2, child: 1 },
        ]),
      ),
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['seatCount', 'ticketMix']);
    expect(end.summary).toContain('every seat takes one ticket');
  });

  it('when too few seats of a kind are free', () => {
    const end = deadEnd(
      decideStage(
        seatStage(),
        model([
          { kind: 'seatCount', count: 2 },
          { kind: 'seatKind', seatKind: 'wheelchair', count: 5 },
        ]),
      ),
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['seatKind']);
    expect(end.failing[0]?.detail).toMatch(/^only \d wheelchair seats? (is|are) free; you want at least 5$/);
  });
});

describe('the middle of the row, not at either end (rowMiddle)', () => {
  // Riverside has 18 seats a row: the middle half is seats 6–13.
  const middle = (id: string) => /^[A-Z]+(?:[6-9]|1[0-3])$/.test(id);

  it('rules out every seat near an end of its row', () => {
    const spec = seatStage();
    const eight = sets(
      decideStage(spec, model([{ kind: 'seatCount', count: 8 }, { kind: 'adjacent' }, { kind: 'rowMiddle' }])),
    );
    expect(eight.length).toBeGreaterThan(0);
    for (const set of eight)
      expect(set.seatIds.map((id) => seat(spec, id).number)).toEqual([6, 7, 8, 9, 10, 11, 12, 13]);
    const apart = sets(decideStage(spec, model([{ kind: 'seatCount', count: 3 }, { kind: 'rowMiddle' }])));
    for (const set of apart) expect(set.seatIds.every(middle)).toBe(true);
    expect(apart[0]?.reason).toContain('in the middle of the row as wanted');
  });

  it('declines a wheelchair space when every one is at an end of its row, and says so', () => {
    const end = deadEnd(
      decideStage(
        seatStage(),
        model([
          { kind: 'seatCount', count: 1 },
          { kind: 'rowMiddle' },
          { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
        ]),
      ),
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['rowMiddle', 'seatKind']);
    // E2 is taken at 19:30.
    expect(end.failing[0]?.detail).toBe(
      'no free wheelchair space is in the middle of a row: the free ones are E1, E17, E18, all at or near an end (the middle is seats 6–13 of 18)',
    );
    expect(end.summary).toMatch(
      /^No 1 seat in the middle of the row, with at least 1 wheelchair: no free wheelchair space/,
    );
  });

  it('says when too few seats in the middle are free for the party', () => {
    const spec = seatStage();
    const kept = spec.visibleItems.find((i) => middle(i.id) && !i.isDisabled)?.id;
    for (const item of [...spec.items, ...spec.visibleItems]) {
      if (middle(item.id) && item.id !== kept) Object.assign(item, { isDisabled: true, taken: true });
    }
    const end = deadEnd(decideStage(spec, model([{ kind: 'seatCount', count: 2 }, { kind: 'rowMiddle' }])));
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['rowMiddle']);
    expect(end.failing[0]?.detail).toBe(
      'only 1 free seat in the middle of a row (the middle is seats 6–13 of 18); you need 2',
    );
  });

  it('names the participant’s own seat near an end, to settle on this stage', () => {
    const end = deadEnd(decideStage(seatStage(['C3']), model([{ kind: 'rowMiddle' }])));
    expect(end.failing[0]?.detail).toBe('you selected C3 (seat 3 of 18), but you want seats in the middle of the row');
    expect(end.backTo).toBe('seat');
  });
});

describe('seats chosen before a wish about them', () => {
  /** The confirm stage after seats `ids` were chosen, and the seat map they were chosen on. */
  function afterSeats(ids: string[]) {
    const engine = engineAt([...ORBITAL_SUNDAY, ORBITAL_1930], ids);
    const seatMap = specOf(engine);
    engine.apply('next', {}, 'participant');
    engine.apply('setQuantity', { typeId: 'adult', quantity: ids.length }, 'participant');
    engine.apply('next', {}, 'participant');
    return { confirm: specOf(engine), seatMap };
  }

  it('sends the booking back to the seat stage when a later wish rules out their row', () => {
    const { confirm, seatMap } = afterSeats(['D7', 'D8']);
    expect(confirm.stage).toBe('confirm');
    const wishes = model([
      { kind: 'seatCount', count: 2 },
      { kind: 'rows', notFirst: 4 },
    ]);
    const decision = deadEnd(decideStage(confirm, wishes, { seatMap }));
    expect(decision.backTo).toBe('seat');
    expect(decision.summary).toContain('D7, D8');
    // Seats out of the first four rows pass.
    const fine = afterSeats(['G9', 'G10']);
    expect(decideStage(fine.confirm, wishes, { seatMap: fine.seatMap }).kind).toBe('confirm');
  });

  it('sends it back when the seats are not of a kind wished for after, or not side by side', () => {
    const { confirm, seatMap } = afterSeats(['E14', 'E16']);
    const premium = model([
      { kind: 'seatCount', count: 2 },
      { kind: 'seatKind', seatKind: 'premium' },
    ]);
    expect(deadEnd(decideStage(confirm, premium, { seatMap })).backTo).toBe('seat');
    const together = model([{ kind: 'seatCount', count: 2 }, { kind: 'adjacent' }]);
    expect(deadEnd(decideStage(confirm, together, { seatMap })).backTo).toBe('seat');
    const mid = model([{ kind: 'seatCount', count: 2 }, { kind: 'rowMiddle' }]);
    const decision = deadEnd(decideStage(confirm, mid, { seatMap }));
    expect(decision.backTo).toBe('seat');
    expect(decision.summary).toContain('seat E14, E16 is not in the middle of its row');
    const fine = afterSeats(['G9', 'G10']);
    expect(decideStage(fine.confirm, mid, { seatMap: fine.seatMap }).kind).toBe('confirm');
    // Without the seat map (another host's agent that never saw the seats), nothing is judged.
    expect(decideStage(confirm, together).kind).toBe('confirm');
  });

  it('sends it back to the seats when the party changed after them, and to the tickets when only the mix did', () => {
    // Four adults' seats and tickets, then "two of them can't come, it's me and my daughter".
    const { confirm } = afterSeats(['G7', 'G8', 'G9', 'G10']);
    const smaller = model([
      { kind: 'seatCount', count: 2 },
      { kind: 'ticketMix', adult: 1, child: 1 },
    ]);
    const fewer = deadEnd(decideStage(confirm, smaller));
    expect(fewer.backTo).toBe('seat');
    expect(fewer.summary).toContain('4 seats chosen, you want 2');
    // Two seats, two adults' tickets, then "she's 5": the seats stand, the tickets change.
    const two = afterSeats(['G9', 'G10']);
    const child = model([
      { kind: 'seatCount', count: 2 },
      { kind: 'ticketMix', adult: 1, child: 1 },
    ]);
    expect(deadEnd(decideStage(two.confirm, child)).backTo).toBe('ticket');
    // A wish of another kind failing beside them is not the party's to fix.
    const dearer = model([
      { kind: 'seatCount', count: 2 },
      { kind: 'price', maxTotal: 1 },
    ]);
    expect(deadEnd(decideStage(confirm, dearer)).backTo).toBeUndefined();
  });
});

describe('a price limit on seats priced one by one (a host without a ticket stage)', () => {
  // The prototype's seats carry their own price; Usher's carry a surcharge only.
  const priced = (price: (kind: unknown) => number): UiSpec => {
    const spec = seatStage();
    const withPrice = (i: UiSpec['items'][number]) => ({ ...i, price: price(i.kind) });
    return { ...spec, items: spec.items.map(withPrice), visibleItems: spec.visibleItems.map(withPrice) };
  };
  const wish = (maxTotal: number) =>
    model([{ kind: 'seatCount', count: 2 }, { kind: 'adjacent' }, { kind: 'price', maxTotal }]);

  it('is a dead end naming the limit when even the cheapest seats that fit cost more', () => {
    const found = deadEnd(
      decideStage(
        priced(() => 19.5),
        wish(20),
      ),
    );
    expect(found.failing.map((f) => f.constraint.kind)).toEqual(['price']);
    expect(found.summary).toMatch(/cheapest 2 seats that fit here cost 39\.00 USD, over your limit of 20\.00 USD/);
  });

  it('offers the seats when the cheapest fit, and says nothing of prices a map does not show', () => {
    expect(
      sets(
        decideStage(
          priced((kind) => (kind === 'premium' ? 30 : 9.5)),
          wish(20),
        ),
      ).length,
    ).toBeGreaterThan(0);
    expect(sets(decideStage(seatStage(), wish(1))).length).toBeGreaterThan(0);
  });
});
