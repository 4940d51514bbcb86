import type { Item } from '@usher/protocol';
import { endsNextDay } from '../format.ts';
import { num, text } from '../item-fields.ts';

/** Below this many free seats a showing reads as filling up. */
const FEW_SEATS = 30;

/** A showing: start and end time, format badge and the seats still free. */
export function ShowtimeCard({ item }: { item: Item }) {
  const time = text(item, 'time') ?? item.value;
  const end = text(item, 'endTime');
  const format = text(item, 'format');
  const left = num(item, 'seatsLeft');
  const soldOut = left === 0;
  const availability = left === undefined ? null : soldOut ? 'Sold out' : `${left} seats left`;
  const level = soldOut ? 'none' : left !== undefined && left < FEW_SEATS ? 'few' : 'many';
  return (
    <span className="showtime">
      <span className="showtime__time">{time}</span>
      <span className="showtime__details">
        {format && <span className={`format-badge format-${format.toLowerCase()}`}>{format}</span>}
        {end && (
          <span className="showtime__end">
            until {end}
            {endsNextDay(time, end) && <span className="showtime__next"> (next day)</span>}
          </span>
        )}
      </span>
      {availability && (
        <span className={`showtime__seats seats-${level}`}>
          <span className="dot" aria-hidden="true" />
          {availability}
        </span>
      )}
    </span>
  );
}
