import { describe, expect, it } from 'vitest';
import { addDays } from '../time.ts';
import { Catalog } from './catalog.ts';
import { defaultScenario } from './default.ts';
import { seatsOf } from './seats.ts';

describe('the default scenario', () => {
  const s = defaultScenario();
  const catalog = new Catalog(s);

  it('starts on Saturday 2026-11-21 and covers seven days, every one with showings', () => {
    expect(s.today).toBe('2026-11-21');
    const days = Array.from({ length: 7 }, (_, i) => addDays(s.today, i));
    expect(catalog.days()).toEqual(days);
    expect(new Set(s.showings.map((sh) => sh.date))).toEqual(new Set(days));
  });

  it('has at least ten bookable movies of varied genres, lengths and age ratings', () => {
    const shown = s.movies.filter((m) => s.showings.some((sh) => sh.movieId === m.id));
    expect(shown.length).toBeGreaterThanOrEqual(10);
    const genres = new Set(s.movies.flatMap((m) => m.genres));
    for (const g of [
      'Animation',
      'Sci-Fi',
      'Drama',
      'Comedy',
      'Romantic Comedy',
      'Horror',
      'Thriller',
      'Documentary',
      'Action',
      'Family',
    ]) {
      expect(genres).toContain(g);
    }
    expect(new Set(s.movies.map((m) => m.genres[0])).size).toBeGreaterThanOrEqual(8);
    for (const m of s.movies) expect(m.durationMinutes).toSatisfy((d: number) => d >= 85 && d <= 180);
    expect(new Set(s.movies.map((m) => m.ageRating))).toEqual(new Set(['G', 'PG', 'PG-13', 'R', 'NC-17']));
  });

  it('has at least four theaters from 0.8 to 15 km with amenities', () => {
    expect(s.theaters.length).toBeGreaterThanOrEqual(4);
    const km = s.theaters.map((t) => t.distanceKm);
    expect(Math.min(...km)).toBe(0.8);
    expect(Math.max(...km)).toBeLessThanOrEqual(15);
    const amenities = new Set(s.theaters.flatMap((t) => t.amenities));
    for (const a of ['recliners', 'IMAX', '3D', 'wheelchair access', 'parking', 'bar']) expect(amenities).toContain(a);
  });

  it('shows all three formats, several showings per theater and day, between 10:00 and 23:00', () => {
    expect(new Set(s.showings.map((sh) => sh.format))).toEqual(new Set(['Standard', 'IMAX', '3D']));
    for (const t of s.theaters) {
      for (const day of catalog.days()) {
        expect(catalog.showingsWhere({ theaterId: t.id, date: day }).length).toBeGreaterThanOrEqual(3);
      }
    }
    for (const sh of s.showings) expect(sh.time >= '10:00' && sh.time <= '23:00').toBe(true);
    // Not every movie plays everywhere.
    const pairs = new Set(s.showings.map((sh) => `${sh.movieId}@${sh.theaterId}`));
    expect(pairs.size).toBeLessThan((s.movies.length * s.theaters.length) / 2);
  });

  it('has seat maps of at least 8 rows of 10 with all three seat kinds', () => {
    for (const map of s.seatMaps) {
      expect(map.rows.length).toBeGreaterThanOrEqual(8);
      expect(map.seatsPerRow).toBeGreaterThanOrEqual(10);
      expect(new Set(seatsOf(map).map((seat) => seat.kind))).toEqual(new Set(['standard', 'premium', 'wheelchair']));
    }
  });

  it('has some taken seats, varying between showings, and a sold-out showing', () => {
    const counts = s.showings.map((sh) => sh.takenSeats.length);
    expect(counts.filter((n) => n > 0).length).toBeGreaterThan(s.showings.length * 0.9);
    expect(new Set(counts).size).toBeGreaterThan(20);
    expect(s.showings.some((sh) => catalog.freeSeatsOf(sh).length === 0)).toBe(true);
  });

  it('sells adult, child and senior tickets, with format and seat surcharges', () => {
    expect(s.ticketTypes.map((t) => t.id)).toEqual(['adult', 'child', 'senior']);
    expect(s.formatSurcharges.IMAX).toBeGreaterThan(0);
    expect(s.formatSurcharges['3D']).toBeGreaterThan(0);
    expect(s.seatKindSurcharges.premium).toBeGreaterThan(0);
  });

  it('hands out copies', () => {
    const a = defaultScenario();
    a.movies.length = 0;
    expect(defaultScenario().movies.length).toBe(s.movies.length);
  });
});
