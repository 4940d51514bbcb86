import { type DISPLAY_COMPONENTS, STAGES, type Stage } from '@usher/protocol';
import type { Catalog } from '../scenario/catalog.ts';
import { shortDateLabel } from '../time.ts';
import { type Selections, ticketCount } from './booking.ts';

/** Seats one booking may hold; beyond this a seat `select` is refused. */
export const MAX_SEATS = 10;

type Component = (typeof DISPLAY_COMPONENTS)[number];

/** How a stage is presented: its heading and the component that draws its items. */
export interface StageFrame {
  title: string;
  description: string;
  component: Component;
  meta?: Record<string, unknown>;
}

export function nextStage(stage: Stage): Stage | null {
  return STAGES[STAGES.indexOf(stage) + 1] ?? null;
}

export function previousStage(stage: Stage): Stage | null {
  return STAGES[STAGES.indexOf(stage) - 1] ?? null;
}

/** Whether `next` may leave the stage (DESIGN.md: a selection; ≥1 seat; tickets = seats; always on confirm). */
export function isStageComplete(stage: Stage, sel: Selections): boolean {
  switch (stage) {
    case 'movie':
      return sel.movieId !== undefined;
    case 'theater':
      return sel.theaterId !== undefined;
    case 'date':
      return sel.date !== undefined;
    case 'time':
      return sel.showingId !== undefined;
    case 'seat':
      return sel.seats.length > 0;
    case 'ticket':
      return sel.seats.length > 0 && ticketCount(sel.quantities) === sel.seats.length;
    case 'confirm':
      return true;
  }
}

/** What `next` still needs on an incomplete stage, for error messages. */
export function missingForNext(stage: Stage, sel: Selections): string {
  switch (stage) {
    case 'seat':
      return 'select at least one seat first';
    case 'ticket':
      return `set ticket quantities that total ${sel.seats.length} (now ${ticketCount(sel.quantities)})`;
    default:
      return `select a ${stage} first`;
  }
}

/** The heading, component and extra layout data of a stage. */
export function stageFrame(catalog: Catalog, stage: Stage, sel: Selections): StageFrame {
  const movie = catalog.movie(sel.movieId);
  const theater = catalog.theater(sel.theaterId);
  const showing = catalog.showing(sel.showingId);
  switch (stage) {
    case 'movie':
      return { title: 'Choose a movie', description: 'Movies showing this week.', component: 'buttonGroup' };
    case 'theater':
      return {
        title: 'Choose a theater',
        description: `Theaters showing ${movie?.title ?? 'the movie'}.`,
        component: 'buttonGroup',
      };
    case 'date':
      return {
        title: 'Choose a date',
        description: `Days with ${movie?.title ?? 'the movie'} at ${theater?.name ?? 'the theater'}.`,
        component: 'calendar',
      };
    case 'time':
      return {
        title: 'Choose a showtime',
        description: `Showings on ${sel.date ? shortDateLabel(sel.date) : 'the day'}.`,
        component: 'buttonGroup',
      };
    case 'seat': {
      const map = theater ? catalog.seatMapOf(theater) : undefined;
      return {
        title: 'Choose your seats',
        description: `Select up to ${MAX_SEATS} seats; the screen is at the front (row ${map?.rows[0] ?? 'A'}).`,
        component: 'seatMap',
        meta: {
          rows: [...(map?.rows ?? [])],
          seatsPerRow: map?.seatsPerRow ?? 0,
          aisleAfter: [...(map?.aisleAfter ?? [])],
          screen: 'front',
          maxSeats: MAX_SEATS,
        },
      };
    }
    case 'ticket':
      return {
        title: 'Choose tickets',
        description: `One ticket per seat: ${sel.seats.length} in total${showing && showing.format !== 'Standard' ? ` (prices include the ${showing.format} surcharge)` : ''}.`,
        component: 'counter',
        meta: { maxTotal: sel.seats.length, total: ticketCount(sel.quantities) },
      };
    case 'confirm':
      return {
        title: 'Confirm your booking',
        description: 'Check the details, then confirm to book.',
        component: 'summary',
      };
  }
}
