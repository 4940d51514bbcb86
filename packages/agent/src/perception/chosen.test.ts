import type { Item, UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { clickedIds, noteChoices } from './chosen.ts';

const spec = (stage: UiSpec['stage'], items: Item[], state: UiSpec['state']): UiSpec => ({
  stage,
  title: '',
  items,
  visibleItems: items,
  state,
  modification: {},
  display: { component: 'buttonGroup', valueField: 'value' },
});
const item = (id: string): Item => ({ id, value: id });

describe('what the agent remembers choosing', () => {
  it('keeps each stage’s choice, and forgets the later ones when an earlier choice changes', () => {
    let chosen = noteChoices({}, spec('movie', [item('m1'), item('m2')], { selected: 'm1' }));
    chosen = noteChoices(chosen, spec('theater', [item('t1')], { selected: 't1' }));
    const seatMap = spec('seat', [item('A1')], { selectedList: ['A1'] });
    chosen = noteChoices(chosen, seatMap);
    // The seat map is kept with the seats, to judge them again after the page moves on.
    expect(chosen).toEqual({ movie: item('m1'), theater: item('t1'), seats: ['A1'], seatMap });
    expect(noteChoices(chosen, spec('movie', [item('m1'), item('m2')], { selected: 'm2' }))).toEqual({
      movie: item('m2'),
    });
    expect(noteChoices(chosen, spec('movie', [item('m1')], { selected: 'm1' }))).toBe(chosen);
  });

  it('reads a participant’s click from the state before and after it, when the host does not name it', () => {
    const before = spec('seat', [], { selectedList: ['C5', 'C6'] });
    expect(clickedIds(before, spec('seat', [], { selectedList: ['C6', 'C7'] }))).toEqual({
      added: ['C7'],
      removed: ['C5'],
    });
    expect(clickedIds(spec('time', [], {}), spec('time', [], { selected: 's2' }))).toEqual({
      added: ['s2'],
      removed: [],
    });
    expect(clickedIds(spec('time', [], { selected: 's2' }), spec('seat', [], { selectedList: ['A1'] }))).toEqual({
      added: [],
      removed: [],
    });
  });
});
