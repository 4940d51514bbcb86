import type { BookingSummary } from '@usher/protocol';
import { useLayoutEffect, useRef } from 'react';
import { formatDateShort, formatMoney } from './format.ts';
import { useOverflow } from './use-overflow.ts';

/** The choices so far, in booking order: movie › theater › date › time › seats › tickets. */
export function Breadcrumb({ booking }: { booking: BookingSummary | undefined }) {
  const crumbs: { key: string; label: string; value: string }[] = [];
  if (booking?.movie) crumbs.push({ key: 'movie', label: 'Movie', value: booking.movie.title });
  if (booking?.theater) crumbs.push({ key: 'theater', label: 'Theater', value: booking.theater.name });
  if (booking?.date) crumbs.push({ key: 'date', label: 'Date', value: formatDateShort(booking.date) });
  if (booking?.showing) {
    const { time, format } = booking.showing;
    crumbs.push({ key: 'time', label: 'Time', value: format === 'Standard' ? time : `${time} ${format}` });
  }
  if (booking?.seats?.length) crumbs.push({ key: 'seats', label: 'Seats', value: booking.seats.join(', ') });
  if (booking?.tickets?.length) {
    const tickets = booking.tickets.map((t) => `${t.quantity} × ${t.label}`).join(', ');
    crumbs.push({ key: 'tickets', label: 'Tickets', value: tickets });
  }
  if (booking?.total !== undefined) {
    crumbs.push({ key: 'total', label: 'Total', value: formatMoney(booking.total, booking.currency) });
  }
  // On a phone the trail is one line that scrolls sideways; keep the newest choice in view.
  const list = useRef<HTMLOListElement>(null);
  const last = crumbs.at(-1)?.value;
  // A trail that scrolls takes focus, so the keyboard can scroll it too.
  const scrolls = useOverflow(list);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the newest choice changes
  useLayoutEffect(() => {
    const el = list.current;
    if (el) el.scrollLeft = el.scrollWidth;
  }, [crumbs.length, last]);
  return (
    <nav className="breadcrumb" aria-label="Your booking so far" data-testid="breadcrumb">
      {crumbs.length === 0 ? (
        <p className="breadcrumb__empty">Your choices will appear here as you book.</p>
      ) : (
        <ol ref={list} tabIndex={scrolls ? 0 : undefined}>
          {crumbs.map((c) => (
            <li key={c.key} data-crumb={c.key}>
              <span className="sr-only">{c.label}: </span>
              {c.value}
            </li>
          ))}
        </ol>
      )}
    </nav>
  );
}
