import { ConstraintSchema, HardConstraintSchema } from '@usher/booking';
import { describe, expect, it } from 'vitest';
import { byKind, isHardConstraint, KIND_ORDER, PREFERENCE_KINDS } from './kinds.ts';

describe('kinds', () => {
  it('orders every kind the booking model has, exactly once', () => {
    const all = ConstraintSchema.options.map((o) => o.shape.kind.value).sort();
    expect([...KIND_ORDER].sort()).toEqual(all);
  });

  it('knows which kinds a story may not list as hard', () => {
    const hardKinds = HardConstraintSchema.options.map((o) => o.shape.kind.value);
    for (const kind of PREFERENCE_KINDS) expect(hardKinds).not.toContain(kind);
    expect(isHardConstraint({ kind: 'closest' })).toBe(false);
    expect(isHardConstraint({ kind: 'adjacent' })).toBe(true);
  });

  it('sorts by kind and keeps the order within a kind', () => {
    const sorted = byKind([
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'seatCount', count: 2 },
      { kind: 'date', dates: ['2026-11-21'] },
    ]);
    expect(sorted.map((c) => (c.kind === 'date' ? c.dates[0] : c.kind))).toEqual([
      'seatCount',
      '2026-11-22',
      '2026-11-21',
    ]);
  });
});
