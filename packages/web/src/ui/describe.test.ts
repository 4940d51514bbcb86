import type { Item } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { describeFilter, describeSort, fieldKind, fieldLabel } from './describe.ts';

const movies: Item[] = [
  { id: 'm1', value: 'A', genre: 'Sci-Fi', genres: ['Sci-Fi'], rating: 8.3, durationMinutes: 148 },
  { id: 'm2', value: 'B', genre: 'Comedy', genres: ['Comedy'], rating: 6.8, durationMinutes: 101 },
];

describe('describeFilter', () => {
  it('says what a filter keeps, in words', () => {
    expect(describeFilter({ field: 'genre', operator: 'eq', value: 'Sci-Fi' }, 'string')).toBe('genre is Sci-Fi');
    expect(describeFilter({ field: 'rating', operator: 'gte', value: 7.5 }, 'number')).toBe('rating at least 7.5');
    expect(describeFilter({ field: 'durationMinutes', operator: 'lt', value: 120 }, 'number')).toBe(
      'duration below 2 h',
    );
    expect(describeFilter({ field: 'format', operator: 'in', value: ['IMAX', '3D'] }, 'string')).toBe(
      'format is one of IMAX, 3D',
    );
    expect(describeFilter({ field: 'price', operator: 'lte', value: 15 }, 'number', 'USD')).toBe(
      'price at most $15.00',
    );
    expect(describeFilter({ field: 'startMinutes', operator: 'gte', value: 1080 }, 'number')).toBe(
      'start time at least 18:00',
    );
  });

  it('speaks of list fields as membership', () => {
    expect(describeFilter({ field: 'amenities', operator: 'contains', value: 'IMAX' }, 'array')).toBe(
      'amenities include IMAX',
    );
    expect(describeFilter({ field: 'genres', operator: 'neq', value: 'Horror' }, 'array')).toBe(
      'genres exclude Horror',
    );
  });

  it('reads flags as the word or its negation', () => {
    expect(describeFilter({ field: 'isToday', operator: 'eq', value: true }, 'boolean')).toBe('today');
    expect(describeFilter({ field: 'isToday', operator: 'eq', value: false }, 'boolean')).toBe('not today');
    expect(describeFilter({ field: 'taken', operator: 'neq', value: true }, 'boolean')).toBe('not taken');
  });
});

describe('describeSort', () => {
  it('names the order in the field’s own terms', () => {
    expect(describeSort({ field: 'rating', order: 'desc' }, 'number')).toBe('Sorted by rating, high to low');
    expect(describeSort({ field: 'distanceKm', order: 'asc' }, 'number')).toBe('Sorted by distance, nearest first');
    expect(describeSort({ field: 'startMinutes', order: 'asc' }, 'number')).toBe(
      'Sorted by start time, earliest first',
    );
    expect(describeSort({ field: 'title', order: 'asc' }, 'string')).toBe('Sorted by title, A to Z');
  });
});

describe('fields', () => {
  it('knows a field’s kind from the items and its name in words', () => {
    expect(fieldKind(movies, 'genres')).toBe('array');
    expect(fieldKind(movies, 'rating')).toBe('number');
    expect(fieldLabel('ageRating')).toBe('age rating');
    expect(fieldLabel('someNewField')).toBe('some new field');
  });
});
