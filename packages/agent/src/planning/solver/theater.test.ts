import type { Item } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { decideStage } from './decide.ts';
import { engineAt, model, ORBITAL_1930, ORBITAL_SUNDAY, specOf } from './testing.ts';
import type { StageDecision } from './types.ts';

/* A named theater ("at Riverside IMAX", "not at Starlight Multiplex") on the stages that show it. */

const ids = (decision: StageDecision) => (decision.kind === 'options' ? decision.options.map((o) => o.itemId) : []);

function deadEnd(decision: StageDecision) {
  if (decision.kind !== 'dead-end') throw new Error(`expected a dead-end, got ${JSON.stringify(decision)}`);
  return decision;
}

// Orbital Drift shows at Riverside IMAX and Starlight Multiplex only.
const theaters = () => specOf(engineAt(['m-orbital-drift']));

/** The confirm stage of Orbital Drift at Riverside IMAX, Sun 22 Nov 19:30, two free seats, two adults. */
function atConfirm() {
  const free = specOf(engineAt([...ORBITAL_SUNDAY, ORBITAL_1930]))
    .items.filter((i) => !i.isDisabled)
    .slice(0, 2)
    .map((i) => i.id);
  const engine = engineAt([...ORBITAL_SUNDAY, ORBITAL_1930], free);
  engine.apply('next', {}, 'participant');
  engine.apply('setQuantity', { typeId: 'adult', quantity: 2 }, 'participant');
  engine.apply('next', {}, 'participant');
  return specOf(engine);
}

describe('a named theater', () => {
  it('keeps only that theater, by its full name or a shorter one', () => {
    expect(ids(decideStage(theaters(), model([{ kind: 'theater', is: ['Starlight Multiplex'] }])))).toEqual([
      't-starlight',
    ]);
    const short = decideStage(theaters(), model([{ kind: 'theater', is: ['riverside'] }]));
    expect(ids(short)).toEqual(['t-riverside']);
    expect(short.kind === 'options' && short.options[0]?.reason).toBe('Riverside IMAX: the theater you asked for');
  });

  it('drops a theater ruled out, and ranks a soft one first', () => {
    expect(ids(decideStage(theaters(), model([{ kind: 'theater', not: ['Riverside IMAX'] }])))).toEqual([
      't-starlight',
    ]);
    const soft = decideStage(theaters(), model([], [{ kind: 'theater', is: ['Starlight Multiplex'] }]));
    expect(ids(soft)).toEqual(['t-starlight', 't-riverside']);
  });

  it('is a dead-end naming the theaters there are when the name matches none of them', () => {
    const end = deadEnd(decideStage(theaters(), model([{ kind: 'theater', is: ['Lumen Arthouse'] }])));
    expect(end.summary).toBe(
      'No theater showing Orbital Drift at Lumen Arthouse: the theaters on offer are Riverside IMAX and Starlight Multiplex.',
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['theater']);
  });

  it('says which theaters another wish leaves when both rule options out', () => {
    const end = deadEnd(
      decideStage(
        theaters(),
        model([
          { kind: 'theater', is: ['Starlight Multiplex'] },
          { kind: 'distance', maxKm: 5 },
        ]),
      ),
    );
    expect(end.summary).toContain('at Starlight Multiplex, within 5 km');
    expect(end.failing.find((f) => f.constraint.kind === 'theater')?.detail).toBe(
      'no theater showing Orbital Drift at Starlight Multiplex: among those within 5 km, the theaters on offer are Riverside IMAX',
    );
  });

  it('is judged again on later stages: a theater wish said after the choice sends the agent back to it', () => {
    const seats = specOf(engineAt([...ORBITAL_SUNDAY, ORBITAL_1930]));
    const end = deadEnd(decideStage(seats, model([{ kind: 'theater', is: ['Starlight'] }])));
    expect(end.backTo).toBe('theater');
    expect(end.summary).toContain('the theater is Riverside IMAX, not Starlight');
  });

  it('is checked on the confirm stage against state.booking.theater', () => {
    const spec = atConfirm();
    expect(spec.stage).toBe('confirm');
    const ok = decideStage(spec, model([{ kind: 'theater', is: ['Riverside IMAX'] }]));
    expect(ok).toMatchObject({ kind: 'confirm' });
    expect(ok.kind === 'confirm' && ok.reason).toContain('at Riverside IMAX as wanted');
    // On confirm itself the theater is an earlier choice: the wish sends the agent back to it.
    const end = deadEnd(decideStage(spec, model([{ kind: 'theater', not: ['Riverside IMAX'] }])));
    expect(end.failing[0]?.detail).toBe('the theater is Riverside IMAX, which you ruled out');
    expect(end.backTo).toBe('theater');
  });
});

describe('amenities a wish needs', () => {
  it('puts a theater advertising recliners first for premium seats, whatever it calls them', () => {
    const recliners = (i: Item | undefined) => (i?.amenities as string[] | undefined)?.includes('recliners') === true;
    // A film whose theaters, in catalog order, start with one without recliners.
    const spec = specOf(engineAt([]))
      .items.map((film) => specOf(engineAt([film.id])))
      .find((s) => s.items.length > 1 && !recliners(s.items[0]) && s.items.some(recliners));
    if (!spec) throw new Error('the default scenario has no such film');
    const plain = ids(decideStage(spec, model([])));
    expect(plain[0]).toBe(spec.items[0]?.id);
    const premium = decideStage(spec, model([{ kind: 'seatKind', seatKind: 'premium' }]));
    expect(recliners(spec.items.find((i) => i.id === ids(premium)[0]))).toBe(true);
    expect(premium.kind === 'options' && premium.options[0]?.reason).toContain('advertises premium seating');
  });
});
