import type { Item } from '@usher/protocol';
import { formatDuration } from '../format.ts';
import { ClockIcon, StarIcon } from '../icons.tsx';
import { list, num, text } from '../item-fields.ts';
import { Poster } from './Poster.tsx';

/** A movie: generated poster, title, genres, audience rating, running time and age rating. */
export function MovieCard({ item }: { item: Item }) {
  const title = text(item, 'title') ?? item.value;
  const genres = list(item, 'genres');
  const genreText = (genres.length > 0 ? genres : [text(item, 'genre') ?? '']).filter(Boolean).join(' · ');
  const rating = num(item, 'rating');
  const duration = num(item, 'durationMinutes');
  const age = text(item, 'ageRating');
  const synopsis = text(item, 'synopsis');
  return (
    <>
      <Poster title={title} />
      <span className="movie__body">
        <span className="movie__title">{title}</span>
        {genreText && <span className="movie__genres">{genreText}</span>}
        <span className="movie__facts">
          {rating !== undefined && (
            <span className="fact fact--rating">
              <StarIcon size={13} />
              <span className="sr-only">Rated </span>
              {rating.toFixed(1)}
            </span>
          )}
          {duration !== undefined && (
            <span className="fact">
              <ClockIcon size={13} />
              {formatDuration(duration)}
            </span>
          )}
          {age && (
            <span className="age-badge">
              <span className="sr-only">Age rating </span>
              {age}
            </span>
          )}
        </span>
        {synopsis && <span className="movie__synopsis">{synopsis}</span>}
      </span>
    </>
  );
}
