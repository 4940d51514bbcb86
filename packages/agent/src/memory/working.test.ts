import type { UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { recoveryFor } from '../policies/retry.ts';
import { contextKeyOf, fingerprintOf, NO_SPEC_FINGERPRINT } from './fingerprint.ts';
import { WorkingMemory } from './working.ts';

function spec(stage: UiSpec['stage'], state: UiSpec['state'] = {}, modification: UiSpec['modification'] = {}): UiSpec {
  return {
    stage,
    title: stage,
    items: [],
    visibleItems: [],
    state,
    modification,
    display: { component: 'buttonGroup', valueField: 'value' },
  };
}

describe('fingerprintOf', () => {
  it('names the stage and the choices, whatever order the seats were picked in', () => {
    expect(fingerprintOf(spec('seat', { selectedList: ['C7', 'C6'] }))).toBe('seat|list=C6,C7');
    expect(fingerprintOf(spec('seat', { selectedList: ['C6', 'C7'] }))).toBe('seat|list=C6,C7');
    expect(fingerprintOf(spec('ticket', { quantities: { child: 1, adult: 2, senior: 0 } }))).toBe(
      'ticket|q=adult:2,child:1',
    );
    expect(fingerprintOf(null)).toBe(NO_SPEC_FINGERPRINT);
  });

  it('ignores presentation: a filter or sort is not drift', () => {
    const plain = spec('movie', { selected: 'm1' });
    const sorted = spec('movie', { selected: 'm1' }, { sort: { field: 'rating', order: 'desc' } });
    expect(fingerprintOf(sorted)).toBe(fingerprintOf(plain));
  });
});

describe('contextKeyOf', () => {
  it('keys a stage by the choices made before it', () => {
    const booking = { movie: { id: 'm1', title: 'M' }, theater: { id: 't2', name: 'T' }, date: '2026-11-21' };
    expect(contextKeyOf('time', booking)).toBe('movie=m1/theater=t2/date=2026-11-21');
    expect(contextKeyOf('movie', undefined)).toBe('start');
  });
});

describe('WorkingMemory states and drift', () => {
  it('stores changes, not repeats, and keeps a bounded window', () => {
    const memory = new WorkingMemory({ stateWindow: 3 });
    memory.noteState(spec('movie'));
    memory.noteState(spec('movie'));
    expect(memory.recentStates).toEqual(['movie']);
    for (const id of ['m1', 'm2', 'm3']) memory.noteState(spec('movie', { selected: id }));
    expect(memory.recentStates).toEqual(['movie|sel=m1', 'movie|sel=m2', 'movie|sel=m3']);
    expect(memory.currentState).toBe('movie|sel=m3');
  });

  it('reports no drift, the states since, or that the planned state is gone', () => {
    const memory = new WorkingMemory({ stateWindow: 3 });
    const planned = memory.noteState(spec('seat'));
    expect(memory.driftSince(planned)).toEqual([]);
    memory.noteState(spec('seat', { selectedList: ['A1'] }));
    expect(memory.driftSince(planned)).toEqual(['seat|list=A1']);
    memory.noteState(spec('seat', { selectedList: ['A1', 'A2'] }));
    memory.noteState(spec('ticket'));
    expect(memory.driftSince(planned)).toBeNull();
  });
});

describe('WorkingMemory failures', () => {
  it('counts failures per stage, so the recovery policy stops at the third on one stage', () => {
    const memory = new WorkingMemory();
    const stops = (stage: 'seat' | 'time') =>
      recoveryFor('TOOL_EXECUTION_FAILED', memory.failuresOn(stage), false) === 'stop';
    memory.recordFailure('seat', 'TOOL_EXECUTION_FAILED');
    memory.recordFailure('time', 'INVALID_PARAMS');
    expect(memory.recordFailure('seat', 'INVALID_PARAMS')).toBe(2);
    expect(stops('seat')).toBe(false);
    memory.recordFailure('seat', 'TOOL_EXECUTION_FAILED');
    expect(stops('seat')).toBe(true);
    expect(stops('time')).toBe(false);
    expect(memory.failuresOn('seat', 'TOOL_EXECUTION_FAILED')).toBe(2);
    memory.clearFailures('seat');
    expect(memory.failuresOn('seat')).toBe(0);
  });

  it('counts failures with no stage loaded on their own', () => {
    const memory = new WorkingMemory();
    memory.recordFailure(null, 'NO_ACTIVE_SPEC');
    expect(memory.failuresOn(null)).toBe(1);
    expect(memory.failuresOn('movie')).toBe(0);
  });

  it('refuses a nonsensical window', () => {
    expect(() => new WorkingMemory({ stateWindow: 0 })).toThrow(RangeError);
  });
});

describe('WorkingMemory tried options', () => {
  it('keeps tried options per stage and context, for backtracking', () => {
    const memory = new WorkingMemory();
    memory.markTried('seat', 'showing=s1', 'C7');
    memory.markTried('seat', 'showing=s1', 'C8');
    memory.markTried('seat', 'showing=s1', 'C7');
    expect([...memory.tried('seat', 'showing=s1')]).toEqual(['C7', 'C8']);
    expect(memory.tried('seat', 'showing=s2').size).toBe(0);
    expect(memory.tried('time', 'showing=s1').size).toBe(0);
  });

  it('forgets every tried option at once (a new wish may make them fit)', () => {
    const memory = new WorkingMemory();
    memory.markTried('theater', 'movie=m1', 't-riverside');
    memory.markTried('date', 'theater=t1', '2026-11-22');
    memory.forgetTried();
    expect(memory.tried('theater', 'movie=m1').size).toBe(0);
    expect(memory.tried('date', 'theater=t1').size).toBe(0);
  });
});

describe('WorkingMemory plan and timeline', () => {
  it('holds its own copy of the plan and pops steps in order', () => {
    const steps = ['pick seats', 'set tickets'];
    const memory = new WorkingMemory();
    memory.setPlan({ id: 'plan-0', goal: 'book', remainingSteps: steps, confidence: 0.8 });
    expect(memory.completeStep()).toBe('pick seats');
    expect(steps).toHaveLength(2);
    expect(memory.plan?.remainingSteps).toEqual(['set tickets']);
    expect(() => memory.setPlan({ id: 'plan-1', goal: 'x', remainingSteps: [], confidence: 1.5 })).toThrow(RangeError);
    expect(memory.plan?.id).toBe('plan-0');
  });

  it('keeps the last messages and summarizes them in one line each', () => {
    const memory = new WorkingMemory({ timelineWindow: 2 });
    const at = '2026-11-21T10:00:00.000Z';
    memory.noteTimeline([
      { id: '1', role: 'participant', text: 'hello', timestamp: at },
      { id: '2', role: 'agent', text: 'Which movie?', timestamp: at },
      { id: '3', role: 'participant', text: 'Two seats together for Dune, please', timestamp: at },
    ]);
    expect(memory.timeline.map((m) => m.id)).toEqual(['2', '3']);
    expect(memory.timelineSummary(12)).toBe('agent: Which movie?\nparticipant: Two seats t…');
  });
});
