import { allToolDefinitions, type Stage } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { driveTo, newEngine, spec, toolNames } from '../testing/helpers.ts';
import { availableTools } from './tool-rules.ts';

const MOD = ['filter', 'sort', 'highlight', 'augment', 'clearModification'];
const offer = (...interaction: string[]) => [...MOD, ...interaction, 'postMessage'];

describe('toolSchema stage filtering (DESIGN.md)', () => {
  it.each<[Stage, string[], string[]]>([
    ['movie', offer('select'), offer('select', 'next')],
    ['theater', offer('select', 'prev'), offer('select', 'next', 'prev')],
    ['date', offer('select', 'prev'), offer('select', 'next', 'prev')],
    ['time', offer('select', 'prev'), offer('select', 'next', 'prev')],
  ])('%s: select (and prev); next once something is selected', (stage, before, after) => {
    const engine = driveTo(newEngine(), stage);
    expect(toolNames(engine)).toEqual(before);
    const first = spec(engine).items.find((i) => !i.isDisabled);
    engine.apply('select', { itemId: first?.id }, 'participant');
    expect(toolNames(engine)).toEqual(after);
  });

  it('seat: select and prev; next once at least one seat is chosen, gone again when it is deselected', () => {
    const engine = driveTo(newEngine(), 'seat');
    expect(toolNames(engine)).toEqual(offer('select', 'prev'));
    const seat = spec(engine).items.find((i) => !i.isDisabled)?.id;
    engine.apply('select', { itemId: seat }, 'participant');
    expect(toolNames(engine)).toEqual(offer('select', 'next', 'prev'));
    engine.apply('select', { itemId: seat }, 'participant');
    expect(toolNames(engine)).toEqual(offer('select', 'prev'));
  });

  it('ticket: setQuantity and prev; next only when the tickets equal the seats', () => {
    const engine = driveTo(newEngine(), 'ticket');
    expect(toolNames(engine)).toEqual(offer('setQuantity', 'prev'));
    engine.apply('setQuantity', { typeId: 'adult', quantity: 1 }, 'participant');
    expect(toolNames(engine)).toEqual(offer('setQuantity', 'prev'));
    engine.apply('setQuantity', { typeId: 'child', quantity: 1 }, 'participant');
    expect(toolNames(engine)).toEqual(offer('setQuantity', 'next', 'prev'));
    engine.apply('setQuantity', { typeId: 'child', quantity: 0 }, 'participant');
    expect(toolNames(engine)).toEqual(offer('setQuantity', 'prev'));
  });

  it('confirm: next and prev', () => {
    expect(toolNames(driveTo(newEngine(), 'confirm'))).toEqual(offer('next', 'prev'));
  });

  it('after the submit: only postMessage', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.apply('next', {}, 'participant');
    expect(toolNames(engine)).toEqual(['postMessage']);
  });

  it('drops select while no visible item is enabled', () => {
    const engine = driveTo(newEngine(), 'seat');
    engine.apply('filter', { field: 'taken', operator: 'eq', value: true }, 'agent');
    expect(toolNames(engine)).toEqual(offer('prev'));
    engine.apply('clearModification', {}, 'agent');
    expect(toolNames(engine)).toEqual(offer('select', 'prev'));
    engine.apply('filter', { field: 'row', operator: 'eq', value: 'nowhere' }, 'agent');
    expect(toolNames(engine)).toEqual(offer('prev'));
  });

  it('entries are the protocol’s tool definitions: name, description, category, JSON Schema parameters', () => {
    const all = new Map(allToolDefinitions().map((d) => [d.name, d]));
    for (const entry of newEngine().view().toolSchema) {
      expect(entry).toEqual(all.get(entry.name));
      expect(Object.keys(entry).sort()).toEqual(['category', 'description', 'name', 'parameters']);
    }
  });

  it('hands out copies of the definitions', () => {
    const engine = newEngine();
    const [first] = engine.view().toolSchema;
    if (first?.parameters) first.parameters.type = 'mangled';
    expect(engine.view().toolSchema[0]?.parameters?.type).toBe('object');
  });

  it('availableTools: no spec means postMessage only', () => {
    expect(availableTools(null)).toEqual(['postMessage']);
    expect(availableTools({ stage: 'confirm', complete: true, anyVisibleEnabled: false })).toEqual(
      offer('next', 'prev'),
    );
  });
});
