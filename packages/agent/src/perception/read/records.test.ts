import { BookingEngine, defaultScenario } from '@usher/booking';
import { STAGES } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { readItems } from './records.ts';

describe('reading item records by meaning', () => {
  it("passes Usher's own items unchanged, on every stage", () => {
    const engine = new BookingEngine(defaultScenario());
    for (const stage of STAGES) {
      const spec = engine.view().uiSpec;
      if (!spec) break;
      expect(spec.stage).toBe(stage);
      expect(readItems(stage, spec.items, {}).items).toEqual(spec.items);
      const first = spec.visibleItems.find((i) => i.isDisabled !== true);
      if (stage === 'seat') engine.apply('select', { itemId: first?.id }, 'agent');
      else if (stage === 'ticket') engine.apply('setQuantity', { typeId: 'adult', quantity: 1 }, 'agent');
      else if (stage !== 'confirm') engine.apply('select', { itemId: first?.id }, 'agent');
      if (stage !== 'confirm') engine.apply('next', {}, 'agent');
    }
  });

  it('films: ids, titles, genres from text, running time from "1h 45m", star ratings onto 10', () => {
    const { items } = readItems('movie', [
      {
        filmId: 'F-101',
        name: 'Orbital Drift',
        categories: 'Sci-Fi, Drama',
        runtime: '2h 8m',
        stars: '4.5',
        certificate: 'PG-13',
      },
      { filmId: 'F-102', name: 'Courtside', categories: 'Comedy', runtime: 95, stars: '3.5' },
    ]);
    expect(items[0]).toMatchObject({
      id: 'F-101',
      value: 'Orbital Drift',
      title: 'Orbital Drift',
      genres: ['Sci-Fi', 'Drama'],
      genre: 'Sci-Fi',
      durationMinutes: 128,
      rating: 9,
      ageRating: 'PG-13',
    });
    expect(items[1]).toMatchObject({ rating: 7, durationMinutes: 95 });
  });

  it('ratings as text take the scale the stage implies; a number under `rating` is out of 10 unless said', () => {
    const text = readItems('movie', [
      { id: 'a', rating: '4.2' },
      { id: 'b', rating: '3.1' },
    ]).items;
    expect(text.map((i) => i.rating)).toEqual([8.4, 6.2]);
    const plain = readItems('movie', [{ id: 'a', rating: 4.2 }]).items;
    expect(plain[0]?.rating).toBe(4.2);
    const scaled = readItems('movie', [{ id: 'a', rating: 4.2 }], { ratingScale: 5 }).items;
    expect(scaled[0]?.rating).toBe(8.4);
  });

  it('theaters: names and distances in miles', () => {
    const { items } = readItems('theater', [
      { cinemaId: 'C7', cinemaName: 'The Grand', distanceMiles: 2, features: ['IMAX'] },
    ]);
    expect(items[0]).toMatchObject({
      id: 'C7',
      value: 'The Grand',
      name: 'The Grand',
      distanceKm: 3.2,
      amenities: ['IMAX'],
    });
  });

  it('theaters that list no features have unknown ones, not none', () => {
    const { items } = readItems('theater', [{ cinemaId: 'C7', cinemaName: 'The Grand', distanceMiles: 2 }]);
    expect(items[0]).not.toHaveProperty('amenities');
    const listed = readItems('theater', [{ cinemaId: 'C8', cinemaName: 'Old Mill', features: [] }]).items;
    expect(listed[0]?.amenities).toEqual([]);
  });

  it('showtimes: 12-hour starts, formats, seats left, and the end from the running time', () => {
    const { items } = readItems(
      'time',
      [{ showtimeId: 'S-1', startsAt: '10:40 PM', screen: 'imax', availableSeats: 12 }],
      { durationMinutes: 148 },
    );
    expect(items[0]).toMatchObject({
      id: 'S-1',
      time: '22:40',
      endTime: '01:08',
      format: 'IMAX',
      startMinutes: 1360,
      seatsLeft: 12,
      value: '22:40 · IMAX',
    });
  });

  it('seats: rows and numbers from other notations, kinds, taken, surcharges; rows indexed from the front', () => {
    const { items } = readItems('seat', [
      { seatRef: 'R2-S1', seatType: 'accessible', occupied: false },
      { seatRef: 'R1-S1', seatType: 'vip', occupied: true, extraCharge: 3 },
    ]);
    expect(items[0]).toMatchObject({ id: 'R2-S1', row: 'B', number: 1, rowIndex: 1, kind: 'wheelchair', taken: false });
    expect(items[1]).toMatchObject({
      row: 'A',
      rowIndex: 0,
      kind: 'premium',
      taken: true,
      isDisabled: true,
      priceSurcharge: 3,
    });
  });

  it('leaves out records without a usable id, and says how many', () => {
    const read = readItems('movie', [{ title: 'No id' }, 'odd', { id: 'x'.repeat(200) }, { id: 7, title: 'Seven' }]);
    expect(read.items.map((i) => i.id)).toEqual(['7']);
    expect(read.dropped).toBe(3);
  });
});
