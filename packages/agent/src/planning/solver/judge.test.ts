import { BookingEngine, checkBooking, type HardConstraint, type SubmittedBooking } from '@usher/booking';
import type { Stage, UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { JUDGED_AT, judgeBooking, judgeOption } from './judge.ts';
import { scenario } from './testing.ts';

/** Books one showing with one free seat and one adult ticket, keeping the spec of every stage. */
function book(showingId: string): { specs: Partial<Record<Stage, UiSpec>>; booking: SubmittedBooking } {
  const showing = scenario.showings.find((s) => s.id === showingId);
  if (!showing) throw new Error(`no showing ${showingId}`);
  const engine = new BookingEngine(scenario);
  const specs: Partial<Record<Stage, UiSpec>> = {};
  const go = (tool: string, params: Record<string, unknown> = {}) => engine.apply(tool, params, 'participant');
  const keep = () => {
    const spec = engine.view().uiSpec;
    if (spec) specs[spec.stage] = spec;
    return spec;
  };
  for (const itemId of [showing.movieId, showing.theaterId, showing.date, showing.id]) {
    keep();
    go('select', { itemId });
    go('next');
  }
  const seat = keep()?.visibleItems.find((i) => !i.isDisabled);
  go('select', { itemId: seat?.id });
  go('next');
  keep();
  go('setQuantity', { typeId: 'adult', quantity: 1 });
  go('next');
  keep();
  go('next');
  const booking = engine.submitted();
  if (!booking) throw new Error('not submitted');
  return { specs, booking };
}

const CONSTRAINTS: HardConstraint[] = [
  { kind: 'title', is: ['orbital drift'] },
  { kind: 'title', not: ['m-orbital-drift'] },
  { kind: 'title', is: ['Paper Lanterns', 'Encore'] },
  { kind: 'genre', include: ['thriller'] },
  { kind: 'genre', exclude: ['Drama'] },
  { kind: 'genre', include: ['Comedy'], exclude: ['Romance'] },
  { kind: 'rating', min: 7.6 },
  { kind: 'rating', min: 8.3 },
  { kind: 'ageRating', allowed: ['PG', 'G'] },
  { kind: 'ageRating', allowed: ['PG-13'] },
  { kind: 'distance', maxKm: 4.2 },
  { kind: 'distance', maxKm: 1 },
  { kind: 'theater', is: ['Riverside IMAX'] },
  { kind: 'theater', is: ['starlight', 't-grand'] },
  { kind: 'theater', not: ['The Lumen Arthouse'] },
  { kind: 'theater', is: ['Riverside Cinema'] },
  { kind: 'date', dates: ['2026-11-22'] },
  { kind: 'date', dates: ['2026-11-21', '2026-11-27'] },
  { kind: 'startTime', after: '19:30' },
  { kind: 'startTime', before: '14:10' },
  { kind: 'startTime', after: '13:00', before: '17:00' },
  { kind: 'endTime', before: '22:00' },
  { kind: 'endTime', before: '25:30' },
  { kind: 'endTime', after: '23:00' },
  { kind: 'format', is: ['IMAX'] },
  { kind: 'format', not: ['Standard'] },
  { kind: 'format', is: ['Standard', '3D'], not: ['3D'] },
  { kind: 'seatCount', count: 1 },
  { kind: 'seatCount', count: 2 },
  { kind: 'ticketMix', adult: 1 },
  { kind: 'ticketMix', adult: 1, child: 1 },
  { kind: 'price', maxTotal: 14.5 },
  { kind: 'price', maxTotal: 19.49 },
];

// Every Orbital Drift showing on Sunday (one past midnight) and the first showing of every movie.
const SHOWINGS = [
  ...scenario.showings.filter((s) => s.movieId === 'm-orbital-drift' && s.date === '2026-11-22').map((s) => s.id),
  ...scenario.movies.flatMap((m) => scenario.showings.find((s) => s.movieId === m.id)?.id ?? []),
];

describe('the per-stage judgement agrees with the story checker', () => {
  it.each(SHOWINGS)('on showing %s', (showingId) => {
    const { specs, booking } = book(showingId);
    const chosen: Partial<Record<Stage, string>> = {
      movie: booking.movieId,
      theater: booking.theaterId,
      date: booking.date,
      time: booking.showingId,
    };
    for (const c of CONSTRAINTS) {
      const checker = checkBooking(scenario, booking, { text: 'x', hard: [c], soft: [] }).hard[0]?.ok;
      for (const stage of ['movie', 'theater', 'date', 'time'] as const) {
        if (!JUDGED_AT[stage].includes(c.kind)) continue;
        // At the time stage seatCount and ticketMix mean "enough seats left", which the checker does not judge.
        if (stage === 'time' && (c.kind === 'seatCount' || c.kind === 'ticketMix')) continue;
        const item = specs[stage]?.items.find((i) => i.id === chosen[stage]);
        expect(item && judgeOption(stage, c, item)?.ok, `${stage} ${JSON.stringify(c)}`).toBe(checker);
      }
      const summary = specs.confirm?.state.booking;
      const atConfirm = summary && judgeBooking(c, summary);
      if (atConfirm) expect(atConfirm.ok, `confirm ${JSON.stringify(c)}`).toBe(checker);
    }
  });
});
