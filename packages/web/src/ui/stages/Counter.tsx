import { AgentNote } from '../AgentNote.tsx';
import { formatMoney, plural } from '../format.ts';
import { HIGHLIGHT_LABELS } from '../ItemCard.tsx';
import { num, text } from '../item-fields.ts';
import type { StageProps } from '../stage-props.ts';
import './counter.css';

/** Ticket types with − / + steppers, and how many of the seats have a ticket yet. */
export function Counter({ spec, can, act, decor }: StageProps) {
  const quantities = spec.state.quantities ?? {};
  const currency = spec.state.booking?.currency;
  const total = typeof spec.meta?.total === 'number' ? spec.meta.total : sum(Object.values(quantities));
  const maxTotal = typeof spec.meta?.maxTotal === 'number' ? spec.meta.maxTotal : undefined;
  const canSet = can('setQuantity');
  const full = maxTotal !== undefined && total >= maxTotal;
  const cost = spec.state.booking?.total ?? 0;

  return (
    <div className="counter">
      <ul className="items items--tickets">
        {spec.visibleItems.map((item) => {
          const quantity = quantities[item.id] ?? 0;
          const label = text(item, 'label') ?? item.value;
          const price = num(item, 'price');
          const set = (q: number) => act('setQuantity', { typeId: item.id, quantity: q });
          const highlight = decor.highlight.get(item.id);
          const note = decor.notes.get(item.id);
          return (
            <li key={item.id} className={ticketClass(highlight)} data-highlight={highlight}>
              <div className="ticket__info">
                {highlight && <span className="hl-badge">{HIGHLIGHT_LABELS[highlight]}</span>}
                <span className="ticket__label" id={`ticket-${item.id}`}>
                  {label}
                </span>
                {price !== undefined && <span className="ticket__price">{formatMoney(price, currency)} each</span>}
              </div>
              {/* biome-ignore lint/a11y/useSemanticElements: a stepper is a labelled group of two buttons and a value */}
              <div
                className="stepper"
                role="group"
                aria-labelledby={`ticket-${item.id}`}
                aria-describedby={note ? `note-${item.id}` : undefined}
              >
                <button
                  type="button"
                  className="stepper__button"
                  data-testid={`dec-${item.id}`}
                  aria-label={`One ${label} ticket fewer`}
                  disabled={!canSet || quantity === 0}
                  onClick={() => set(quantity - 1)}
                >
                  −
                </button>
                <output className="stepper__value" data-testid={`qty-${item.id}`} aria-live="polite">
                  {quantity}
                </output>
                <button
                  type="button"
                  className="stepper__button"
                  data-testid={`inc-${item.id}`}
                  aria-label={`One ${label} ticket more`}
                  disabled={!canSet || full}
                  onClick={() => set(quantity + 1)}
                >
                  +
                </button>
              </div>
              <span className="ticket__subtotal">
                {quantity > 0 && price !== undefined ? formatMoney(quantity * price, currency) : ''}
              </span>
              {note && <AgentNote id={`note-${item.id}`} itemId={item.id} text={note} />}
            </li>
          );
        })}
      </ul>
      {maxTotal !== undefined && (
        <div className={`tally${total === maxTotal ? ' is-complete' : ''}`}>
          <div className="tally__text">
            <strong>
              {total} of {plural(maxTotal, 'ticket')} chosen
            </strong>
            <span className="muted">
              {total === maxTotal ? ' · one for every seat' : ` · ${maxTotal - total} still to choose`}
            </span>
          </div>
          <div className="tally__bar" aria-hidden="true">
            <span style={{ width: `${maxTotal === 0 ? 0 : Math.min(100, (total / maxTotal) * 100)}%` }} />
          </div>
          <div className="tally__cost">
            Total <strong>{formatMoney(cost, currency)}</strong>
          </div>
        </div>
      )}
    </div>
  );
}

function ticketClass(highlight: string | undefined): string {
  return highlight ? `ticket hl-${highlight}` : 'ticket';
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
