import { describe, expect, it } from 'vitest';
import { describeModel, phrase } from './describe.ts';

describe('describeModel', () => {
  it('matches the sentence the participant sees', () => {
    const model = {
      hard: [
        { kind: 'ticketMix' as const, adult: 2 },
        { kind: 'seatCount' as const, count: 2 },
        { kind: 'format' as const, is: ['IMAX' as const] },
        { kind: 'date' as const, dates: ['2026-11-22'] },
        { kind: 'startTime' as const, after: '18:00' },
      ],
      soft: [],
    };
    expect(describeModel(model, '2026-11-21')).toBe(
      'Understood: 2 adult tickets, IMAX, tomorrow (Sun 22 Nov), starting after 18:00.',
    );
  });

  it('lists hard wishes first, then "ideally" the soft ones', () => {
    const text = describeModel({
      hard: [{ kind: 'genre', exclude: ['Romantic Comedy'] }, { kind: 'adjacent' }],
      soft: [{ kind: 'rating', min: 7.5 }, { kind: 'closest' }, { kind: 'centered' }],
    });
    expect(text).toBe(
      'Understood: no romantic comedy, seats together; ideally rated 7.5 or higher, the closest theater and seats in the middle.',
    );
  });

  it('says a hard middle of the row among the seat wishes, apart from soft central seats', () => {
    const text = describeModel({
      hard: [
        { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
        { kind: 'rowMiddle' },
        { kind: 'seatCount', count: 1 },
      ],
      soft: [{ kind: 'centered' }],
    });
    expect(text).toBe(
      'Understood: 1 ticket, seats in the middle of the row (not at either end), 1 wheelchair space; ideally seats in the middle.',
    );
  });

  it('says so when there is nothing yet', () => {
    expect(describeModel({ hard: [], soft: [] })).toBe('Understood: no particular requirements yet.');
  });

  it('shows dates without relative words when today is unknown', () => {
    expect(describeModel({ hard: [{ kind: 'date', dates: ['2026-11-21', '2026-11-23'] }], soft: [] })).toBe(
      'Understood: Sat 21 Nov or Mon 23 Nov.',
    );
  });
});

describe('phrase', () => {
  it.each([
    [{ kind: 'ticketMix', adult: 2, child: 1 }, '3 tickets (2 adults, 1 child)'],
    [{ kind: 'ticketMix', child: 2, senior: 1 }, '3 tickets (2 children, 1 senior)'],
    [{ kind: 'seatCount', count: 1 }, '1 ticket'],
    [{ kind: 'title', is: ['Orbital Drift'], not: ['Night Ledger'] }, 'Orbital Drift, not Night Ledger'],
    [{ kind: 'genre', include: ['Comedy', 'Drama'] }, 'comedy or drama'],
    [{ kind: 'ageRating', allowed: ['G', 'PG'] }, 'age rating G or PG'],
    [{ kind: 'format', is: ['Standard'] }, 'standard format'],
    [{ kind: 'startTime', after: '18:30', before: '19:30' }, 'starting between 18:30 and 19:30'],
    [{ kind: 'startTime', after: '19:30', before: '19:30' }, 'starting at 19:30'],
    [{ kind: 'endTime', before: '24:00' }, 'finishing by midnight'],
    [{ kind: 'endTime', before: '25:00' }, 'finishing by 01:00 after midnight'],
    [{ kind: 'price', maxTotal: 45.5 }, 'at most 45.50 in total'],
    [{ kind: 'rows', notFirst: 3 }, 'not in the first 3 rows'],
    [{ kind: 'rows', allowed: ['B'] }, 'row B'],
    [{ kind: 'seatKind', seatKind: 'wheelchair', count: 1 }, '1 wheelchair space'],
    [{ kind: 'seatKind', seatKind: 'premium' }, 'premium seats'],
    [{ kind: 'highestRated' }, 'the highest-rated movie'],
  ] as const)('%j → "%s"', (constraint, expected) => {
    expect(phrase(constraint as Parameters<typeof phrase>[0])).toBe(expected);
  });
});
