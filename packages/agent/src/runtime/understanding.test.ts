import { defaultScenario } from '@usher/booking';
import { startTestRelay as startTestServer, TestClient } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startFakeLlm, textReply } from '../planning/llm/testing.ts';
import { Agent } from './agent.ts';
import type { AgentOptions } from './agent-options.ts';

/*
 * What the agent does with what it could not settle, and with a change of mind at the last step:
 * over real sockets, against the headless host, the participant speaking through the host's chat.
 */

async function studyRoom(options: Partial<AgentOptions>) {
  const server = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
  const host = server.headlessHost as NonNullable<typeof server.headlessHost>;
  const observer = await TestClient.join(server.url, 'observer');
  const agent = new Agent({
    url: server.url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P09',
    mode: 'autopilot',
    returnWhenBlocked: false,
    ...options,
  });
  onTestFinished(() => agent.stop());

  /** The agent's last chat message, once it contains all of `words`. */
  const agentSaid = (...words: string[]) =>
    observer.waitFor((f) => {
      if (f.type !== 'state.updated') return false;
      const history = f.payload.messageHistory as Array<{ role: string; text: string }> | undefined;
      const last = history?.findLast((m) => m.role === 'agent')?.text ?? '';
      return words.every((w) => last.includes(w));
    }, 15_000);
  return { host, agent, agentSaid };
}

describe('a wish the agent could not settle', () => {
  it('asks one short question, books nothing until it is answered, then books with the answer', async () => {
    const { host, agent, agentSaid } = await studyRoom({ goal: 'pip and the comet tomorrow for me and the kids' });
    const running = agent.run();
    expect(await agentSaid('Before I go on', 'How many tickets')).toBeDefined();
    expect(host.submitted()).toBeNull();
    host.say('one adult and two children');
    const result = await running;
    expect(result.status).toBe('done');
    const booking = host.submitted() as { movieTitle: string; tickets: Array<{ typeId: string; quantity: number }> };
    expect(booking.movieTitle).toBe('Pip and the Comet');
    expect(Object.fromEntries(booking.tickets.map((t) => [t.typeId, t.quantity]))).toEqual({ adult: 1, child: 2 });
  });
});

describe('a party nobody counted', () => {
  it('asks how many before booking, and a bare number answers it', async () => {
    const { host, agent, agentSaid } = await studyRoom({ goal: 'something funny tomorrow evening' });
    const running = agent.run();
    expect(await agentSaid('Before I go on', 'How many tickets')).toBeDefined();
    expect(host.submitted()).toBeNull();
    host.say('3');
    const result = await running;
    expect(result.status).toBe('done');
    const booking = host.submitted() as { seats: unknown[] };
    expect(booking.seats).toHaveLength(3);
  });
});

describe('a film rated for adults with a child coming', () => {
  it('asks once before choosing it, and books it after a yes', async () => {
    const { host, agent, agentSaid } = await studyRoom({ goal: 'midnight static on friday for me and my 9 year old' });
    const running = agent.run();
    expect(await agentSaid('Midnight Static is rated NC-17', 'a child is coming')).toBeDefined();
    expect(host.submitted()).toBeNull();
    host.say('yes');
    const result = await running;
    expect(result.status).toBe('done');
    const booking = host.submitted() as { movieTitle: string; tickets: Array<{ typeId: string; quantity: number }> };
    expect(booking.movieTitle).toBe('Midnight Static');
    expect(Object.fromEntries(booking.tickets.map((t) => [t.typeId, t.quantity]))).toEqual({ adult: 1, child: 1 });
  });
});

describe('a change of mind at the confirmation', () => {
  it('"scratch that, we\'d rather see Night Ledger" goes back and books Night Ledger, after saying it', async () => {
    const { host, agent, agentSaid } = await studyRoom({
      goal: 'orbital drift tomorrow evening, 2 tickets',
      confirmInChat: true,
    });
    const running = agent.run();
    expect(await agentSaid('Orbital Drift', 'Shall I book it?')).toBeDefined();
    host.say("actually scratch that, we'd rather see night ledger");
    expect(await agentSaid('Night Ledger', 'Shall I book it?')).toBeDefined();
    expect(host.submitted()).toBeNull();
    host.say('yes');
    const result = await running;
    expect(result.status).toBe('done');
    expect(host.submitted()).toMatchObject({ movieTitle: 'Night Ledger', date: '2026-11-22' });
  });
});

describe('the LLM reader, when a service is configured', () => {
  it('reads the goal (a film described, not named) and the agent books what it read', async () => {
    const fake = await startFakeLlm();
    onTestFinished(() => fake.close());
    fake.enqueue(
      textReply(
        JSON.stringify({
          hard: [
            { kind: 'title', is: ['Night Ledger'] },
            { kind: 'date', dates: ['2026-11-22'] },
            { kind: 'seatCount', count: 1 },
          ],
          soft: [],
        }),
      ),
    );
    const { host, agent } = await studyRoom({
      goal: 'the thriller about the night-shift accountant, tomorrow, one ticket',
      reader: fake.config(),
      returnWhenBlocked: true,
    });
    const result = await agent.run();
    expect(result.status).toBe('done');
    expect(fake.requests).toHaveLength(1);
    expect(host.submitted()).toMatchObject({ movieTitle: 'Night Ledger', date: '2026-11-22' });
  });
});

describe('a theater wished for by what it offers', () => {
  it('books at a theater the theater stage lists with it ("a cinema with a bar")', async () => {
    const { host, agent } = await studyRoom({ goal: '2 adults for Orbital Drift tomorrow, at a cinema with a bar' });
    const result = await agent.run();
    expect(result.status).toBe('done');
    const booking = host.submitted() as { theaterName?: string; theaterId?: string };
    expect(booking.theaterId ?? booking.theaterName).toMatch(/starlight/i);
  });
});

describe('a change of theater after the theater stage', () => {
  it('reads a theater named loosely on a later stage by the names the theater stage showed', async () => {
    const { host, agent, agentSaid } = await studyRoom({
      goal: '2 adults for Orbital Drift tomorrow evening at riverside pls',
      confirmInChat: true,
    });
    const running = agent.run();
    expect(await agentSaid('Riverside IMAX', 'Shall I book it?')).toBeDefined();
    host.say('scratch that, make it starlight instead. same film same night');
    expect(await agentSaid('Starlight Multiplex', 'Shall I book it?')).toBeDefined();
    host.say('yes');
    expect((await running).status).toBe('done');
    const booking = host.submitted() as { theaterId?: string };
    expect(booking.theaterId).toMatch(/starlight/i);
  });
});

describe('the latest showing over several days', () => {
  it('books the last screening of the weekend on its last day, not the latest of the first day', async () => {
    const { host, agent } = await studyRoom({
      goal: "What's the very last screening of Orbital Drift this weekend? 2 adults",
    });
    expect((await agent.run()).status).toBe('done');
    // Computed from the scenario: the weekend's showings of the film, the last by day and time.
    const scenario = defaultScenario();
    const film = scenario.movies.find((m) => m.title === 'Orbital Drift')?.id;
    const last = scenario.showings
      .filter((s) => s.movieId === film && ['2026-11-21', '2026-11-22'].includes(s.date))
      .map((s) => `${s.date} ${s.time}`)
      .sort()
      .at(-1);
    const booking = host.submitted() as { date: string; time: string };
    expect(`${booking.date} ${booking.time}`).toBe(last);
  });
});

/** Computed from the scenario: the nearest theater with a thriller starting from 17:00 tomorrow. */
function nearestThrillerTheater(): string | undefined {
  const scenario = defaultScenario();
  const thrillers = new Set(scenario.movies.filter((m) => m.genres.includes('Thriller')).map((m) => m.id));
  const distance = new Map(scenario.theaters.map((t) => [t.id, t.distanceKm]));
  const nearest = scenario.showings
    .filter((s) => thrillers.has(s.movieId) && s.date === '2026-11-22' && s.time >= '17:00')
    .map((s) => s.theaterId)
    .sort((a, b) => (distance.get(a) ?? 0) - (distance.get(b) ?? 0))[0];
  return nearest;
}

describe('the closest theater across films', () => {
  it('books the film that plays closest when no film is named ("a thriller … at the nearest cinema")', async () => {
    const { host, agent } = await studyRoom({
      goal: 'a thriller tomorrow evening for 2 adults, at the nearest cinema',
    });
    expect((await agent.run()).status).toBe('done');
    const nearest = nearestThrillerTheater();
    expect((host.submitted() as { theaterId: string }).theaterId).toBe(nearest);
  });
});

describe('the closest theater said after the agent chose a film', () => {
  it('looks across films again, not only at the film it had chosen', async () => {
    const { host, agent, agentSaid } = await studyRoom({
      goal: 'a thriller tomorrow evening, 2 adults',
      confirmInChat: true,
    });
    const running = agent.run();
    expect(await agentSaid('Shall I book it?')).toBeDefined();
    host.say('oh and at the closest place to us please');
    const nearest = nearestThrillerTheater();
    const scenario = defaultScenario();
    const name = scenario.theaters.find((t) => t.id === nearest)?.name ?? '?';
    expect(await agentSaid(name, 'Shall I book it?')).toBeDefined();
    host.say('yes');
    expect((await running).status).toBe('done');
    expect((host.submitted() as { theaterId: string }).theaterId).toBe(nearest);
  });
});

describe('a change of mind about what decides the film, said on the last step', () => {
  it('goes back to the films and chooses again ("changed my mind, whatever\'s rated highest")', async () => {
    const { host, agent, agentSaid } = await studyRoom({
      goal: 'book me orbital drift tomorrow evening, 1 seat',
      confirmInChat: true,
    });
    const running = agent.run();
    expect(await agentSaid('Orbital Drift', 'Shall I book it?')).toBeDefined();
    host.say("meh changed my mind. whatever's rated highest tomorrow evening instead");
    // Computed from the scenario: the best-rated film with a showing from 17:00 tomorrow.
    const scenario = defaultScenario();
    const playing = new Set(
      scenario.showings.filter((s) => s.date === '2026-11-22' && s.time >= '17:00').map((s) => s.movieId),
    );
    const best = scenario.movies.filter((m) => playing.has(m.id)).sort((a, b) => b.rating - a.rating)[0];
    expect(await agentSaid(best?.title ?? '?', 'Shall I book it?')).toBeDefined();
    host.say('yes');
    expect((await running).status).toBe('done');
    expect((host.submitted() as { movieTitle: string }).movieTitle).toBe(best?.title);
  });
});
