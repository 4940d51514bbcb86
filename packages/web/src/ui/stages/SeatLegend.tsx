import { HIGHLIGHT_LABELS } from '../ItemCard.tsx';
import { WheelchairIcon } from '../icons.tsx';
import type { HighlightStyle } from '../stage-props.ts';

const ENTRIES = [
  { kind: 'standard', label: 'Standard' },
  { kind: 'premium', label: 'Premium' },
  { kind: 'wheelchair', label: 'Wheelchair space' },
  { kind: 'selected', label: 'Your seats' },
  { kind: 'taken', label: 'Taken' },
] as const;

/** What the seat colours mean, and the assistant's mark when some seat carries it. */
export function SeatLegend({ highlight }: { highlight?: HighlightStyle | undefined }) {
  return (
    <ul className="seat-legend" aria-label="Seat legend">
      {ENTRIES.map((e) => (
        <li key={e.kind}>
          <span className={`seat seat--swatch seat--${e.kind}`} aria-hidden="true">
            {e.kind === 'wheelchair' && <WheelchairIcon size={12} />}
          </span>
          {e.label}
        </li>
      ))}
      {highlight && (
        <li>
          <span className="seat seat--swatch seat--standard" data-highlight={highlight} aria-hidden="true" />
          {HIGHLIGHT_LABELS[highlight]} by the assistant
        </li>
      )}
    </ul>
  );
}
