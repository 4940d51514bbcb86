import { defaultScenario, type HardConstraint } from '@usher/booking';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import { runScenario, type StartHost, type SuiteEntry } from '../suite/index.ts';

/*
 * A price limit said without a currency ("budget 30", "ideally under 25") is read and kept by the
 * whole agent, not just the reader: the booking is judged against the limit a careful person reads.
 * In the default world, Orbital Drift tomorrow costs 29 for two in Standard and 39 in IMAX or 3D;
 * its latest showing is an IMAX one. Courtside on Monday costs 29 for two at best.
 */

const world = defaultScenario();

const startHost: StartHost = async (scenario) => {
  const server = await startTestServer({ headlessHost: true, scenario });
  return {
    url: server.url,
    room: 'default',
    submitted: () => server.headlessHost?.submitted() ?? null,
    close: async () => {},
  };
};

const entry = (text: string, hard: HardConstraint[], expect: 'book' | 'blocked' = 'book'): SuiteEntry => ({
  file: 'price-limits',
  world,
  scenario: {
    name: text,
    world: 'default',
    story: { text, hard, soft: [] },
    expect,
    ...(expect === 'blocked' ? { why: 'price' } : {}),
  },
});

const TWO_ADULTS: HardConstraint[] = [
  { kind: 'seatCount', count: 2 },
  { kind: 'ticketMix', adult: 2 },
];

describe('a price limit without a currency', () => {
  it(`"the latest showing, we can't go over 30": the limit beats the latest (IMAX) showing`, async () => {
    const report = await runScenario(
      entry("Orbital Drift tomorrow, two adults, the latest showing, we can't go over 30", [
        ...TWO_ADULTS,
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'price', maxTotal: 30 },
      ]),
      startHost,
    );
    expect(report.problems).toEqual([]);
    expect(report.booking?.total).toBeLessThanOrEqual(30);
  });

  it('"15 a ticket max" for two is a total of 30, and is kept the same way', async () => {
    const report = await runScenario(
      entry('Orbital Drift tomorrow, two adults, the latest showing, 15 a ticket max', [
        ...TWO_ADULTS,
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'price', maxTotal: 30 },
      ]),
      startHost,
    );
    expect(report.problems).toEqual([]);
    expect(report.booking?.total).toBeLessThanOrEqual(30);
  });

  it('"max 25 total" that nothing meets: books nothing and says the limit is why', async () => {
    const report = await runScenario(
      entry(
        'Courtside on Monday, two adults, max 25 total',
        [...TWO_ADULTS, { kind: 'title', is: ['Courtside'] }, { kind: 'date', dates: ['2026-11-23'] }],
        'blocked',
      ),
      startHost,
    );
    expect(report.booking).toBeNull();
    expect(report.status).toBe('blocked');
    expect(report.message).toContain('over your limit of 25');
  });

  it('"ideally under 25" is soft: with nothing that cheap it still books', async () => {
    const report = await runScenario(
      entry('Courtside on Monday, two adults, ideally under 25', [
        ...TWO_ADULTS,
        { kind: 'title', is: ['Courtside'] },
        { kind: 'date', dates: ['2026-11-23'] },
      ]),
      startHost,
    );
    expect(report.problems).toEqual([]);
    expect(report.booking?.movieTitle).toBe('Courtside');
  });
});
