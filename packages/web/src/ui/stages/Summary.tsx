import { AgentNote } from '../AgentNote.tsx';
import { formatDateLong, formatMoney } from '../format.ts';
import { HIGHLIGHT_LABELS } from '../ItemCard.tsx';
import { CheckIcon } from '../icons.tsx';
import { num, text } from '../item-fields.ts';
import type { StageProps } from '../stage-props.ts';
import { Poster } from './Poster.tsx';
import './summary.css';

/** The booking to confirm: what, where, when, which seats, the price lines and the total. */
export function Summary({ spec, can, act, decor }: StageProps) {
  const booking = spec.state.booking ?? {};
  const currency = booking.currency;
  const showing = booking.showing;
  return (
    <div className="summary">
      <section className="summary__show" aria-label="Your showing">
        {booking.movie && <Poster title={booking.movie.title} />}
        <dl className="summary__facts">
          <div className="summary__movie">
            <dt className="sr-only">Movie</dt>
            <dd>{booking.movie?.title ?? '—'}</dd>
          </div>
          <div>
            <dt>Theater</dt>
            <dd>{booking.theater?.name ?? '—'}</dd>
          </div>
          <div>
            <dt>Date</dt>
            <dd>{booking.date ? formatDateLong(booking.date) : '—'}</dd>
          </div>
          <div>
            <dt>Time</dt>
            <dd>
              {showing ? `${showing.time}–${showing.endTime}` : '—'}
              {showing && (
                <span className={`format-badge format-${showing.format.toLowerCase()}`}>{showing.format}</span>
              )}
            </dd>
          </div>
          <div>
            <dt>Seats</dt>
            <dd className="chips">
              {(booking.seats ?? []).map((seat) => (
                <span key={seat} className="chip chip--seat">
                  {seat}
                </span>
              ))}
            </dd>
          </div>
        </dl>
      </section>

      <table className="summary__lines">
        <caption className="sr-only">Price</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Qty</th>
            <th scope="col">Price</th>
            <th scope="col">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {spec.visibleItems.map((item) => {
            const highlight = decor.highlight.get(item.id);
            const note = decor.notes.get(item.id);
            const unit = num(item, 'unitPrice');
            const subtotal = num(item, 'subtotal');
            return (
              <tr key={item.id} className={highlight ? `hl-${highlight}` : undefined} data-highlight={highlight}>
                <th scope="row">
                  {text(item, 'label') ?? item.value}
                  {highlight && <span className="hl-badge hl-badge--inline">{HIGHLIGHT_LABELS[highlight]}</span>}
                  {note && <AgentNote itemId={item.id} text={note} />}
                </th>
                <td>{num(item, 'quantity') ?? ''}</td>
                <td>{unit === undefined ? '' : formatMoney(unit, currency)}</td>
                <td>{subtotal === undefined ? '' : formatMoney(subtotal, currency)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Total
            </th>
            <td data-testid="summary-total">
              {booking.total === undefined ? '—' : formatMoney(booking.total, currency)}
            </td>
          </tr>
        </tfoot>
      </table>

      <div className="summary__confirm">
        <button
          type="button"
          className="button button--primary button--large"
          data-testid="next"
          disabled={!can('next')}
          onClick={() => act('next')}
        >
          <CheckIcon size={18} />
          Confirm booking
        </button>
        <p className="muted">Your seats are booked as soon as you confirm. This is a study: no payment is taken.</p>
      </div>
    </div>
  );
}
