import { describe, expect, it } from 'vitest';
import { ConstraintSchema, StorySchema, theaterNamed } from './constraints.ts';

describe('story constraints', () => {
  it('accepts preferences only as soft constraints', () => {
    expect(StorySchema.safeParse({ text: 'x', soft: [{ kind: 'cheapest' }] }).success).toBe(true);
    expect(StorySchema.safeParse({ text: 'x', hard: [{ kind: 'cheapest' }] }).success).toBe(false);
  });

  it('accepts the middle of the row as a hard constraint, unlike the soft-only centred preference', () => {
    expect(StorySchema.safeParse({ text: 'x', hard: [{ kind: 'rowMiddle' }] }).success).toBe(true);
    expect(StorySchema.safeParse({ text: 'x', hard: [{ kind: 'centered' }] }).success).toBe(false);
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
    expect(ConstraintSchema.safeParse({ kind: 'rowMiddle', half: 2 }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'endTime', before: '7pm' }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'endTime', before: '25:30' }).success).toBe(true);
    expect(ConstraintSchema.safeParse({ kind: 'seatKind', seatKind: 'balcony' }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'theater' }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'theater', is: [''] }).success).toBe(false);
    expect(ConstraintSchema.safeParse({ kind: 'theater', not: ['Starlight Multiplex'] }).success).toBe(true);
  });

  it('names a theater by id, whole name or the words of a shorter name', () => {
    const regent = { id: 't-regent', name: 'The Regent' };
    expect(theaterNamed(regent, 'T-REGENT')).toBe(true);
    expect(theaterNamed(regent, 'the regent')).toBe(true);
    expect(theaterNamed(regent, 'Regent')).toBe(true);
    expect(theaterNamed(regent, 'The')).toBe(false);
    expect(theaterNamed(regent, 'Regent Cinema')).toBe(false);
    expect(theaterNamed({ id: 't-grand', name: 'Grand Central Cinema' }, 'Grand Central')).toBe(true);
  });
});
