import type { PerceivedContext } from './perceive.ts';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The study's day as a host shows it, against which "tomorrow" or "Friday" are read: its
 * `meta.today` (Usher's extension), or the day its date stage marks as today; else, for a host
 * without either, the first day it shows: the day of its chat's latest timestamp, or the first day
 * on its date stage (both taken until a surer one shows). Null when it shows none.
 */
export function studyDayOf(
  context: PerceivedContext,
): { day: string; from: 'meta' | 'flag' | 'chat' | 'dates' } | null {
  const today = context.uiSpec?.meta?.today;
  if (typeof today === 'string' && ISO_DAY.test(today)) return { day: today, from: 'meta' };
  // A date stage that marks its day as today (`isToday`, the prototype's): that is the study's day,
  // whatever the clock that stamps the chat says.
  if (context.uiSpec?.stage === 'date') {
    const flagged = context.uiSpec.items.find((i) => i.isToday === true || i.today === true)?.date;
    if (typeof flagged === 'string' && ISO_DAY.test(flagged)) return { day: flagged, from: 'flag' };
  }
  const stamped = context.messageHistoryTail.findLast((m) => ISO_DAY.test(m.timestamp.slice(0, 10)));
  if (stamped) return { day: stamped.timestamp.slice(0, 10), from: 'chat' };
  const spec = context.uiSpec;
  const first = spec?.stage === 'date' ? spec.items.find((i) => typeof i.date === 'string')?.date : undefined;
  return typeof first === 'string' && ISO_DAY.test(first) ? { day: first, from: 'dates' } : null;
}
