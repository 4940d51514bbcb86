import { defaultScenario, type HardConstraint } from '@usher/booking';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import { EMPTY_MODEL, updatePreferences } from '../preferences/index.ts';
import { CONTEXT } from '../preferences/testing.ts';
import { correctionFor, simulatedParticipant } from './participant.ts';
import { runScenario, type StartHost } from './run.ts';

const world = defaultScenario();

describe('the simulated participant', () => {
  const story = {
    text: 'Orbital Drift tomorrow evening, 2 tickets',
    hard: [
      { kind: 'title', is: ['Orbital Drift'] },
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'startTime', after: '17:00' },
      { kind: 'seatCount', count: 2 },
    ] as HardConstraint[],
    soft: [],
  };
  const pending = (showingId: string, movie = { id: 'm-orbital-drift', title: 'Orbital Drift' }) => {
    const showing = world.showings.find((s) => s.id === showingId);
    if (!showing) throw new Error(showingId);
    return {
      movie,
      theater: { id: showing.theaterId, name: '' },
      date: showing.date,
      showing: { id: showing.id, time: showing.time, endTime: '', format: showing.format },
      seats: ['E5', 'E6'],
      tickets: [{ typeId: 'adult', label: 'Adult', quantity: 2, unitPrice: 0 }],
    };
  };
  const showingOf = (title: string, date: string, test: (time: string) => boolean) => {
    const movie = world.movies.find((m) => m.title === title);
    const s = world.showings.find((x) => x.movieId === movie?.id && x.date === date && test(x.time));
    if (!s) throw new Error(`no showing of ${title}`);
    return s.id;
  };

  it('says yes to a booking that keeps the story', async () => {
    const participant = simulatedParticipant(world, story);
    expect(await participant.confirm('', pending(showingOf('Orbital Drift', '2026-11-22', (t) => t >= '17:00')))).toBe(
      true,
    );
    expect(participant.corrections).toEqual([]);
  });

  it('says no with a plain correction to one that breaks it, and to an incomplete one', async () => {
    const participant = simulatedParticipant(world, story);
    expect(await participant.confirm('', pending(showingOf('Orbital Drift', '2026-11-22', (t) => t < '17:00')))).toBe(
      false,
    );
    expect(participant.lastCorrection()).toBe('No, it has to start after 17:00.');
    expect(await participant.confirm('', undefined)).toBe(false);
  });

  it('corrects in words the agent reads back as the broken wishes', () => {
    const wishes: HardConstraint[] = [
      { kind: 'title', is: ['Night Ledger'] },
      { kind: 'date', dates: ['2026-11-24'] },
      { kind: 'startTime', after: '18:00', before: '21:00' },
      { kind: 'endTime', before: '22:30' },
      { kind: 'format', not: ['3D'] },
      { kind: 'seatCount', count: 3 },
      { kind: 'adjacent' },
      { kind: 'rows', notFirst: 3 },
      { kind: 'price', maxTotal: 40 },
      { kind: 'rating', min: 7 },
    ];
    for (const wish of wishes) {
      const read = updatePreferences(EMPTY_MODEL, correctionFor([wish]), CONTEXT).model.hard;
      expect(read, correctionFor([wish])).toContainEqual(wish);
    }
  });
});

describe('a suite run with the participant', () => {
  it('a booking that breaks an unsaid wish is corrected once, then booked right', async () => {
    const startHost: StartHost = async (w) => {
      const server = await startTestServer({ headlessHost: true, scenario: w });
      return {
        url: server.url,
        room: 'default',
        submitted: () => server.headlessHost?.submitted() ?? null,
        close: async () => {},
      };
    };
    // The participant's story holds a wish the text leaves out (a late start): only the correction says it.
    const story = {
      text: 'Orbital Drift tomorrow, one ticket',
      hard: [
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'seatCount', count: 1 },
        { kind: 'startTime', after: '22:00' },
      ] as HardConstraint[],
      soft: [],
    };
    const report = await runScenario(
      { file: 'late.json', world, scenario: { name: 'late', world: 'default', story, expect: 'book' } },
      startHost,
    );
    expect(report.corrections).toBe(1);
    expect(report.correctionTexts).toEqual(['No, it has to start after 22:00.']);
    expect(report.passed).toBe(true);
    expect(report.booking?.time ?? '').toMatch(/^2[2-9]:/);
  });
});
