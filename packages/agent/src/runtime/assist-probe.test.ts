import { defaultScenario, type Story } from '@usher/booking';
import { startTestRelay as startTestServer, TestClient } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { feasibleOptions } from '../suite/optimum.ts';
import { Agent } from './agent.ts';

/*
 * Assist mode on the movie stage, with wishes the film list cannot show (a theater, a format): the
 * agent looks at where each of the best films plays, comes back, and marks only films that have a
 * showing that fits, computed here from the scenario itself. It books nothing.
 */

/** The agent in assist mode on Usher's headless host with `goal`, once it has marked what fits. */
async function markedFor(goal: string) {
  const scenario = defaultScenario();
  const server = await startTestServer({ headlessHost: true, scenario });
  const host = server.headlessHost as NonNullable<typeof server.headlessHost>;
  const observer = await TestClient.join(server.url, 'observer');
  const agent = new Agent({
    url: server.url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P13',
    mode: 'assist',
    goal,
  });
  onTestFinished(() => agent.stop());
  agent.run().catch(() => {});
  await observer.waitFor(
    (f) => f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes('I marked what fits'),
    20_000,
  );
  return { scenario, host };
}

describe('assist mode looks ahead when the film list cannot show what the wishes depend on', () => {
  it('marks only films with a fitting showing at the theater and in the format asked for, and books nothing', async () => {
    const { scenario, host } = await markedFor('what is on in 3D at Grand Central tomorrow? two of us');
    const story: Story = {
      text: '',
      hard: [
        { kind: 'theater', is: ['Grand Central Cinema'] },
        { kind: 'format', is: ['3D'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'seatCount', count: 2 },
      ],
      soft: [],
    };
    const fitting = new Set(feasibleOptions(scenario, story).map((o) => o.showing.movieId));
    const spec = host.view().uiSpec;
    expect(spec?.stage).toBe('movie');
    const marked = spec?.modification.highlight?.itemIds ?? [];
    expect(marked.length).toBeGreaterThan(0);
    for (const film of marked) expect(fitting).toContain(film);
    // No film is left selected (the look ahead undid its last choice), and nothing was booked.
    expect(spec?.state.selected).toBeUndefined();
    expect(spec?.state.booking?.movie).toBeUndefined();
    expect(host.submitted()).toBeNull();
    // Without looking ahead, the best films by what the list shows would have been marked: some do not play there.
    const films = scenario.movies.map((m) => m.id);
    expect(films.some((f) => !fitting.has(f))).toBe(true);
  }, 30_000);

  it('looks ahead for a day and a part of the day too: only films playing then are marked', async () => {
    const { scenario, host } = await markedFor(
      "anything G or PG on monday morning? two of us. just show me, I'll book it myself",
    );
    const story: Story = {
      text: '',
      hard: [
        { kind: 'ageRating', allowed: ['G', 'PG'] },
        { kind: 'date', dates: ['2026-11-23'] },
        { kind: 'startTime', before: '12:00' },
        { kind: 'seatCount', count: 2 },
      ],
      soft: [],
    };
    const fitting = new Set(feasibleOptions(scenario, story).map((o) => o.showing.movieId));
    const forKids = scenario.movies.filter((m) => m.ageRating === 'G' || m.ageRating === 'PG').map((m) => m.id);
    // The list alone would mark every film for children; some of them do not play that morning.
    expect(forKids.some((f) => !fitting.has(f))).toBe(true);
    const spec = host.view().uiSpec;
    const marked = spec?.modification.highlight?.itemIds ?? [];
    expect(marked.length).toBeGreaterThan(0);
    for (const film of marked) expect(fitting).toContain(film);
    expect(spec?.state.selected).toBeUndefined();
    expect(host.submitted()).toBeNull();
  }, 30_000);

  it('looks ahead for a day and an evening alone: a film with no showing then is not marked', async () => {
    const { scenario, host } = await markedFor("what's on tuesday evening? two of us, just show me");
    const story: Story = {
      text: '',
      hard: [
        { kind: 'date', dates: ['2026-11-24'] },
        { kind: 'startTime', after: '17:00' },
        { kind: 'seatCount', count: 2 },
      ],
      soft: [],
    };
    const fitting = new Set(feasibleOptions(scenario, story).map((o) => o.showing.movieId));
    expect(scenario.movies.some((m) => !fitting.has(m.id))).toBe(true);
    const marked = host.view().uiSpec?.modification.highlight?.itemIds ?? [];
    expect(marked.length).toBeGreaterThan(0);
    for (const film of marked) expect(fitting).toContain(film);
  }, 30_000);

  it('looks ahead for a place named before any stage lists theaters, and marks only films playing there', async () => {
    const { scenario, host } = await markedFor(
      "whats on at the lumen tomorrow evening? 2 of us. just show me, I'll book myself",
    );
    const story: Story = {
      text: '',
      hard: [
        { kind: 'theater', is: ['Lumen Arthouse'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'startTime', after: '17:00' },
        { kind: 'seatCount', count: 2 },
      ],
      soft: [],
    };
    const fitting = new Set(feasibleOptions(scenario, story).map((o) => o.showing.movieId));
    const evening = new Set(
      feasibleOptions(scenario, { ...story, hard: story.hard.filter((c) => c.kind !== 'theater') }).map(
        (o) => o.showing.movieId,
      ),
    );
    // Without the place, films that do not play at the Lumen that evening would be marked.
    expect([...evening].some((f) => !fitting.has(f))).toBe(true);
    const spec = host.view().uiSpec;
    const marked = spec?.modification.highlight?.itemIds ?? [];
    expect(marked.length).toBeGreaterThan(0);
    for (const film of marked) expect(fitting).toContain(film);
    expect(spec?.state.selected).toBeUndefined();
    expect(host.submitted()).toBeNull();
  }, 30_000);
});
