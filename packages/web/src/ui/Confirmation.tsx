import type { SubmittedBooking } from '@usher/booking';
import { useEffect, useRef } from 'react';
import { formatDateLong, formatMoney } from './format.ts';
import { CheckIcon } from './icons.tsx';
import { Poster } from './stages/Poster.tsx';
import './stages/summary.css';

/** What the booked card says comes next, unless told (a study says how to go on). */
const NEXT = 'The researcher will tell you what happens next.';

/** After the booking is submitted: the reference, what was booked, and what comes next. */
export function Confirmation({
  booking,
  embedded = false,
  next = NEXT,
}: {
  booking: SubmittedBooking;
  embedded?: boolean;
  next?: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (embedded) return;
    // Announce the result by moving focus here, unless the participant is writing in the chat.
    window.scrollTo({ top: 0 });
    if (!document.activeElement?.closest('.chat')) heading.current?.focus({ preventScroll: true });
  }, [embedded]);
  const tickets = booking.tickets.map((t) => `${t.quantity} × ${t.label}`).join(', ');
  return (
    <section className="confirmation" data-testid="confirmation" aria-labelledby="confirmation-title">
      <div className="confirmation__badge" aria-hidden="true">
        <CheckIcon size={28} />
      </div>
      <h1 id="confirmation-title" className="confirmation__title" tabIndex={-1} ref={heading}>
        You’re booked!
      </h1>
      <p className="confirmation__lead">Enjoy the show. Your booking reference is</p>
      <p className="confirmation__reference" data-testid="booking-reference">
        {booking.reference}
      </p>
      <div className="confirmation__ticket">
        <Poster title={booking.movieTitle} />
        <dl className="summary__facts">
          <div className="summary__movie">
            <dt className="sr-only">Movie</dt>
            <dd>{booking.movieTitle}</dd>
          </div>
          <div>
            <dt>Theater</dt>
            <dd>{booking.theaterName}</dd>
          </div>
          <div>
            <dt>Date</dt>
            <dd>{formatDateLong(booking.date)}</dd>
          </div>
          <div>
            <dt>Time</dt>
            <dd>
              {booking.time}–{booking.endTime}
              <span className={`format-badge format-${booking.format.toLowerCase()}`}>{booking.format}</span>
            </dd>
          </div>
          <div>
            <dt>Seats</dt>
            <dd className="chips">
              {booking.seats.map((s) => (
                <span key={s.id} className="chip chip--seat">
                  {s.id}
                </span>
              ))}
            </dd>
          </div>
          <div>
            <dt>Tickets</dt>
            <dd>{tickets}</dd>
          </div>
          <div className="summary__total">
            <dt>Total</dt>
            <dd>{formatMoney(booking.total, booking.currency)}</dd>
          </div>
        </dl>
      </div>
      <p className="muted confirmation__foot" data-testid="booking-next">
        {next}
      </p>
    </section>
  );
}
