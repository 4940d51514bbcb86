import type { PerceivedContext } from './perceive.ts';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The study's day as a host shows it, against which "tomorrow" or "Friday" are read: its
 * `meta.today` (Usher's extension); else, for a host without it, the first day it shows: the day
 * of its chat's latest timestamp, or the first day on its date stage. Null when it shows none.
 */
export function studyDayOf(context: PerceivedContext): { day: string; from: 'meta' | 'chat' | 'dates' } | null {
  const today = context.uiSpec?.meta?.today;
  if (typeof today === 'string' && ISO_DAY.test(today)) return { day: today, from: 'meta' };
  const stamped = context.messageHistoryTail.findLast((m) => ISO_DAY.test(m.timestamp.slice(0, 10)));
  if (stamped) return { day: stamped.timestamp.slice(0, 10), from: 'chat' };
  const spec = context.uiSpec;
  const first = spec?.stage === 'date' ? spec.items.find((i) => typeof i.date === 'string')?.date : undefined;
  return typeof first === 'string' && ISO_DAY.test(first) ? { day: first, from: 'dates' } : null;
}
