import { describe, expect, it } from 'vitest';
import { Catalog } from '../scenario/catalog.ts';
import { defaultScenario } from '../scenario/default.ts';
import { driveTo, newEngine, spec } from '../testing/helpers.ts';
import { bookingFromSummary } from './booking.ts';

describe('bookingFromSummary', () => {
  it('makes from the confirm stage’s summary the booking the engine submits, and nothing from one that does not fit', () => {
    const engine = driveTo(newEngine(), 'confirm');
    const summary = spec(engine).state.booking;
    const catalog = new Catalog(defaultScenario());
    const rebuilt = bookingFromSummary(catalog, summary);
    engine.apply('next', {}, 'participant');
    const { reference: _submitted, ...submitted } = engine.submitted() ?? { reference: '' };
    const { reference: _rebuilt, ...fromSummary } = rebuilt ?? { reference: '' };
    expect(fromSummary).toEqual(submitted);

    const wrong = (change: object) => bookingFromSummary(catalog, { ...summary, ...change });
    expect(wrong({ seats: ['Z99'] })).toBeNull();
    expect(wrong({ theater: { id: 'elsewhere', name: 'Elsewhere' } })).toBeNull();
    expect(wrong({ tickets: [{ typeId: 'pirate', label: 'Pirate', quantity: 1, unitPrice: 1 }] })).toBeNull();
    expect(bookingFromSummary(catalog, { movie: summary?.movie })).toBeNull();
    expect(bookingFromSummary(catalog, 'not a summary')).toBeNull();
  });
});
