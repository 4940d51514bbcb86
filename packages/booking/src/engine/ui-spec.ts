import type { Item, UiSpec } from '@usher/protocol';
import type { Catalog } from '../scenario/catalog.ts';
import { bookingSummary } from './booking.ts';
import { stageItems } from './items.ts';
import { copyModification, visibleItems } from './modification.ts';
import { stageFrame } from './stages.ts';
import type { EngineState } from './state.ts';

/** The current stage's spec together with the item lists the tools validate against. */
export interface StageSnapshot {
  spec: UiSpec;
  items: Item[];
  visible: Item[];
}

/**
 * Builds the uiSpec of the current stage from scratch. Every object in it is new, so the view
 * shares no reference with the scenario or the engine's state.
 */
export function buildUiSpec(catalog: Catalog, state: EngineState): StageSnapshot | null {
  const { stage, selections: sel } = state;
  if (stage === null) return null;
  const items = stageItems(catalog, stage, sel);
  const visible = visibleItems(items, state.modification);
  const frame = stageFrame(catalog, stage, sel);
  const uiState: UiSpec['state'] = { booking: bookingSummary(catalog, sel) };
  const selected = { movie: sel.movieId, theater: sel.theaterId, date: sel.date, time: sel.showingId }[stage as string];
  if (selected !== undefined) uiState.selected = selected;
  if (stage === 'seat') uiState.selectedList = [...sel.seats];
  if (stage === 'ticket') {
    uiState.quantities = Object.fromEntries(catalog.scenario.ticketTypes.map((t) => [t.id, sel.quantities[t.id] ?? 0]));
  }
  const spec: UiSpec = {
    stage,
    title: frame.title,
    description: frame.description,
    items,
    // visibleItems holds copies so that a consumer editing one list cannot change the other.
    visibleItems: visible.map(copyItem),
    state: uiState,
    modification: copyModification(state.modification),
    display: { component: frame.component, valueField: 'value' },
  };
  // The study's date is on every stage: the participant sees it (the calendar marks "Today"), and an
  // agent needs it to read "tonight" or "on Monday" before the date stage. The revision says which
  // state of the page an agent's call was planned on (the tools' `expect`).
  spec.meta = { ...frame.meta, today: catalog.scenario.today, revision: state.revision };
  return { spec, items, visible };
}

function copyItem(item: Item): Item {
  const copy: Item = { ...item };
  for (const [key, value] of Object.entries(copy)) if (Array.isArray(value)) copy[key] = [...value];
  return copy;
}
