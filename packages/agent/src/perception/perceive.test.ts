import { BookingEngine, defaultScenario } from '@usher/booking';
import { createMessage, type MessageOf } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../memory/fingerprint.ts';
import { choosable, EMPTY_CONTEXT, offers, perceive } from './perceive.ts';

const engine = new BookingEngine(defaultScenario(), { now: () => new Date('2026-11-21T18:00:00Z') });

describe('perceive', () => {
  it('reads the three read surfaces of a snapshot, and nothing else', () => {
    const snapshot = createMessage('snapshot.state', { sessionId: 's-20261121-001', ...engine.view() });
    const context = perceive(EMPTY_CONTEXT, snapshot);
    expect(context).toMatchObject({ sessionId: 's-20261121-001', stage: 'movie', source: 'snapshot', revision: 1 });
    expect(context.toolSchema.map((t) => t.name)).toEqual(engine.view().toolSchema.map((t) => t.name));
    expect(offers(context, 'select')).toBe(true);
    expect(offers(context, 'next')).toBe(false);
    expect(choosable(context).length).toBeGreaterThan(5);
  });

  it('keeps the session and the last participant message across updates, and counts revisions', () => {
    let context = perceive(
      EMPTY_CONTEXT,
      createMessage('snapshot.state', { sessionId: 's-20261121-002', ...engine.view() }),
    );
    context = perceive(context, createMessage('user.message', { text: 'Something funny', stage: 'movie' }));
    const before = fingerprintOf(context.uiSpec);
    const updated = new BookingEngine(defaultScenario());
    updated.apply('select', { itemId: updated.view().uiSpec?.visibleItems[0]?.id }, 'participant');
    context = perceive(context, createMessage('state.updated', { source: 'user', ...updated.view() }));
    expect(context).toMatchObject({
      sessionId: 's-20261121-002',
      source: 'user',
      revision: 3,
      lastUserMessage: { text: 'Something funny' },
    });
    expect(fingerprintOf(context.uiSpec)).not.toBe(before);
  });

  it('accepts a host that names tool parameters `params`', () => {
    const view = engine.view();
    const toolSchema = view.toolSchema.map(({ parameters, ...tool }) => ({ ...tool, params: parameters ?? {} }));
    const context = perceive(EMPTY_CONTEXT, createMessage('state.updated', { source: 'host', ...view, toolSchema }));
    expect(context.toolSchema.find((t) => t.name === 'select')?.params).toMatchObject({ required: ['itemId'] });
  });

  it('is pure: the same events give the same context', () => {
    const events = [
      createMessage('snapshot.state', { sessionId: null, ...engine.view() }),
      createMessage('user.message', { text: 'IMAX please' }),
    ] as const;
    const run = () => events.reduce(perceive, EMPTY_CONTEXT);
    expect(run()).toEqual(run());
  });

  it('builds the booking summary from what was chosen, and end times from the film, when the host gives neither', () => {
    // As the frame reader gives another host's state: the contract's shape, without Usher's summary.
    const view = (uiSpec: Record<string, unknown>) =>
      ({
        v: 'mvp-0.2',
        type: 'state.updated',
        payload: { source: 'agent', uiSpec, messageHistory: [], toolSchema: [] },
      }) as unknown as MessageOf<'state.updated'>;
    const base = { title: '', modification: {}, display: { component: 'buttonGroup' as const, valueField: 'value' } };
    let context = perceive(
      EMPTY_CONTEXT,
      view({
        ...base,
        stage: 'movie',
        items: [{ id: 'F1', value: 'Orbital Drift', title: 'Orbital Drift', durationMinutes: 148 }],
        visibleItems: [],
        state: { selected: 'F1' },
      }),
    );
    const showing = { id: 'S1', value: '22:40', time: '22:40', format: 'IMAX' };
    context = perceive(
      context,
      view({ ...base, stage: 'time', items: [showing], visibleItems: [showing], state: { selected: 'S1' } }),
    );
    expect(context.uiSpec?.items[0]?.endTime).toBe('01:08');
    expect(context.uiSpec?.state.booking).toEqual({ movie: { id: 'F1', title: 'Orbital Drift' } });
    context = perceive(
      context,
      view({ ...base, stage: 'confirm', items: [], visibleItems: [], state: { booking: { total: 24 } } }),
    );
    expect(context.uiSpec?.state.booking).toEqual({
      total: 24,
      movie: { id: 'F1', title: 'Orbital Drift' },
      showing: { id: 'S1', time: '22:40', endTime: '01:08', format: 'IMAX' },
    });
    expect(context.submitted).toBe(false);
    context = perceive(
      context,
      createMessage('state.updated', { source: 'agent', uiSpec: null, messageHistory: [], toolSchema: [] }),
    );
    expect(context.submitted).toBe(true);
  });
});
