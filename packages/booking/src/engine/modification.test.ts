import { describe, expect, it } from 'vitest';
import { driveTo, newEngine, spec } from '../testing/helpers.ts';

const ids = (engine: ReturnType<typeof newEngine>) => spec(engine).visibleItems.map((i) => i.id);
const values = (engine: ReturnType<typeof newEngine>, field: string) => spec(engine).visibleItems.map((i) => i[field]);

describe('modification tools', () => {
  it('filter eq on text is case-insensitive, and items keep catalog order', () => {
    const engine = newEngine();
    engine.apply('filter', { field: 'genre', operator: 'eq', value: 'horror' }, 'agent');
    expect(ids(engine)).toEqual(['m-hollow-house', 'm-midnight-static']);
    expect(spec(engine).items).toHaveLength(14);
    expect(spec(engine).modification).toEqual({ filter: [{ field: 'genre', operator: 'eq', value: 'horror' }] });
  });

  it('contains: substring on text, membership on lists', () => {
    const engine = newEngine();
    engine.apply('filter', { field: 'title', operator: 'contains', value: 'THE' }, 'agent');
    expect(values(engine, 'title')).toEqual([
      'The Quiet Harbor',
      'The Hollow House',
      'Pip and the Comet',
      'The Last Cartographer',
    ]);
    engine.apply('clearModification', { type: 'filter' }, 'agent');
    engine.apply('filter', { field: 'genres', operator: 'contains', value: 'comedy' }, 'agent');
    expect(ids(engine)).toEqual(['m-second-helpings', 'm-love-in-lisbon', 'm-pip-and-the-comet']);
  });

  it('neq excludes, and on a list field excludes members', () => {
    const engine = newEngine();
    engine.apply('filter', { field: 'genres', operator: 'neq', value: 'Drama' }, 'agent');
    expect(ids(engine)).not.toContain('m-quiet-harbor');
    expect(ids(engine)).toContain('m-orbital-drift');
    expect(ids(engine)).toHaveLength(14 - 3); // The Quiet Harbor, The Last Cartographer, Courtside
  });

  it('gt/gte/lt/lte compare numbers, accepting numbers sent as text', () => {
    const engine = newEngine();
    engine.apply('filter', { field: 'rating', operator: 'gte', value: '8.1' }, 'agent');
    expect(values(engine, 'rating')).toEqual([8.3, 8.1, 8.5]);
    engine.apply('filter', { field: 'rating', operator: 'lt', value: 6.5 }, 'agent');
    expect(values(engine, 'rating')).toEqual([6.4, 5.9]);
  });

  it('gt/lt compare HH:MM times as text, and filters on different fields AND together', () => {
    const engine = driveTo(newEngine(), 'time');
    engine.apply('filter', { field: 'time', operator: 'gte', value: '16:00' }, 'agent');
    expect(values(engine, 'time')).toEqual(['16:30', '19:30', '20:50', '22:40']);
    engine.apply('filter', { field: 'format', operator: 'eq', value: 'imax' }, 'agent');
    expect(values(engine, 'time')).toEqual(['16:30', '19:30', '22:40']);
    engine.apply('filter', { field: 'startMinutes', operator: 'lt', value: 1200 }, 'agent');
    expect(values(engine, 'time')).toEqual(['16:30', '19:30']);
    expect(spec(engine).modification.filter).toHaveLength(3);
  });

  it('a new filter on the same field replaces the old one', () => {
    const engine = newEngine();
    engine.apply('filter', { field: 'ageRating', operator: 'eq', value: 'R' }, 'agent');
    engine.apply('filter', { field: 'ageRating', operator: 'eq', value: 'G' }, 'agent');
    expect(spec(engine).modification.filter).toEqual([{ field: 'ageRating', operator: 'eq', value: 'G' }]);
    expect(ids(engine)).toEqual(['m-deep-blue-cities', 'm-pip-and-the-comet']);
  });

  it('in: the field is one of the values; on a list field, any overlap', () => {
    const engine = newEngine();
    engine.apply('filter', { field: 'ageRating', operator: 'in', value: ['g', 'NC-17'] }, 'agent');
    expect(ids(engine)).toEqual(['m-deep-blue-cities', 'm-pip-and-the-comet', 'm-midnight-static']);
    engine.apply('clearModification', {}, 'agent');
    engine.apply('filter', { field: 'genres', operator: 'in', value: ['Documentary', 'Musical'] }, 'agent');
    expect(ids(engine)).toEqual(['m-deep-blue-cities', 'm-encore']);
    const seats = driveTo(newEngine(), 'seat');
    seats.apply('filter', { field: 'rowIndex', operator: 'in', value: [0, '1'] }, 'agent');
    expect(new Set(values(seats, 'row'))).toEqual(new Set(['A', 'B']));
  });

  it('filters booleans given as true/false or "true"', () => {
    const engine = driveTo(newEngine(), 'seat');
    engine.apply('filter', { field: 'taken', operator: 'eq', value: 'false' }, 'agent');
    expect(spec(engine).visibleItems.every((i) => i.taken === false)).toBe(true);
  });

  it('sort orders visible items by a field, asc or desc; a new sort replaces the old', () => {
    const engine = driveTo(newEngine(), 'movie');
    engine.apply('sort', { field: 'rating', order: 'desc' }, 'agent');
    expect(values(engine, 'rating').slice(0, 3)).toEqual([8.5, 8.3, 8.1]);
    engine.apply('sort', { field: 'title', order: 'asc' }, 'agent');
    expect(values(engine, 'title').slice(0, 3)).toEqual(['Courtside', 'Deep Blue Cities', 'Encore']);
    expect(spec(engine).modification.sort).toEqual({ field: 'title', order: 'asc' });
    expect(spec(engine).items[0]?.id).toBe('m-paper-lanterns');
  });

  it('sorts after filtering', () => {
    const engine = driveTo(newEngine(), 'theater');
    engine.apply('sort', { field: 'distanceKm', order: 'desc' }, 'agent');
    expect(ids(engine)).toEqual(['t-starlight', 't-riverside']);
    engine.apply('filter', { field: 'amenities', operator: 'contains', value: 'recliners' }, 'agent');
    expect(ids(engine)).toEqual(['t-riverside']);
  });

  it('highlight marks visible items with a style (emphasis by default) and replaces the old one', () => {
    const engine = newEngine();
    engine.apply('highlight', { itemIds: ['m-encore'] }, 'agent');
    expect(spec(engine).modification.highlight).toEqual({ itemIds: ['m-encore'], style: 'emphasis' });
    engine.apply('highlight', { itemIds: ['m-courtside', 'm-courtside'], style: 'recommended' }, 'agent');
    expect(spec(engine).modification.highlight).toEqual({ itemIds: ['m-courtside'], style: 'recommended' });
    expect(ids(engine)).toHaveLength(14);
  });

  it('augment annotates items, a newer note per item replacing the older', () => {
    const engine = newEngine();
    engine.apply(
      'augment',
      {
        items: [
          { itemId: 'm-encore', value: 'A musical' },
          { itemId: 'm-courtside', value: 'Sports' },
        ],
      },
      'agent',
    );
    engine.apply('augment', { items: [{ itemId: 'm-encore', value: 'Great reviews' }] }, 'agent');
    expect(spec(engine).modification.augment).toEqual([
      { itemId: 'm-courtside', value: 'Sports' },
      { itemId: 'm-encore', value: 'Great reviews' },
    ]);
    // The catalog's own fields stay as they were.
    expect(spec(engine).items.find((i) => i.id === 'm-encore')?.value).toBe('Encore');
  });

  it('clearModification removes one kind, or all by default', () => {
    const engine = newEngine();
    engine.apply('filter', { field: 'rating', operator: 'gt', value: 7 }, 'agent');
    engine.apply('sort', { field: 'rating', order: 'asc' }, 'agent');
    engine.apply('highlight', { itemIds: ['m-encore'] }, 'agent');
    engine.apply('augment', { items: [{ itemId: 'm-encore', value: 'x' }] }, 'agent');
    engine.apply('clearModification', { type: 'sort' }, 'agent');
    expect(Object.keys(spec(engine).modification).sort()).toEqual(['augment', 'filter', 'highlight']);
    expect(ids(engine)[0]).toBe('m-paper-lanterns');
    engine.apply('clearModification', { type: 'filter' }, 'agent');
    expect(ids(engine)).toHaveLength(14);
    engine.apply('clearModification', {}, 'agent');
    expect(spec(engine).modification).toEqual({});
  });

  it('a filter that hides the selected item keeps the selection', () => {
    const engine = newEngine();
    engine.apply('select', { itemId: 'm-orbital-drift' }, 'participant');
    engine.apply('filter', { field: 'genre', operator: 'eq', value: 'Comedy' }, 'agent');
    expect(ids(engine)).not.toContain('m-orbital-drift');
    expect(spec(engine).state.selected).toBe('m-orbital-drift');
    expect(engine.view().toolSchema.map((t) => t.name)).toContain('next');
  });
});

describe('fields a tool may name', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'refuses "%s", which items only inherit, as a field that does not exist, and changes nothing',
    (field) => {
      const engine = newEngine();
      const before = spec(engine);
      expect(() => engine.apply('filter', { field, operator: 'contains', value: 'function' }, 'agent')).toThrow(
        expect.objectContaining({ code: 'INVALID_PARAMS' }),
      );
      expect(() => engine.apply('sort', { field, order: 'asc' }, 'agent')).toThrow(
        expect.objectContaining({ code: 'INVALID_PARAMS' }),
      );
      expect(spec(engine)).toEqual(before);
    },
  );
});
