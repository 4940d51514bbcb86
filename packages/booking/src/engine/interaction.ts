import { type Item, ProtocolError, type Stage, type ToolParams } from '@usher/protocol';
import type { Catalog } from '../scenario/catalog.ts';
import { shortDateLabel } from '../time.ts';
import { emptySelections, type Selections, ticketCount } from './booking.ts';
import { MAX_SEATS } from './stages.ts';

/*
 * The interaction tools that change the participant's choices. Each returns new selections (or
 * throws before anything changes); a changed choice drops every later one, because later options
 * depend on it (another movie has other theaters; another showing has other free seats).
 */

/** `select` on the current stage. `visible` are the items the participant can see now. */
export function select(
  catalog: Catalog,
  stage: Stage,
  sel: Selections,
  visible: readonly Item[],
  params: ToolParams<'select'>,
): Selections {
  const item = visible.find((i) => i.id === params.itemId);
  if (item === undefined) {
    throw new ProtocolError(
      'INVALID_PARAMS',
      `select: "${params.itemId}" is not among the visible items on the ${stage} stage`,
    );
  }
  if (item.isDisabled === true) throw new ProtocolError('TOOL_EXECUTION_FAILED', disabledReason(catalog, stage, item));
  const id = item.id;
  const base = emptySelections();
  switch (stage) {
    case 'movie':
      return sel.movieId === id ? sel : { ...base, movieId: id };
    case 'theater':
      return sel.theaterId === id ? sel : { ...base, movieId: sel.movieId, theaterId: id };
    case 'date':
      return sel.date === id ? sel : { ...base, movieId: sel.movieId, theaterId: sel.theaterId, date: id };
    case 'time':
      return sel.showingId === id ? sel : { ...sel, showingId: id, seats: [], quantities: {} };
    case 'seat': {
      if (sel.seats.includes(id)) return { ...sel, seats: sel.seats.filter((s) => s !== id), quantities: {} };
      if (sel.seats.length >= MAX_SEATS) {
        throw new ProtocolError(
          'TOOL_EXECUTION_FAILED',
          `at most ${MAX_SEATS} seats per booking; deselect a seat before adding ${id}`,
        );
      }
      return { ...sel, seats: [...sel.seats, id], quantities: {} };
    }
    default:
      // The toolSchema never offers select here; this guards direct misuse.
      throw new ProtocolError('UNKNOWN_TOOL', `select is not available on the ${stage} stage`);
  }
}

/**
 * `clearSelection` on the current stage: its choice and every later one are dropped, so the stage
 * shows nothing chosen (the toolSchema offers it only once there is a choice to undo).
 */
export function clearSelection(stage: Stage, sel: Selections): Selections {
  const base = emptySelections();
  switch (stage) {
    case 'movie':
      return base;
    case 'theater':
      return { ...base, movieId: sel.movieId };
    case 'date':
      return { ...base, movieId: sel.movieId, theaterId: sel.theaterId };
    case 'time':
      return { ...base, movieId: sel.movieId, theaterId: sel.theaterId, date: sel.date };
    case 'seat':
      return { ...sel, seats: [], quantities: {} };
    default:
      // The toolSchema never offers clearSelection here; this guards direct misuse.
      throw new ProtocolError('UNKNOWN_TOOL', `clearSelection is not available on the ${stage} stage`);
  }
}

function disabledReason(catalog: Catalog, stage: Stage, item: Item): string {
  switch (stage) {
    case 'seat':
      return `seat ${item.id} is already taken; choose a free seat`;
    case 'date':
      return `there is no showing on ${shortDateLabel(item.id)}; choose another date`;
    case 'time': {
      const showing = catalog.showing(item.id);
      return `the ${showing?.time ?? item.value} showing is sold out; choose another time`;
    }
    default:
      return `"${item.id}" is not available; choose an enabled item`;
  }
}

/** `setQuantity` on the ticket stage: the ticket total may not exceed the seats chosen. */
export function setQuantity(sel: Selections, visible: readonly Item[], params: ToolParams<'setQuantity'>): Selections {
  if (!visible.some((item) => item.id === params.typeId)) {
    const types = visible.map((item) => item.id).join(', ') || '(none visible)';
    throw new ProtocolError(
      'INVALID_PARAMS',
      `setQuantity: unknown ticket type "${params.typeId}"; ticket types here: ${types}`,
    );
  }
  const quantities = { ...sel.quantities, [params.typeId]: params.quantity };
  if (params.quantity === 0) delete quantities[params.typeId as keyof typeof quantities];
  const total = ticketCount(quantities);
  if (total > sel.seats.length) {
    throw new ProtocolError(
      'INVALID_PARAMS',
      `setQuantity: quantities would total ${total} but ${sel.seats.length} seat${sel.seats.length === 1 ? ' is' : 's are'} selected`,
    );
  }
  return { ...sel, quantities };
}
