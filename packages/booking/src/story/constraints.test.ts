import { describe, expect, it } from 'vitest';
import { ConstraintSchema, StorySchema } from './constraints.ts';

describe('story constraints', () => {
  it('accepts preferences only as soft constraints', () => {
    expect(StorySchema.safeParse({ text: 'x', soft: [{ kind: 'cheapest' }] }).success).toBe(true);
    expect(StorySchema.safeParse({ text: 'x', hard: [{ kind: 'cheapest' }] }).success).toBe(false);
  });

  it('defaults hard and soft to empty lists', () => {
    expect(StorySchema.parse({ text: 'A film tonight' })).toEqual({ text: 'A film tonight', hard: [], soft: [] });
  });

  it('refuses a bounded constraint without bounds, unknown keys and bad times', () => {
    expect(ConstraintSchema.safeParse({ kind: 'startTime' }).error?.issues[0]?.message).toBe(
      'give at least one of after, before',
    );
    expect(ConstraintSchema.safeParse({ kind: 'ticketMix' }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'adjacent', strict: true }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'endTime', before: '7pm' }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'endTime', before: '25:30' }).success).toBe(true);
    expect(ConstraintSchema.safeParse({ kind: 'seatKind', seatKind: 'balcony' }).success).toBe(false);
  });
});
