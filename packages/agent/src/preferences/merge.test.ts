import type { Constraint } from '@usher/booking';
import { describe, expect, it } from 'vitest';
import { merge } from './merge.ts';
import { HOW_MANY } from './questions.ts';
import { read } from './testing.ts';
import type { Mode, Op, PreferenceModel, Strength } from './types.ts';

const EMPTY: PreferenceModel = { hard: [], soft: [] };
let at = 0;
const set = (constraint: Constraint, strength: Strength = 'hard', mode: Mode = 'replace', rank = 1): Op => ({
  type: 'set',
  constraint,
  strength,
  mode,
  perTicket: false,
  at: at++,
  rank,
});

describe('merge', () => {
  it('replaces a kind whole, in whichever list it was', () => {
    const before: PreferenceModel = { hard: [], soft: [{ kind: 'date', dates: ['2026-11-21'] }] };
    expect(merge(before, [set({ kind: 'distance', maxKm: 3 }), set({ kind: 'distance', maxKm: 5 }, 'soft')])).toEqual({
      hard: [],
      soft: [
        { kind: 'date', dates: ['2026-11-21'] },
        { kind: 'distance', maxKm: 5 },
      ],
    });
  });

  it('replaces positives, accumulates refusals, and moves a value between sides', () => {
    let model = merge(EMPTY, [
      set({ kind: 'genre', include: ['Comedy'] }),
      set({ kind: 'genre', exclude: ['Horror'] }),
    ]);
    model = merge(model, [set({ kind: 'genre', exclude: ['Thriller'] })]);
    expect(model.hard).toEqual([{ kind: 'genre', include: ['Comedy'], exclude: ['Horror', 'Thriller'] }]);
    model = merge(model, [set({ kind: 'genre', include: ['Horror'] })]);
    expect(model.hard).toEqual([{ kind: 'genre', include: ['Horror'], exclude: ['Thriller'] }]);
  });

  it('keeps each side of a list with the strength it was said with', () => {
    const model = merge(EMPTY, [set({ kind: 'format', is: ['IMAX'] }, 'soft'), set({ kind: 'format', not: ['3D'] })]);
    expect(model).toEqual({ hard: [{ kind: 'format', not: ['3D'] }], soft: [{ kind: 'format', is: ['IMAX'] }] });
  });

  it('applies periods (rank 0) before clock times, whatever their position', () => {
    const clockFirst = set({ kind: 'startTime', after: '20:00', before: '20:00' });
    const period = set({ kind: 'startTime', after: '17:00' }, 'hard', 'replace', 0);
    expect(merge(EMPTY, [clockFirst, period]).hard).toEqual([{ kind: 'startTime', after: '20:00', before: '20:00' }]);
  });

  it('widens a list with a fallback: all acceptable as firmly as the fallback, the old values preferred', () => {
    const before: PreferenceModel = { hard: [{ kind: 'format', is: ['3D'], not: ['IMAX'] }], soft: [] };
    expect(merge(before, [set({ kind: 'format', is: ['Standard'] }, 'hard', 'widen')])).toEqual({
      hard: [{ kind: 'format', is: ['3D', 'Standard'], not: ['IMAX'] }],
      soft: [{ kind: 'format', is: ['3D'] }],
    });
    // With nothing wanted before, the fallback is simply what is wanted.
    expect(merge(EMPTY, [set({ kind: 'format', is: ['Standard'] }, 'hard', 'widen')])).toEqual({
      hard: [{ kind: 'format', is: ['Standard'] }],
      soft: [],
    });
  });

  it('removes a value, and the constraint when nothing is left', () => {
    const before: PreferenceModel = { hard: [{ kind: 'format', is: ['IMAX'] }], soft: [] };
    expect(merge(before, [{ type: 'remove', kind: 'format', value: 'imax', at: 0, rank: 1 }])).toEqual(EMPTY);
  });

  it('never puts a preference in the hard list', () => {
    expect(merge(EMPTY, [set({ kind: 'cheapest' }, 'hard')])).toEqual({ hard: [], soft: [{ kind: 'cheapest' }] });
  });

  it('does not change the model it is given', () => {
    const before: PreferenceModel = { hard: [{ kind: 'seatCount', count: 2 }], soft: [] };
    merge(before, [set({ kind: 'seatCount', count: 4 })]);
    expect(before.hard).toEqual([{ kind: 'seatCount', count: 2 }]);
  });
});

describe('refinement sequences', () => {
  it('changes the day, then the format, then drops the format', () => {
    const steps = ['IMAX, this weekend, after 6pm', 'actually make it Sunday', '3D instead', 'forget the 3D'];
    expect(read(...steps.slice(0, 2)).model.hard).toContainEqual({ kind: 'date', dates: ['2026-11-22'] });
    expect(read(...steps.slice(0, 3)).model.hard).toContainEqual({ kind: 'format', is: ['3D'] });
    const last = read(...steps);
    expect(last.model.hard).toEqual([
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'startTime', after: '18:00' },
    ]);
    expect(last.changed).toEqual(['format']);
  });

  it('moves a wish from soft to hard when it is restated firmly', () => {
    const { model } = read('IMAX if possible', 'IMAX is a must');
    expect(model).toEqual({ hard: [{ kind: 'format', is: ['IMAX'] }], soft: [], questions: [HOW_MANY] });
  });

  it('keeps "tonight"\'s evening when only the day changes', () => {
    expect(read('tonight', 'actually tomorrow').model.hard).toEqual([
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'startTime', after: '17:00' },
    ]);
  });

  it('widens the format wanted when a later message says another will do', () => {
    expect(read('3D please, 2 tickets', 'regular is fine too').model).toEqual({
      hard: [
        { kind: 'seatCount', count: 2 },
        { kind: 'format', is: ['3D', 'Standard'] },
      ],
      soft: [{ kind: 'format', is: ['3D'] }],
    });
  });

  it('narrows a title choice, then swaps it', () => {
    expect(read('Orbital Drift or Night Ledger', 'Night Ledger instead').model.hard).toEqual([
      { kind: 'title', is: ['Night Ledger'] },
    ]);
  });

  it('loosens with "no preference on time" and tightens again', () => {
    const { model } = read('around 7pm, done by 10', 'no preference on time', 'before 9 then');
    expect(model.hard).toEqual([{ kind: 'startTime', before: '21:00' }]);
  });
});

describe('a change of mind said politely', () => {
  it('replaces a firm wish with a firm one ("we\'d prefer riverside actually")', () => {
    const m = read(
      '2 tickets for orbital drift at Riverside IMAX on saturday',
      "oh, we'd prefer Lumen Arthouse actually",
    ).model;
    expect(m.hard).toContainEqual({ kind: 'theater', is: ['Lumen Arthouse'] });
    expect(m.soft.some((c) => c.kind === 'theater')).toBe(false);
  });

  it('leaves a preference soft when nothing firm was held or no mind is changed', () => {
    expect(read('2 tickets for orbital drift saturday', "we'd prefer Lumen Arthouse").model.soft).toContainEqual({
      kind: 'theater',
      is: ['Lumen Arthouse'],
    });
  });
});
