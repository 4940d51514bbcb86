import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/default.ts';
import { driveTo, fixedClock, newEngine, spec } from '../testing/helpers.ts';
import { BookingEngine } from './engine.ts';
import { SnapshotError } from './state.ts';

describe('toJSON / restore', () => {
  it('round-trips mid-booking: same view, same backendData, and it carries on identically', () => {
    const engine = driveTo(newEngine(), 'ticket');
    engine.addMessage('participant', 'two adults');
    engine.apply('setQuantity', { typeId: 'adult', quantity: 1 }, 'participant');
    engine.apply('highlight', { itemIds: ['adult'] }, 'agent');
    const json = JSON.parse(JSON.stringify(engine.toJSON()));
    const restored = BookingEngine.restore(defaultScenario(), json, { now: fixedClock() });
    expect(restored.view()).toEqual(engine.view());
    expect(restored.backendData()).toEqual(engine.backendData());
    expect(restored.toJSON()).toEqual(engine.toJSON());
    for (const e of [engine, restored]) {
      e.apply('setQuantity', { typeId: 'adult', quantity: 2 }, 'participant');
      e.apply('next', {}, 'participant');
      e.apply('next', {}, 'participant');
    }
    expect(restored.submitted()).toEqual(engine.submitted());
    expect(restored.view().messageHistory.map((m) => m.id)).toEqual(['msg-1', 'msg-2']);
  });

  it('round-trips after the submit', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.apply('next', {}, 'agent');
    const restored = BookingEngine.restore(defaultScenario(), engine.toJSON());
    expect(restored.view().uiSpec).toBeNull();
    expect(restored.submitted()).toEqual(engine.submitted());
  });

  it('the snapshot is a copy', () => {
    const engine = driveTo(newEngine(), 'seat');
    const snap = engine.toJSON();
    snap.selections.seats.push('A1');
    expect(spec(engine).state.selectedList).toEqual([]);
  });

  it('refuses a snapshot of another scenario, a malformed one, or one with unknown records', () => {
    const snap = driveTo(newEngine(), 'seat').toJSON();
    const other = { ...defaultScenario(), id: 'other' };
    expect(() => BookingEngine.restore(other, snap)).toThrow(SnapshotError);
    expect(() => BookingEngine.restore(defaultScenario(), { ...snap, stage: 'lobby' })).toThrow(/snapshot\.stage/);
    const dangling = { ...snap, selections: { ...snap.selections, showingId: 'sh-gone' } };
    expect(() => BookingEngine.restore(defaultScenario(), dangling)).toThrow(/records the scenario does not have/);
  });
});

describe('backendData', () => {
  it('holds the raw records of the stage and a price quote', () => {
    const engine = driveTo(newEngine(), 'confirm');
    expect(engine.backendData()).toMatchObject({
      stage: 'confirm',
      showing: { id: 'sh-riverside-1121-1300', takenSeats: expect.any(Array) },
      movie: { internal: { distributorCode: expect.stringMatching(/^DST-/) } },
      pricing: { quote: { format: 'IMAX', formatSurchargePerTicket: 5, total: 39 } },
    });
    expect(Object.keys(driveTo(newEngine(), 'seat').backendData() ?? {})).toContain('seatMap');
  });
});
