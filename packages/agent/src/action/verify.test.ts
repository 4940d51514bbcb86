import type { Stage } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTEXT, type PerceivedContext } from '../perception/perceive.ts';
import { mismatch } from './verify.ts';

const at = (stage: Stage | null, selectedList: string[] = []): PerceivedContext => ({
  ...EMPTY_CONTEXT,
  stage,
  uiSpec:
    stage === null
      ? null
      : {
          stage,
          title: '',
          items: [],
          visibleItems: [],
          state: { selectedList },
          modification: {},
          display: { component: 'seatMap', valueField: 'value' },
        },
});
const call = (toolName: string, params: Record<string, unknown> = {}) =>
  ({ type: 'tool.call', toolName, params, reason: 'r' }) as const;

describe('mismatch: the expected state against the observed one', () => {
  it('takes any later stage after next (a flow without a ticket stage), and no stage only after confirm', () => {
    expect(mismatch(call('next'), at('seat'), at('ticket'))).toBeNull();
    expect(mismatch(call('next'), at('seat'), at('confirm'))).toBeNull();
    expect(mismatch(call('next'), at('confirm'), at(null))).toBeNull();
    expect(mismatch(call('next'), at('seat'), at('time'))).toMatch(/expected the ticket stage after next, saw time/);
    expect(mismatch(call('next'), at('seat'), at(null))).not.toBeNull();
    expect(mismatch(call('prev'), at('confirm'), at('seat'))).toBeNull();
    expect(mismatch(call('prev'), at('confirm'), at('confirm'))).not.toBeNull();
  });

  it('checks that every seat of a select naming several toggled', () => {
    expect(mismatch(call('select', { ids: ['A1', 'A2'] }), at('seat'), at('seat', ['A1', 'A2']))).toBeNull();
    expect(mismatch(call('select', { ids: ['A1', 'A2'] }), at('seat'), at('seat', ['A1']))).toBe(
      'seat A2 did not toggle',
    );
  });
});
