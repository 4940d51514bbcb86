import type { Item } from '@usher/protocol';
import { PinIcon } from '../icons.tsx';
import { list, num, text } from '../item-fields.ts';

/** A theater: name, distance and its amenities as chips. */
export function TheaterCard({ item }: { item: Item }) {
  const name = text(item, 'name') ?? item.value;
  const distance = num(item, 'distanceKm');
  const amenities = list(item, 'amenities');
  return (
    <span className="theater">
      <span className="theater__name">{name}</span>
      {distance !== undefined && (
        <span className="theater__distance">
          <PinIcon size={14} />
          {distance.toLocaleString('en-US', { maximumFractionDigits: 1 })} km away
        </span>
      )}
      {amenities.length > 0 && (
        <span className="chips">
          <span className="sr-only">Amenities: </span>
          {amenities.map((a) => (
            <span key={a} className="chip">
              {a}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
