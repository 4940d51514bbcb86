import type { Item } from '@usher/protocol';
import { HIGHLIGHT_LABELS } from '../ItemCard.tsx';
import { WheelchairIcon } from '../icons.tsx';
import { num, text } from '../item-fields.ts';
import type { HighlightStyle } from '../stage-props.ts';

interface SeatProps {
  item: Item;
  selected: boolean;
  disabled: boolean;
  focusable: boolean;
  highlight: HighlightStyle | undefined;
  hasNote: boolean;
  onSelect: () => void;
  buttonRef: (el: HTMLButtonElement | null) => void;
}

/**
 * `Row C, seat 7, premium, available` (and the assistant's mark, when there is one): the number a
 * selected seat shows is a word of its name, so a speech-input user can say what they see.
 */
export function seatLabel(item: Item, selected: boolean, highlight?: HighlightStyle): string {
  const kind = text(item, 'kind') ?? 'standard';
  const state = item.isDisabled === true ? 'taken' : selected ? 'selected' : 'available';
  const row = text(item, 'row');
  const number = num(item, 'number');
  const parts = [row && number !== undefined ? `Row ${row}, seat ${number}` : `Seat ${item.id}`, kind, state];
  if (highlight) parts.push(HIGHLIGHT_LABELS[highlight].toLowerCase());
  return parts.join(', ');
}

/** One seat: a toggle button placed by the grid, coloured by kind and state. */
export function Seat({ item, selected, disabled, focusable, highlight, hasNote, onSelect, buttonRef }: SeatProps) {
  const kind = text(item, 'kind') ?? 'standard';
  const taken = item.isDisabled === true;
  const classes = [
    'seat',
    `seat--${taken ? 'taken' : kind}`,
    selected && 'seat--selected',
    highlight && `hl-${highlight}`,
  ];
  return (
    <button
      ref={buttonRef}
      type="button"
      className={classes.filter(Boolean).join(' ')}
      data-testid={`item-${item.id}`}
      data-highlight={highlight}
      aria-pressed={selected}
      aria-label={seatLabel(item, selected, highlight)}
      aria-describedby={hasNote ? `note-${item.id}` : undefined}
      title={`${item.id} · ${taken ? 'taken' : kind}`}
      disabled={disabled}
      tabIndex={focusable ? 0 : -1}
      onClick={onSelect}
    >
      {selected ? (
        <span className="seat__number">{num(item, 'number') ?? ''}</span>
      ) : (
        kind === 'wheelchair' && !taken && <WheelchairIcon size={12} />
      )}
      {hasNote && <span className="seat__note-dot" aria-hidden="true" />}
    </button>
  );
}
