import type { Constraint } from '@usher/booking';
import { describe, expect, it } from 'vitest';
import { hard, soft } from './testing.ts';

/* How people type, read generally: dropped letters and apostrophes, British clock talk, a refusal
 * said after the thing, a count that opens the message, a correction inside one message. */

describe('as people type it', () => {
  it.each([
    ['2 tickets, nothin over 30', { kind: 'price', maxTotal: 30 }],
    ['2 tickets, we dont want to spend more then 40', { kind: 'price', maxTotal: 40 }],
    ['2 tickets on 26th', { kind: 'date', dates: ['2026-11-26'] }],
    ['2 tickets, home by half 10', { kind: 'endTime', before: '22:30' }],
    ['2 tickets, dont put us in the first 2 rows', { kind: 'rows', notFirst: 2 }],
    ['2 tickets, the front row is a no-go', { kind: 'rows', notFirst: 1 }],
    ['2 tickets, 3d is out', { kind: 'format', not: ['3D'] }],
    ['one for encore on tuesday', { kind: 'seatCount', count: 1 }],
    ['encore friday. i said 2 tickets earlier but its actually 3', { kind: 'seatCount', count: 3 }],
    ["my son is 10 and wants pip and the comet, i'll take him", { kind: 'ticketMix', adult: 1, child: 1 }],
    ['nothing over 30 for the pair of us', { kind: 'seatCount', count: 2 }],
  ])('"%s"', (text, constraint) => {
    expect(hard(text)).toContainEqual(constraint);
  });

  it('"X is too late", "too busy", "too expensive" refuses X; "X too" or "X is fine too" still adds it', () => {
    const dateOf = (list: readonly Constraint[]) => list.find((c) => c.kind === 'date');
    expect(dateOf(hard('night ledger, 2 tickets, sunday is too busy so saturday'))?.dates).toEqual(['2026-11-21']);
    expect(dateOf(soft('night ledger, 2 tickets, sunday is too busy so saturday'))).toBeUndefined();
    expect(dateOf(hard('night ledger, 2 tickets, saturday. sunday is too busy'))?.dates).toEqual(['2026-11-21']);
    expect(dateOf(hard('night ledger saturday, 2 tickets', "sunday's way too late for us"))?.dates).toEqual([
      '2026-11-21',
    ]);
    expect(dateOf(hard('night ledger saturday, 2 tickets', 'sunday too please'))?.dates).toEqual([
      '2026-11-21',
      '2026-11-22',
    ]);
    expect(dateOf(hard('night ledger saturday, 2 tickets', 'sunday is fine too'))?.dates).toEqual([
      '2026-11-21',
      '2026-11-22',
    ]);
    expect(hard('night ledger sunday 2 tickets, imax is too expensive')).toContainEqual({
      kind: 'format',
      not: ['IMAX'],
    });
    expect(hard('night ledger 2 tickets in the afternoon', 'the evening is too late for the kids')).toContainEqual({
      kind: 'startTime',
      after: '12:00',
      before: '17:00',
    });
    expect(hard('2 for night ledger sunday, not in the morning, not in the evening either')).toContainEqual({
      kind: 'startTime',
      after: '12:00',
      before: '17:00',
    });
  });

  it('"hoping to keep it below 20" is a hedge', () => {
    expect(soft('2 seats, hoping to keep it below 20')).toEqual([{ kind: 'price', maxTotal: 20 }]);
  });

  it('"out by 10" is an end time, not a refusal of what comes before it', () => {
    expect(hard("orbital drift so we're out by 10, 2 tickets")).toContainEqual({
      kind: 'title',
      is: ['Orbital Drift'],
    });
  });

  it('"half an hour" is no clock time', () => {
    expect(hard('2 tickets, half an hour').some((c) => c.kind === 'startTime' || c.kind === 'endTime')).toBe(false);
  });
});
