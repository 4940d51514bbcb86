import { describe, expect, it } from 'vitest';
import { decideStage } from './decide.ts';
import { engineAt, model, ORBITAL_SUNDAY, specOf } from './testing.ts';

/*
 * Unknown is not none: a fact a stage does not show (seats left on a showtime, a film's rating or
 * genres, a theater's distance) is left to a later stage that shows it, never read as zero or none.
 */

/** The spec with every item (listed and visible) stripped of `keys`, as a host that does not show them. */
function without(spec: ReturnType<typeof specOf>, keys: readonly string[]) {
  const strip = (item: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(item).filter(([k]) => !keys.includes(k)));
  return {
    ...spec,
    items: spec.items.map(strip),
    visibleItems: spec.visibleItems.map(strip),
  } as typeof spec;
}

describe('what a stage does not show', () => {
  it('a showtime without seats left is an option for a party of five (the seat map decides)', () => {
    const spec = without(specOf(engineAt(ORBITAL_SUNDAY)), ['seatsLeft']);
    const decision = decideStage(spec, model([{ kind: 'seatCount', count: 5 }]));
    expect(decision.kind).toBe('options');
    if (decision.kind === 'options') expect(decision.options.length).toBe(spec.visibleItems.length);
  });

  it('a film without a rating or genres is not below the rating or outside the genre wished for', () => {
    const spec = without(specOf(engineAt([])), ['rating', 'genres']);
    for (const wish of [
      { kind: 'rating' as const, min: 8 },
      { kind: 'genre' as const, include: ['comedy'] },
    ]) {
      const decision = decideStage(spec, model([wish]));
      expect(decision.kind, JSON.stringify(wish)).toBe('options');
    }
  });

  it('a theater without a distance is not beyond the distance wished for', () => {
    const spec = without(specOf(engineAt(['m-orbital-drift'])), ['distanceKm']);
    expect(decideStage(spec, model([{ kind: 'distance', maxKm: 1 }])).kind).toBe('options');
  });

  it('a rating the stage does show still rules a film out, and the reason names what there is', () => {
    const spec = specOf(engineAt([]));
    const decision = decideStage(spec, model([{ kind: 'rating', min: 9.9 }]));
    expect(decision.kind).toBe('dead-end');
    if (decision.kind === 'dead-end') expect(decision.summary).toMatch(/the highest rating is \d/);
  });
});
