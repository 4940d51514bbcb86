import { describe, expect, it } from 'vitest';
import { ConfirmationTracker, changesBooking, isPlainYes, unconfirmedSubmits } from './confirmation.ts';

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

describe('step approval as confirmation', () => {
  it("takes the participant's approval of the agent's proposed next as a yes, until the booking changes", () => {
    const t = new ConfirmationTracker();
    t.proposed('p1', 'select');
    t.decided('p1', 'approve');
    expect(t.confirmed).toBe(false);
    t.proposed('p2', 'next');
    t.decided('p2', 'reject');
    expect(t.confirmed).toBe(false);
    t.decided('p-unknown', 'approve');
    expect(t.confirmed).toBe(false);
    t.proposed('p3', 'next');
    t.decided('p3', 'approve');
    expect(t.confirmed).toBe(true);
    t.stateChanged('user', 'select');
    expect(t.confirmed).toBe(false);
  });

  it('counts an approved submit as confirmed in a log, and one approved for another step as not', () => {
    const state = (stage: string | null, source: string, toolName?: string) => ({
      type: 'state.updated',
      direction: 'out',
      payload: { source, uiSpec: stage ? { stage } : null, ...(toolName && { action: { toolName } }) },
    });
    const proposal = (proposalId: string, tool: string) => ({
      type: 'agent.proposal',
      direction: 'in',
      payload: { proposalId, tool, args: {}, reason: 'r' },
    });
    const decision = (proposalId: string, decision: string) => ({
      type: 'participant.proposal',
      direction: 'out',
      payload: { proposalId, decision },
    });
    const approved = [state('confirm', 'agent', 'next'), proposal('a', 'next'), decision('a', 'approve')];
    expect(unconfirmedSubmits([...approved, state(null, 'agent', 'next')])).toEqual([]);
    const other = [state('confirm', 'agent', 'next'), proposal('b', 'highlight'), decision('b', 'approve')];
    expect(unconfirmedSubmits([...other, state(null, 'agent', 'next')])).toEqual([3]);
    const rejected = [state('confirm', 'agent', 'next'), proposal('c', 'next'), decision('c', 'reject')];
    expect(unconfirmedSubmits([...rejected, state(null, 'agent', 'next')])).toEqual([3]);
  });
});
