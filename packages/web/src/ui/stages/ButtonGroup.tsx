import type { Item } from '@usher/protocol';
import type { ReactNode } from 'react';
import { ItemCard } from '../ItemCard.tsx';
import type { StageProps } from '../stage-props.ts';
import { MovieCard } from './MovieCard.tsx';
import { ShowtimeCard } from './ShowtimeCard.tsx';
import { TheaterCard } from './TheaterCard.tsx';
import './stages.css';

const VARIANTS: Record<string, { list: string; card: string; render: (item: Item) => ReactNode }> = {
  movie: { list: 'items--posters', card: 'item--movie', render: (item) => <MovieCard item={item} /> },
  theater: { list: 'items--wide', card: 'item--theater', render: (item) => <TheaterCard item={item} /> },
  time: { list: 'items--times', card: 'item--time', render: (item) => <ShowtimeCard item={item} /> },
};

const plain = {
  list: 'items--wide',
  card: 'item--plain',
  render: (item: Item) => <span className="plain">{item.value}</span>,
};

/** A choice of one among cards: movies, theaters or showtimes (any other stage gets plain cards). */
export function ButtonGroup({ spec, can, act, decor }: StageProps) {
  const variant = VARIANTS[spec.stage] ?? plain;
  const canSelect = can('select');
  return (
    <ul className={`items ${variant.list}`}>
      {spec.visibleItems.map((item) => (
        <ItemCard
          key={item.id}
          id={item.id}
          className={variant.card}
          selected={spec.state.selected === item.id}
          disabled={item.isDisabled === true || !canSelect}
          decor={decor}
          onSelect={() => act('select', { itemId: item.id })}
        >
          {variant.render(item)}
        </ItemCard>
      ))}
    </ul>
  );
}
