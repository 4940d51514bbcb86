import { describe, expect, it } from 'vitest';
import { formatDuration, statusText, stepLine } from './format.ts';
import type { RunView } from './state.ts';

const run = (patch: Partial<RunView>): RunView => ({
  id: 'r1',
  phase: 'running',
  tool: null,
  step: 0,
  contextLeft: null,
  current: null,
  last: null,
  ...patch,
});

describe('the status line', () => {
  it('reads RUNNING · tool · step · ctx while a run works', () => {
    expect(statusText(run({ tool: 'select', step: 3, contextLeft: 87.4 }))).toBe(
      'RUNNING · tool=select · step=3 · ctx=87%',
    );
  });

  it('shows what is not known yet as -', () => {
    expect(statusText(run({ phase: 'starting', id: null }))).toBe('RUNNING · tool=- · step=0 · ctx=-');
  });

  it.each([
    ['completed', 'DONE'],
    ['error', 'ERROR'],
    ['cancelled', 'CANCELLED'],
    ['cancelling', 'CANCELLING'],
    ['awaiting_ui', 'AWAITING'],
  ] as const)('names the %s phase %s', (phase, word) => {
    expect(statusText(run({ phase, tool: 'next', step: 9, contextLeft: 100 }))).toBe(
      `${word} · tool=next · step=9 · ctx=100%`,
    );
  });

  it('is IDLE before the first run', () => {
    expect(statusText(null)).toBe('IDLE');
  });
});

describe('step lines', () => {
  it('say the step, the call, ok or err and the duration', () => {
    expect(
      stepLine({ number: 3, tool: 'select', label: 'select · Orbital Drift', title: '', ok: true, durationMs: 41 }),
    ).toBe('step 3 · select · Orbital Drift · ok · 41 ms');
    expect(stepLine({ number: 4, tool: 'next', label: '', title: '', ok: false, durationMs: 1530 })).toBe(
      'step 4 · next · err · 1.5 s',
    );
    expect(stepLine({ number: 5, tool: 'next', label: 'next', title: '' })).toBe('step 5 · next · …');
  });

  it('formats durations for people', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});
