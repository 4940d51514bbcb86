import { describe, expect, it } from 'vitest';
import { extract } from './extract.ts';
import { CONTEXT, read } from './testing.ts';

describe('whole messages', () => {
  it('reads a family booking in one message; with a child and no film named, films for children first', () => {
    const { model } = read('Two adults and a child, IMAX, tomorrow evening, finished by 10:30pm, not too far');
    expect(model.hard).toEqual([
      { kind: 'seatCount', count: 3 },
      { kind: 'ticketMix', adult: 2, child: 1 },
      { kind: 'format', is: ['IMAX'] },
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'startTime', after: '17:00' },
      { kind: 'endTime', before: '22:30' },
    ]);
    expect(model.soft).toEqual([{ kind: 'ageRating', allowed: ['G', 'PG'] }, { kind: 'closest' }]);
  });

  it('reads refusals, vague quality, a weekend and seat wishes in one message', () => {
    const { model } = read('no romantic comedies, something highly rated, this weekend, seats together in the middle');
    expect(model.hard).toEqual([
      { kind: 'genre', exclude: ['Romantic Comedy'] },
      { kind: 'date', dates: ['2026-11-21', '2026-11-22'] },
      { kind: 'adjacent' },
    ]);
    expect(model.soft).toEqual([{ kind: 'rating', min: 7.5 }, { kind: 'centered' }]);
  });

  it('reads a message with a title, a format, a rough time and a budget', () => {
    const { model } = read("Let's go with Orbital Drift in IMAX around 8, two of us, under $40, not the front row");
    expect(model.hard).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'title', is: ['Orbital Drift'] },
      { kind: 'format', is: ['IMAX'] },
      { kind: 'startTime', after: '19:30', before: '20:30' },
      { kind: 'price', maxTotal: 40 },
      { kind: 'rows', notFirst: 1 },
    ]);
  });

  it('reads a kids outing with a senior, a weekday and a preference', () => {
    const { model } = read(
      'Grandma (a senior) and 2 kids, something animated and suitable for kids, on Wednesday afternoon, cheapest seats',
    );
    expect(model.hard).toEqual([
      { kind: 'seatCount', count: 3 },
      { kind: 'ticketMix', child: 2, senior: 1 },
      { kind: 'genre', include: ['Animation'] },
      { kind: 'ageRating', allowed: ['G', 'PG'] },
      { kind: 'date', dates: ['2026-11-25'] },
      { kind: 'startTime', after: '12:00', before: '17:00' },
    ]);
    expect(model.soft).toEqual([{ kind: 'cheapest' }]);
  });

  it('reads an accessible booking with a distance limit and a latest start', () => {
    const { model } = read(
      'My husband uses a wheelchair, so a wheelchair space and a seat next to it, within 3 km, before 9pm',
    );
    // "My husband uses a wheelchair" does not say who is coming; "a space and a seat next to it" does.
    expect(model.hard).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'startTime', before: '21:00' },
      { kind: 'distance', maxKm: 3 },
      { kind: 'adjacent' },
      { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
    ]);
    expect(read('My husband uses a wheelchair, within 3 km').model.hard).toEqual([
      { kind: 'distance', maxKm: 3 },
      { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
    ]);
  });
});

describe('hard and soft', () => {
  it('makes hedged clauses soft and leaves the rest hard', () => {
    const { model } = read('IMAX if possible, tomorrow, ideally after 7pm');
    expect(model.hard).toEqual([{ kind: 'date', dates: ['2026-11-22'] }]);
    expect(model.soft).toEqual([
      { kind: 'format', is: ['IMAX'] },
      { kind: 'startTime', after: '19:00' },
    ]);
  });

  it('lets "must" win over a hedge in another clause', () => {
    const { model } = read("We'd prefer something sci-fi but it must be on Sunday");
    expect(model.hard).toEqual([{ kind: 'date', dates: ['2026-11-22'] }]);
    expect(model.soft).toEqual([{ kind: 'genre', include: ['Sci-Fi'] }]);
  });

  it('keeps preferences soft even when insisted on', () => {
    const { model } = read('it must be the cheapest and the closest');
    expect(model.hard).toEqual([]);
    expect(model.soft).toEqual([{ kind: 'cheapest' }, { kind: 'closest' }]);
  });

  it.each(['maybe tomorrow', 'tomorrow would be nice', 'perhaps tomorrow', 'hopefully tomorrow'])(
    '"%s" is soft',
    (text) => {
      expect(read(text).model.soft).toEqual([{ kind: 'date', dates: ['2026-11-22'] }]);
    },
  );
});

describe('unrecognized messages', () => {
  it.each(['hello', 'thanks!', 'sounds good', 'hmm, let me think', 'the lantern one'])('"%s" is unparsed', (text) => {
    const u = read(text);
    expect(u.unparsed).toBe(true);
    expect(u.changed).toEqual([]);
  });

  it('places every operation at the phrase that caused it', () => {
    const ops = extract('tomorrow, IMAX', CONTEXT);
    expect(ops.map((op) => [op.type === 'set' ? op.constraint.kind : op.kind, op.at])).toEqual([
      ['date', 0],
      ['format', 10],
    ]);
  });
});
