import type { Item } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTEXT, type PerceivedContext } from '../../perception/perceive.ts';
import { validateProposal } from './validate.ts';

const seats: Item[] = ['R3-S7', 'R3-S8', 'R3-S9'].map((id, n) => ({ id, value: id, isDisabled: n === 2 }));
/** Another host's seat stage: its select takes a list under `ids` (read from a field map). */
const context: PerceivedContext = {
  ...EMPTY_CONTEXT,
  stage: 'seat',
  uiSpec: {
    stage: 'seat',
    title: '',
    items: seats,
    visibleItems: seats,
    state: {},
    modification: {},
    display: { component: 'seatMap', valueField: 'value' },
  },
  toolSchema: [
    {
      name: 'select',
      category: 'interaction',
      description: 'Toggle the listed seats',
      params: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } } }, required: ['ids'] },
    },
  ],
};
const proposal = (args: object) => ({
  role: 'assistant' as const,
  tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'select', arguments: JSON.stringify(args) } }],
});

describe('validateProposal on a host whose select is its own', () => {
  it('takes the params the host declares, and checks every id they name', () => {
    expect(
      validateProposal(proposal({ ids: ['R3-S7', 'R3-S8'], reason: 'a pair together' }), context, new Set()),
    ).toEqual({
      ok: true,
      action: { type: 'tool.call', toolName: 'select', params: { ids: ['R3-S7', 'R3-S8'] }, reason: 'a pair together' },
    });
    expect(validateProposal(proposal({ ids: ['R3-S7', 'Z1'], reason: 'r' }), context, new Set())).toMatchObject({
      ok: false,
      error: expect.stringContaining('"Z1" is not visible'),
    });
    expect(validateProposal(proposal({ ids: ['R3-S9'], reason: 'r' }), context, new Set())).toMatchObject({
      ok: false,
      error: expect.stringContaining('disabled'),
    });
  });

  it('refuses the protocol’s own shape where the host declared another, and a select that names nothing', () => {
    expect(validateProposal(proposal({ itemId: 'R3-S7', reason: 'r' }), context, new Set())).toMatchObject({
      ok: false,
      error: 'select takes ids here, not itemId.',
    });
    expect(validateProposal(proposal({ ids: [], reason: 'r' }), context, new Set())).toMatchObject({ ok: false });
  });
});
