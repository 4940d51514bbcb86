import type { Catalog } from '../scenario/catalog.ts';
import type { Movie, SeatMap, Showing, Theater } from '../scenario/schema.ts';
import type { Seat } from '../scenario/seats.ts';
import { minutesOf } from '../time.ts';

/** What the showing-level constraints look at. */
export interface ShowingFacts {
  showing: Showing;
  movie: Movie;
  theater: Theater;
  seatMap: SeatMap;
  startMinutes: number;
  /** Minutes after the showing day's midnight; past 1440 when the movie ends after midnight. */
  endMinutes: number;
  freeSeats: Seat[];
}

/** The facts of a showing, or undefined when the scenario lacks its movie or theater. */
export function showingFacts(catalog: Catalog, showing: Showing): ShowingFacts | undefined {
  const movie = catalog.movie(showing.movieId);
  const theater = catalog.theater(showing.theaterId);
  if (!movie || !theater) return undefined;
  return {
    showing,
    movie,
    theater,
    seatMap: catalog.seatMapOf(theater),
    startMinutes: minutesOf(showing.time),
    endMinutes: catalog.endMinutesOf(showing),
    freeSeats: catalog.freeSeatsOf(showing),
  };
}
