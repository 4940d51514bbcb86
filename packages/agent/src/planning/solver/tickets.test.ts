import { describe, expect, it } from 'vitest';
import { decideStage } from './decide.ts';
import { engineAt, model, ORBITAL_1930, ORBITAL_SUNDAY, specOf } from './testing.ts';
import type { StageDecision } from './types.ts';

// Orbital Drift at 19:30 is IMAX: Adult 19.50, Child 14.50, Senior 15.50; G9 and G10 are premium (+3.00 each).
function ticketStage(seats: string[]) {
  const engine = engineAt([...ORBITAL_SUNDAY, ORBITAL_1930], seats);
  engine.apply('next', {}, 'participant');
  return engine;
}

function confirmStage(seats: string[], quantities: Record<string, number>) {
  const engine = ticketStage(seats);
  for (const [typeId, quantity] of Object.entries(quantities))
    engine.apply('setQuantity', { typeId, quantity }, 'participant');
  engine.apply('next', {}, 'participant');
  return specOf(engine);
}

function deadEnd(decision: StageDecision) {
  if (decision.kind !== 'dead-end') throw new Error(`expected a dead-end, got ${JSON.stringify(decision)}`);
  return decision;
}

describe('ticket stage', () => {
  it('gives every seat an adult ticket when no mix is given, naming every type', () => {
    const decision = decideStage(specOf(ticketStage(['G9', 'G10'])), model([]));
    expect(decision).toMatchObject({ kind: 'tickets', quantities: { adult: 2, child: 0, senior: 0 } });
    if (decision.kind === 'tickets') expect(decision.reason).toContain('2 × Adult at 19.50 USD');
  });

  it('takes the ticket mix as asked', () => {
    const decision = decideStage(
      specOf(ticketStage(['G9', 'G10'])),
      model([{ kind: 'ticketMix', adult: 1, child: 1 }]),
    );
    expect(decision).toMatchObject({ kind: 'tickets', quantities: { adult: 1, child: 1, senior: 0 } });
  });

  it('dead-ends when the mix does not add up to the seats', () => {
    const end = deadEnd(
      decideStage(specOf(ticketStage(['G9', 'G10'])), model([{ kind: 'ticketMix', adult: 2, child: 1 }])),
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['ticketMix']);
    expect(end.backTo).toBe('seat');
    expect(end.summary).toBe(
      'You want 3 tickets (2 adult, 1 child) but 2 seats are selected; every seat takes one ticket.',
    );
  });

  it('dead-ends when the seats chosen are not the number wanted', () => {
    const end = deadEnd(decideStage(specOf(ticketStage(['G9'])), model([{ kind: 'seatCount', count: 2 }])));
    expect(end.failing[0]?.detail).toContain('1 seat is selected but you want exactly 2');
  });

  it('dead-ends early when the tickets alone cost more than the price limit', () => {
    const end = deadEnd(decideStage(specOf(ticketStage(['G9', 'G10'])), model([{ kind: 'price', maxTotal: 30 }])));
    expect(end.failing[0]?.detail).toBe(
      'the tickets alone cost 39.00 USD (2 × Adult at 19.50 USD), over your limit of 30.00 USD',
    );
    expect(end.backTo).toBeUndefined();
  });
});

describe('confirm stage', () => {
  it('confirms within the price limit, and says why', () => {
    const decision = decideStage(confirmStage(['G9', 'G10'], { adult: 2 }), model([{ kind: 'price', maxTotal: 50 }]));
    expect(decision.kind).toBe('confirm');
    if (decision.kind === 'confirm') expect(decision.reason).toContain('total 45.00 USD, within your 50.00');
  });

  it('dead-ends when the seat surcharges take the total over the limit', () => {
    const spec = confirmStage(['G9', 'G10'], { adult: 2 });
    // The tickets (39.00) pass the ticket stage's check; the premium seats make it 45.00.
    const end = deadEnd(decideStage(spec, model([{ kind: 'price', maxTotal: 40 }])));
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['price']);
    expect(end.summary).toBe('The total is 45.00 USD, over your limit of 40.00 USD.');
    expect(end.backTo).toBe('seat');
  });
});
