import { defaultScenario, type Story } from '@usher/booking';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { feasibleOptions } from '../suite/optimum.ts';
import { Agent } from './agent.ts';

/*
 * One search for the whole booking: a wish the showtime decides ("the earliest comedy on Monday")
 * ranks every film that fits, not only the first one chosen. The expected showing is computed from
 * the scenario itself (every showing meeting the hard wishes), so the test holds for any catalog.
 */

async function book(goal: string) {
  const scenario = defaultScenario();
  const server = await startTestServer({ headlessHost: true, scenario });
  const said: string[] = [];
  const agent = new Agent({
    url: server.url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P12',
    mode: 'autopilot',
    returnWhenBlocked: true,
    goal,
  });
  onTestFinished(() => agent.stop());
  const result = await agent.run();
  for (const record of server.headlessHost?.protocol.view().messageHistory ?? []) {
    if (record.role === 'agent') said.push(record.text);
  }
  return { scenario, result, booking: server.headlessHost?.submitted() ?? null, said };
}

describe('one search for the whole booking', () => {
  it('books the earliest comedy of the day in any film and theater, and says why the page goes back', async () => {
    const { scenario, result, booking, said } = await book('2 adults for the earliest comedy on monday');
    const story: Story = {
      text: '',
      hard: [
        { kind: 'genre', include: ['Comedy'] },
        { kind: 'date', dates: ['2026-11-23'] },
        { kind: 'seatCount', count: 2 },
        { kind: 'ticketMix', adult: 2 },
      ],
      soft: [],
    };
    const starts = feasibleOptions(scenario, story)
      .map((o) => o.showing.time)
      .sort();
    expect(starts.length).toBeGreaterThan(1);
    // Several comedies play that day, so the earliest is not simply the first comedy's.
    const films = new Set(feasibleOptions(scenario, story).map((o) => o.showing.movieId));
    expect(films.size).toBeGreaterThan(1);

    expect(result.status).toBe('done');
    const showing = scenario.showings.find((s) => s.id === booking?.showingId);
    expect(showing?.date).toBe('2026-11-23');
    expect(showing?.time).toBe(starts[0]);
    // The page went back and forth while films were compared: one line in the chat said why, once.
    const why = said.filter((text) => text.startsWith('To find the earliest showing, I am comparing'));
    expect(why).toHaveLength(1);
  });

  it('compares the films of the one theater named: "the very last show tomorrow at Starlight, whatever it is"', async () => {
    const { scenario, result, booking } = await book(
      'the very last show tomorrow at Starlight, whatever it is. 2 adults',
    );
    const story: Story = {
      text: '',
      hard: [
        { kind: 'theater', is: ['Starlight Multiplex'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'seatCount', count: 2 },
        { kind: 'ticketMix', adult: 2 },
      ],
      soft: [],
    };
    const options = feasibleOptions(scenario, story);
    const last = options
      .map((o) => o.showing.time)
      .sort()
      .at(-1);
    // Many films play there that day; the latest is not among the first few the film list shows.
    expect(new Set(options.map((o) => o.showing.movieId)).size).toBeGreaterThan(5);
    expect(result.status).toBe('done');
    const showing = scenario.showings.find((s) => s.id === booking?.showingId);
    expect(showing?.theaterId).toBe('t-starlight');
    expect(showing?.time).toBe(last);
  }, 60_000);
});
