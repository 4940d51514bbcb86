import { type BookingSummary, type Item, STAGES, type Stage, type UiSpec } from '@usher/protocol';
import { endClockAfter } from './read/units.ts';

/*
 * What the agent remembers choosing, for hosts whose uiSpec carries no booking summary (Usher's
 * `state.booking` is an extension): the item selected on each choice stage and the seats. The
 * solver judges earlier choices and the confirm stage from the summary, so the agent builds it
 * from these when the host gives none. Usher's own host gives one, so its uiSpec passes unchanged.
 */

/** The items chosen on the choice stages, and the seats. */
export interface Chosen {
  movie?: Item;
  theater?: Item;
  date?: Item;
  time?: Item;
  seats?: string[];
  /**
   * The seat map the seats were chosen on (the last seat stage seen), so their rows and kinds can be
   * judged again once the page has moved on: the summary shows seat ids only.
   */
  seatMap?: UiSpec;
}

const CHOICE_STAGES = ['movie', 'theater', 'date', 'time'] as const;
type ChoiceStage = (typeof CHOICE_STAGES)[number];
const isChoiceStage = (stage: Stage): stage is ChoiceStage => (CHOICE_STAGES as readonly string[]).includes(stage);

/** The choices after `spec`: its stage's selection, and nothing after it when that selection changed. */
export function noteChoices(previous: Chosen, spec: UiSpec | null): Chosen {
  if (!spec) return previous;
  if (spec.stage === 'seat') {
    const seats = spec.state.selectedList ?? [];
    return { ...previous, seats: [...seats], seatMap: spec };
  }
  if (!isChoiceStage(spec.stage)) return previous;
  const stage = spec.stage;
  const selected = spec.state.selected;
  const item = selected === undefined ? undefined : spec.items.find((i) => i.id === selected);
  if (!item || previous[stage]?.id === item.id) return previous;
  // A new choice here makes the later ones choices of another booking.
  const at = STAGES.indexOf(stage);
  const kept: Chosen = {};
  for (const s of CHOICE_STAGES) if (STAGES.indexOf(s) < at && previous[s]) kept[s] = previous[s];
  return { ...kept, [stage]: item };
}

/** The showtimes with an end time: the chosen film's running time after the start, when the host gives none. */
export function withEndTimes(spec: UiSpec | null, chosen: Chosen): UiSpec | null {
  if (spec?.stage !== 'time') return spec;
  const runtime = chosen.movie?.durationMinutes;
  const lacking = (i: Item) => typeof i.endTime !== 'string' && typeof i.time === 'string';
  if (typeof runtime !== 'number' || !spec.items.some(lacking)) return spec;
  const fill = (i: Item): Item => {
    const end = lacking(i) ? endClockAfter(String(i.time), runtime) : undefined;
    return end ? { ...i, endTime: end } : i;
  };
  return { ...spec, items: spec.items.map(fill), visibleItems: spec.visibleItems.map(fill) };
}

const text = (item: Item, key: string) => (typeof item[key] === 'string' ? (item[key] as string) : undefined);

/** The summary of the choices made before `spec`'s stage, where the host's own summary lacks them. */
export function completeBooking(spec: UiSpec | null, chosen: Chosen): UiSpec | null {
  if (!spec) return spec;
  const before = (stage: Stage) => STAGES.indexOf(stage) < STAGES.indexOf(spec.stage);
  const booking: BookingSummary = { ...spec.state.booking };
  let added = false;
  const { movie, theater, date, time } = chosen;
  if (!booking.movie && movie && before('movie')) {
    booking.movie = { id: movie.id, title: text(movie, 'title') ?? movie.value };
    added = true;
  }
  if (!booking.theater && theater && before('theater')) {
    booking.theater = { id: theater.id, name: text(theater, 'name') ?? theater.value };
    added = true;
  }
  if (booking.date === undefined && date && before('date')) {
    booking.date = text(date, 'date') ?? date.id;
    added = true;
  }
  const [start, end, format] = time ? [text(time, 'time'), text(time, 'endTime'), text(time, 'format')] : [];
  if (!booking.showing && time && start && end && format && before('time')) {
    booking.showing = { id: time.id, time: start, endTime: end, format };
    added = true;
  }
  if (!booking.seats && chosen.seats?.length && before('seat')) {
    booking.seats = [...chosen.seats];
    added = true;
  }
  return added ? { ...spec, state: { ...spec.state, booking } } : spec;
}

/**
 * What a participant's click changed, read from the state before and after it: for a host that
 * does not name the call behind its updates (Usher's `action` tag). A choice on the same stage, or
 * the seats added to and dropped from the selection.
 */
export function clickedIds(before: UiSpec | null, after: UiSpec | null): { added: string[]; removed: string[] } {
  if (!after || before?.stage !== after.stage) return { added: [], removed: [] };
  if (after.stage === 'seat') {
    const was = new Set(before.state.selectedList ?? []);
    const is = new Set(after.state.selectedList ?? []);
    return { added: [...is].filter((id) => !was.has(id)), removed: [...was].filter((id) => !is.has(id)) };
  }
  const selected = after.state.selected;
  return selected !== undefined && selected !== before.state.selected
    ? { added: [selected], removed: [] }
    : { added: [], removed: [] };
}
