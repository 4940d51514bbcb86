import { allToolDefinitions, type Stage } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { driveTo, newEngine, spec, toolNames } from '../testing/helpers.ts';
import { availableTools } from './tool-rules.ts';

const MOD = ['filter', 'sort', 'highlight', 'augment', 'clearModification'];
const offer = (...interaction: string[]) => [...MOD, ...interaction, 'postMessage'];

describe('toolSchema stage filtering (DESIGN.md)', () => {
  it.each<[Stage, string[], string[]]>([
    ['movie', offer('select'), offer('select', 'clearSelection', 'next')],
    ['theater', offer('select', 'prev'), offer('select', 'clearSelection', 'next', 'prev')],
    ['date', offer('select', 'prev'), offer('select', 'clearSelection', 'next', 'prev')],
    ['time', offer('select', 'prev'), offer('select', 'clearSelection', 'next', 'prev')],
  ])('%s: select (and prev); next and clearSelection once something is selected', (stage, before, after) => {
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
    expect(toolNames(engine)).toEqual(offer('select', 'clearSelection', 'next', 'prev'));
    engine.apply('select', { itemId: seat }, 'participant');
    expect(toolNames(engine)).toEqual(offer('select', 'prev'));
  });

  it.each<Stage>(['movie', 'theater', 'date', 'time'])(
    '%s: clearSelection undoes the choice here and every later one, and the stage shows nothing chosen',
    (stage) => {
      const engine = driveTo(newEngine(), stage);
      const before = structuredClone(spec(engine).state.booking);
      const first = spec(engine).items.find((i) => !i.isDisabled);
      engine.apply('select', { itemId: first?.id }, 'agent');
      expect(spec(engine).state.selected).toBe(first?.id);
      engine.apply('clearSelection', {}, 'agent');
      expect(spec(engine).state.selected).toBeUndefined();
      expect(spec(engine).state.booking).toEqual(before);
      expect(toolNames(engine)).not.toContain('clearSelection');
      expect(toolNames(engine)).not.toContain('next');
      expect(() => engine.apply('clearSelection', {}, 'agent')).toThrow(/not available|UNKNOWN_TOOL|not in/);
    },
  );

  it('seat: clearSelection drops every seat chosen', () => {
    const engine = driveTo(newEngine(), 'seat');
    const [a, b] = spec(engine).items.filter((i) => !i.isDisabled);
    engine.apply('select', { itemId: a?.id }, 'agent');
    engine.apply('select', { itemId: b?.id }, 'agent');
    engine.apply('clearSelection', {}, 'agent');
    expect(spec(engine).state.selectedList ?? []).toEqual([]);
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
