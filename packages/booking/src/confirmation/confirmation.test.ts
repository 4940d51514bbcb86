import { describe, expect, it } from 'vitest';
import { ConfirmationTracker, changesBooking, isPlainYes } from './confirmation.ts';

describe('isPlainYes', () => {
  it('reads a plain yes, and nothing that asks for more', () => {
    for (const yes of ['yes', 'Yes please', 'ok', 'Sure, go ahead', 'book it']) expect(isPlainYes(yes), yes).toBe(true);
    for (const no of ['no', 'yes but change the seats', 'wait', 'not yet', 'actually the later one', 'hmm'])
      expect(isPlainYes(no), no).toBe(false);
  });
});

describe('ConfirmationTracker', () => {
  it("counts the participant's last words since the booking last changed", () => {
    const t = new ConfirmationTracker();
    expect(t.confirmed).toBe(false);
    t.participantSaid('yes');
    expect(t.confirmed).toBe(true);
    // Page tuning and the chat's echo leave the booking as it was.
    t.stateChanged('agent', 'highlight');
    t.stateChanged('user', undefined);
    t.stateChanged('agent', undefined);
    expect(t.confirmed).toBe(true);
    t.stateChanged('user', 'setQuantity');
    expect(t.confirmed).toBe(false);
    t.participantSaid('yes');
    t.participantSaid('wait, not that one');
    expect(t.confirmed).toBe(false);
  });

  it('takes a stage change, a host reset and an unknown tool as changes to the booking', () => {
    expect(changesBooking('agent', 'next')).toBe(true);
    expect(changesBooking('user', 'prev')).toBe(true);
    expect(changesBooking('host', undefined)).toBe(true);
    expect(changesBooking('agent', 'someHostsOwnTool')).toBe(true);
    expect(changesBooking('agent', 'postMessage')).toBe(false);
    expect(changesBooking('agent', 'filter')).toBe(false);
  });
});
