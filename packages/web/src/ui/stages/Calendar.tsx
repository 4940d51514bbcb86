import { dateParts, plural } from '../format.ts';
import { ItemCard } from '../ItemCard.tsx';
import { flag, num, text } from '../item-fields.ts';
import type { StageProps } from '../stage-props.ts';
import './stages.css';

/** The bookable days as a strip of calendar tiles: weekday, day, month, and how many showings. */
export function Calendar({ spec, can, act, decor }: StageProps) {
  const canSelect = can('select');
  return (
    <ul className="items items--days">
      {spec.visibleItems.map((item) => {
        const iso = text(item, 'date') ?? item.id;
        const parts = dateParts(iso);
        const showings = num(item, 'showings');
        const relative = flag(item, 'isToday') ? 'Today' : flag(item, 'isTomorrow') ? 'Tomorrow' : null;
        const none = showings === 0;
        const count = showings === undefined ? null : none ? 'No showings' : plural(showings, 'showing');
        return (
          <ItemCard
            key={item.id}
            id={item.id}
            className="item--day"
            selected={spec.state.selected === item.id}
            disabled={item.isDisabled === true || !canSelect}
            decor={decor}
            // The name begins with what the tile shows, in its order, so a speech-input user can say it.
            label={[
              parts ? `${parts.weekday.slice(0, 3)} ${parts.day} ${parts.month.slice(0, 3)}` : item.value,
              relative,
              count,
            ]
              .filter(Boolean)
              .join(', ')}
            onSelect={() => act('select', { itemId: item.id })}
          >
            {/* Spaces between the parts, so the tile's text reads as the words its name holds. */}
            <span className="day" aria-hidden="true">
              <span className="day__weekday">{parts ? parts.weekday.slice(0, 3) : ''}</span>{' '}
              <span className="day__number">{parts ? parts.day : item.value}</span>{' '}
              <span className="day__month">{parts ? parts.month.slice(0, 3) : ''}</span>{' '}
              <span className={`day__relative${relative ? '' : ' is-empty'}`}>{relative ?? '\u00a0'}</span>{' '}
              {count && <span className={`day__count${none ? ' is-none' : ''}`}>{count}</span>}
            </span>
          </ItemCard>
        );
      })}
    </ul>
  );
}
