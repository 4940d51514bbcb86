import { toolParametersJsonSchema } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import type { PerceivedTool } from '../perception/perceive.ts';
import { idsOfCall, listKeyOf, quantityCall, selectParams } from './tool-shapes.ts';

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

describe('the ticket count as the host describes it', () => {
  const named = (
    name: string,
    params: Record<string, unknown>,
    category: PerceivedTool['category'] = 'interaction',
  ) => ({
    name,
    category,
    description: '',
    params,
  });
  const steps = [named('next', object({}, [])), named('prev', object({}, []))];

  it("calls the protocol's own setQuantity with typeId and quantity", () => {
    const usher = named('setQuantity', toolParametersJsonSchema('setQuantity'));
    expect(quantityCall([usher, ...steps], 'child', 2)).toEqual({
      toolName: 'setQuantity',
      params: { typeId: 'child', quantity: 2 },
    });
  });

  it('finds the tool that takes a ticket kind and a number, whatever the host calls it and its fields', () => {
    const fare = named(
      'setFare',
      object({ fareCode: { type: 'string' }, count: { type: 'number' } }, ['fareCode', 'count']),
    );
    expect(quantityCall([...steps, fare], 'senior', 1)).toEqual({
      toolName: 'setFare',
      params: { fareCode: 'senior', count: 1 },
    });
    // Of several texts, the one that names a kind; an integer count.
    const tickets = named(
      'tickets',
      object({ note: { type: 'string' }, ticketType: { type: 'string' }, qty: { type: 'integer' } }, ['qty']),
    );
    expect(quantityCall([tickets], 'adult', 3)).toEqual({
      toolName: 'tickets',
      params: { ticketType: 'adult', qty: 3 },
    });
  });

  it('takes no page tool, no select/next/prev and no tool without one number for it', () => {
    const sort = named('sort', object({ field: { type: 'string' }, order: { type: 'string' } }, []), 'modification');
    const filter = named(
      'filter',
      object({ field: { type: 'string' }, value: { type: 'number' } }, []),
      'modification',
    );
    const message = named('postMessage', object({ text: { type: 'string' } }, ['text']));
    const select = named('select', object({ itemId: { type: 'string' }, n: { type: 'number' } }, []));
    expect(quantityCall([sort, filter, message, select, ...steps], 'adult', 2)).toBeUndefined();
  });
});
