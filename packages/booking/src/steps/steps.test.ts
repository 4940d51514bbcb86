import { describe, expect, it } from 'vitest';
import { BookingEngine } from '../engine/engine.ts';
import { defaultScenario } from '../scenario/default.ts';
import { describeStep, proposalLine, readDecision } from './steps.ts';

describe('step approval words', () => {
  it('describes a proposed step as the participant sees the page', () => {
    const engine = new BookingEngine(defaultScenario());
    const spec = engine.view().uiSpec;
    const film = spec?.visibleItems[0];
    expect(describeStep('select', { itemId: film?.id }, spec)).toBe(`select ${String(film?.value)}`);
    expect(describeStep('next', {}, spec)).toBe('go on to the next step');
    expect(describeStep('next', {}, spec && { ...spec, stage: 'confirm' })).toBe('submit the booking');
    expect(describeStep('setQuantity', { typeId: 'adult', quantity: 2 }, spec)).toBe('set adult tickets to 2');
    expect(describeStep('highlight', { itemIds: ['a', 'b'] }, spec)).toBe('highlight 2 options');
    expect(proposalLine('go back a step', '  The earlier  showing is sold out. ')).toBe(
      'Next step: go back a step. The earlier showing is sold out. Approve or reject? (Reply "yes" or "no".)',
    );
  });

  it('reads a typed yes or approve as approval, a no or reject as rejection, and other words as neither', () => {
    for (const yes of ['yes', 'Yes please', 'ok', 'approve', 'Approved'])
      expect(readDecision(yes), yes).toBe('approve');
    for (const no of ['no', 'No, the later one', 'reject', "don't", 'nope'])
      expect(readDecision(no), no).toBe('reject');
    for (const other of ['the later one please', 'yes but change the seats', 'approve? not yet', 'hmm'])
      expect(readDecision(other), other).toBe(null);
  });
});
