import { type BookingSummary, STAGES, type Stage, type UiSpec } from '@usher/protocol';

/** The fingerprint of "no stage loaded" (before the first uiSpec, after the booking is submitted). */
export const NO_SPEC_FINGERPRINT = 'none';

/**
 * A short, stable string for what the participant has chosen on screen: the stage plus its
 * selection (`selected`, `selectedList`, `quantities`), e.g. `seat|list=C6,C7` or
 * `ticket|q=adult:2,child:1`. Presentation (filters, sorts, highlights) is left out on purpose:
 * drift means the *choices* moved under the agent, not that a list was re-sorted.
 * Lists and quantity keys are sorted, so the same choices always give the same fingerprint.
 */
export function fingerprintOf(uiSpec: UiSpec | null): string {
  if (uiSpec === null) return NO_SPEC_FINGERPRINT;
  const { selected, selectedList, quantities } = uiSpec.state;
  const parts: string[] = [uiSpec.stage];
  if (selected !== undefined) parts.push(`sel=${selected}`);
  if (selectedList !== undefined && selectedList.length > 0) parts.push(`list=${[...selectedList].sort().join(',')}`);
  if (quantities !== undefined) {
    const q = Object.entries(quantities)
      .filter(([, n]) => n > 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([type, n]) => `${type}:${n}`);
    if (q.length > 0) parts.push(`q=${q.join(',')}`);
  }
  return parts.join('|');
}

/** The id of the choice the booking summary records for one stage, if any. */
export function choiceOn(booking: BookingSummary, stage: Stage): string | undefined {
  switch (stage) {
    case 'movie':
      return booking.movie?.id;
    case 'theater':
      return booking.theater?.id;
    case 'date':
      return booking.date;
    case 'time':
      return booking.showing?.id;
    case 'seat':
      return booking.seats && booking.seats.length > 0 ? [...booking.seats].sort().join(',') : undefined;
    case 'ticket':
      return booking.tickets?.map((t) => `${t.typeId}:${t.quantity}`).join(',');
    case 'confirm':
      return undefined;
  }
}

/**
 * The choices made on the stages *before* the current one, e.g. `movie=m1/theater=t2/date=2026-11-21`
 * on the time stage. It is the natural `contextKey` for {@link WorkingMemory.markTried}: a seat
 * tried for one showing says nothing about the seats of another, so backtracking to an earlier
 * stage and choosing differently starts a fresh "tried" set.
 */
export function contextKeyOf(stage: Stage, booking: BookingSummary | undefined): string {
  const upstream = STAGES.slice(0, STAGES.indexOf(stage));
  const parts = upstream.map((before) => `${before}=${choiceOn(booking ?? {}, before) ?? '-'}`);
  return parts.length > 0 ? parts.join('/') : 'start';
}
