import { type ErrorCode, ProtocolError } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { driveTo, newEngine, spec } from '../testing/helpers.ts';
import type { BookingEngine } from './engine.ts';

/** Applies a call that must fail; checks the code and message, and that nothing changed. */
function refuse(engine: BookingEngine, tool: string, params: unknown, code: ErrorCode, message: RegExp | string): void {
  const view = JSON.stringify(engine.view());
  const backend = JSON.stringify(engine.backendData());
  const snapshot = JSON.stringify(engine.toJSON());
  let thrown: unknown;
  try {
    engine.apply(tool, params, 'agent');
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ProtocolError);
  expect((thrown as ProtocolError).code).toBe(code);
  expect((thrown as ProtocolError).message).toMatch(message);
  expect(JSON.stringify(engine.view())).toBe(view);
  expect(JSON.stringify(engine.backendData())).toBe(backend);
  expect(JSON.stringify(engine.toJSON())).toBe(snapshot);
}

describe('apply() error codes', () => {
  it('UNKNOWN_TOOL for a name that is not a tool, listing the tools available now', () => {
    refuse(
      newEngine(),
      'book',
      {},
      'UNKNOWN_TOOL',
      'unknown tool "book"; available now: filter, sort, highlight, augment, clearModification, select, postMessage',
    );
  });

  it('UNKNOWN_TOOL for a name that is not a tool even after the submit', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.apply('next', {}, 'agent');
    refuse(engine, 'book', {}, 'UNKNOWN_TOOL', /available now: postMessage$/);
  });

  it('NO_ACTIVE_SPEC for any tool but postMessage after the submit', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.apply('next', {}, 'agent');
    for (const tool of ['select', 'filter', 'next', 'prev', 'clearModification']) {
      refuse(engine, tool, {}, 'NO_ACTIVE_SPEC', /no booking stage is active/);
    }
  });

  it('UNKNOWN_TOOL for a real tool that the current toolSchema does not offer', () => {
    refuse(
      newEngine(),
      'prev',
      {},
      'UNKNOWN_TOOL',
      /"prev" is not available on the movie stage; available now: .*select/,
    );
    refuse(
      newEngine(),
      'setQuantity',
      { typeId: 'adult', quantity: 1 },
      'UNKNOWN_TOOL',
      /"setQuantity" is not available/,
    );
    refuse(
      newEngine(),
      'next',
      {},
      'UNKNOWN_TOOL',
      /"next" is not available yet on the movie stage: select a movie first/,
    );
    refuse(
      driveTo(newEngine(), 'ticket'),
      'select',
      { itemId: 'adult' },
      'UNKNOWN_TOOL',
      /"select" is not available on the ticket stage/,
    );
    const seat = driveTo(newEngine(), 'seat');
    seat.apply('filter', { field: 'taken', operator: 'eq', value: true }, 'agent');
    const taken = spec(seat).visibleItems[0]?.id;
    refuse(seat, 'select', { itemId: taken }, 'UNKNOWN_TOOL', /no visible item on the seat stage is enabled/);
  });

  it('INVALID_PARAMS for params that fail the tool schema, naming the field', () => {
    const engine = newEngine();
    refuse(engine, 'select', {}, 'INVALID_PARAMS', /^select: params\.itemId: /);
    refuse(engine, 'select', { itemId: 'm-orbital-drift', extra: 1 }, 'INVALID_PARAMS', /select: params: .*extra/);
    refuse(
      engine,
      'filter',
      { field: 'genre', operator: 'like', value: 'x' },
      'INVALID_PARAMS',
      /filter: params\.operator: /,
    );
    refuse(engine, 'sort', { field: 'rating', order: 'up' }, 'INVALID_PARAMS', /sort: params\.order/);
    refuse(engine, 'postMessage', { text: '' }, 'INVALID_PARAMS', /postMessage: params\.text/);
    refuse(engine, 'highlight', { itemIds: [] }, 'INVALID_PARAMS', /highlight: params\.itemIds/);
    refuse(
      driveTo(newEngine(), 'ticket'),
      'setQuantity',
      { typeId: 'adult', quantity: -1 },
      'INVALID_PARAMS',
      /setQuantity: params\.quantity/,
    );
  });

  it('INVALID_PARAMS for an item id that is not visible', () => {
    const engine = newEngine();
    refuse(engine, 'select', { itemId: 'm-nope' }, 'INVALID_PARAMS', /"m-nope" is not among the visible items/);
    refuse(engine, 'select', { itemId: 'm-winter-kings' }, 'INVALID_PARAMS', /not among the visible items/);
    engine.apply('filter', { field: 'genre', operator: 'eq', value: 'Horror' }, 'agent');
    refuse(engine, 'select', { itemId: 'm-orbital-drift' }, 'INVALID_PARAMS', /not among the visible items/);
    refuse(
      engine,
      'highlight',
      { itemIds: ['m-hollow-house', 'm-orbital-drift'] },
      'INVALID_PARAMS',
      /highlight: "m-orbital-drift" is not among/,
    );
    refuse(
      engine,
      'augment',
      { items: [{ itemId: 'm-encore', value: 'fun' }] },
      'INVALID_PARAMS',
      /augment: "m-encore" is not among/,
    );
  });

  it('INVALID_PARAMS for an unknown ticket type and for more tickets than seats', () => {
    const engine = driveTo(newEngine(), 'ticket');
    refuse(
      engine,
      'setQuantity',
      { typeId: 'student', quantity: 1 },
      'INVALID_PARAMS',
      'setQuantity: unknown ticket type "student"; ticket types here: adult, child, senior',
    );
    engine.apply('setQuantity', { typeId: 'adult', quantity: 2 }, 'agent');
    refuse(
      engine,
      'setQuantity',
      { typeId: 'child', quantity: 1 },
      'INVALID_PARAMS',
      'setQuantity: quantities would total 3 but 2 seats are selected',
    );
  });

  it('INVALID_PARAMS for a filter or sort on a field no item has, or a value of the wrong type', () => {
    const engine = newEngine();
    refuse(
      engine,
      'filter',
      { field: 'price', operator: 'lt', value: 10 },
      'INVALID_PARAMS',
      /no item on this stage has a field "price"; fields here: id, value/,
    );
    refuse(
      engine,
      'sort',
      { field: 'distanceKm', order: 'asc' },
      'INVALID_PARAMS',
      /sort: no item on this stage has a field "distanceKm"/,
    );
    refuse(
      engine,
      'filter',
      { field: 'rating', operator: 'gt', value: 'high' },
      'INVALID_PARAMS',
      /"rating" is a number/,
    );
    refuse(
      engine,
      'filter',
      { field: 'rating', operator: 'contains', value: 7 },
      'INVALID_PARAMS',
      /"contains" works on text and list fields/,
    );
    refuse(engine, 'filter', { field: 'genres', operator: 'gt', value: 'A' }, 'INVALID_PARAMS', /is a list/);
    refuse(
      engine,
      'filter',
      { field: 'genre', operator: 'in', value: 'Drama' },
      'INVALID_PARAMS',
      /"in" needs a list value/,
    );
    refuse(
      engine,
      'filter',
      { field: 'genre', operator: 'eq', value: ['Drama'] },
      'INVALID_PARAMS',
      /needs the "in" operator/,
    );
  });

  it('TOOL_EXECUTION_FAILED for a disabled item: a taken seat, a day without showings, a sold-out showing', () => {
    const seat = driveTo(newEngine(), 'seat');
    const taken = spec(seat).items.find((i) => i.taken)?.id;
    refuse(
      seat,
      'select',
      { itemId: taken },
      'TOOL_EXECUTION_FAILED',
      `seat ${taken} is already taken; choose a free seat`,
    );

    const time = driveTo(newEngine(), 'time');
    refuse(
      time,
      'select',
      { itemId: 'sh-riverside-1121-1930' },
      'TOOL_EXECUTION_FAILED',
      'the 19:30 showing is sold out; choose another time',
    );

    const date = driveTo(newEngine(), 'movie');
    date.apply('select', { itemId: 'm-hollow-house' }, 'agent');
    date.apply('next', {}, 'agent');
    date.apply('select', { itemId: 't-grand' }, 'agent');
    date.apply('next', {}, 'agent');
    refuse(
      date,
      'select',
      { itemId: '2026-11-22' },
      'TOOL_EXECUTION_FAILED',
      'there is no showing on Sun 22 Nov; choose another date',
    );
  });

  it('TOOL_EXECUTION_FAILED for an eleventh seat', () => {
    const engine = driveTo(newEngine(), 'seat');
    const free = spec(engine).items.filter((i) => !i.isDisabled);
    for (const seat of free.slice(0, 10)) engine.apply('select', { itemId: seat.id }, 'agent');
    refuse(engine, 'select', { itemId: free[10]?.id }, 'TOOL_EXECUTION_FAILED', /at most 10 seats per booking/);
  });

  it('a refused call leaves the chat, the choices and the modification alone at every stage', () => {
    const engine = driveTo(newEngine(), 'seat');
    engine.addMessage('participant', 'two seats together');
    engine.apply('highlight', { itemIds: [spec(engine).items[0]?.id as string] }, 'agent');
    refuse(
      engine,
      'filter',
      { field: 'kind', operator: 'in', value: 'premium' },
      'INVALID_PARAMS',
      /"in" needs a list/,
    );
    refuse(engine, 'next', {}, 'UNKNOWN_TOOL', /select at least one seat first/);
  });
});
