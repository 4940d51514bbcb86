import { toolParametersJsonSchema } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import type { PerceivedTool } from '../perception/perceive.ts';
import { idsOfCall, listKeyOf, selectParams } from './tool-shapes.ts';

const tool = (params: Record<string, unknown>): PerceivedTool => ({
  name: 'select',
  category: 'interaction',
  description: '',
  params,
});
const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });

describe('select as the host describes it', () => {
  it("calls the protocol's own select with itemId, one id at a time", () => {
    const usher = tool(toolParametersJsonSchema('select'));
    expect(listKeyOf(usher)).toBeUndefined();
    expect(selectParams(usher, ['m1'])).toEqual({ itemId: 'm1' });
    expect(selectParams(undefined, ['m1'])).toEqual({ itemId: 'm1' });
  });

  it('uses the id key a host declares, and a list key for several seats at once', () => {
    expect(selectParams(tool(object({ id: { type: 'string' } }, ['id'])), ['F-101'])).toEqual({ id: 'F-101' });
    const seats = tool(object({ ids: { type: 'array', items: { type: 'string' } } }, ['ids']));
    expect(listKeyOf(seats)).toBe('ids');
    expect(selectParams(seats, ['R3-S7', 'R3-S8'])).toEqual({ ids: ['R3-S7', 'R3-S8'] });
    expect(selectParams(seats, ['R3-S7'])).toEqual({ ids: ['R3-S7'] });
    // Both: one id under its key, several under the list.
    const both = tool(object({ seatId: { type: 'string' }, seatIds: { type: 'array' } }, []));
    expect(selectParams(both, ['A1'])).toEqual({ seatId: 'A1' });
    expect(selectParams(both, ['A1', 'A2'])).toEqual({ seatIds: ['A1', 'A2'] });
  });

  it('reads back the ids a call names, whatever its key', () => {
    expect(idsOfCall({ itemId: 'm1' })).toEqual(['m1']);
    expect(idsOfCall({ ids: ['A1', 'A2'] })).toEqual(['A1', 'A2']);
    expect(idsOfCall({ id: 'F-101' })).toEqual(['F-101']);
    expect(idsOfCall({})).toEqual([]);
  });
});
