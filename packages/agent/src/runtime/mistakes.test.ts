import { defaultScenario, type SubmittedBooking } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { MistakeRecord, ScriptedMistake } from '../planning/mistakes.ts';
import { withinLimit } from '../testing/bounded.ts';
import { FaultyHost } from '../testing/faulty-host.ts';
import { Agent } from './agent.ts';
import type { AgentOptions } from './agent-options.ts';

/*
 * Scripted mistakes on the real agent, relay and sockets: the agent chooses wrong once, says
 * nothing of it, books on with it unless the participant speaks, and without a script books as
 * it always does. In the default world, Orbital Drift on Sunday 22 Nov in IMAX after 17:00 at
 * Riverside starts 19:30 at best, and the next IMAX one there at 22:40; Monday is the next day offered.
 */

const GOAL = 'Two adults for Orbital Drift tomorrow evening after 5pm in IMAX, seats together';

async function run(mistakes: ScriptedMistake[] | null, extra: Partial<AgentOptions> = {}, host?: FaultyHost) {
  const server = await startTestRelay();
  const page = host ?? (await FaultyHost.join({ url: server.url, scenario: defaultScenario() }));
  onTestFinished(() => page.close());
  const made: MistakeRecord[] = [];
  const agent = new Agent({
    url: server.url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P01',
    mode: 'autopilot',
    goal: GOAL,
    returnWhenBlocked: true,
    ...(mistakes && {
      mistakes: {
        mistakes,
        onMistake: (r) => {
          made.push(r);
        },
      },
    }),
    ...extra,
  });
  onTestFinished(() => agent.stop());
  const result = await withinLimit(agent.run(), 20_000);
  return { result, made, booking: page.protocol.engine.submitted() as SubmittedBooking | null, page };
}

describe('scripted mistakes', () => {
  it('without a script the agent books the best showing, the right day and seats together', async () => {
    const { result, made, booking } = await run(null);
    expect(result.status).toBe('done');
    expect(made).toEqual([]);
    expect(booking).toMatchObject({ date: '2026-11-22', showingId: 'sh-riverside-1122-1930' });
  });

  it('later-showing: takes the IMAX showing nearest an hour later, keeps it and books it', async () => {
    const { result, made, booking } = await run([{ id: 'late', kind: 'later-showing', stage: 'time' }]);
    expect(result.status).toBe('done');
    expect(made).toEqual([
      {
        mistakeId: 'late',
        kind: 'later-showing',
        stage: 'time',
        chosen: { showing: 'sh-riverside-1122-2240', label: '22:40 · IMAX' },
        truth: { showing: 'sh-riverside-1122-1930', label: '19:30 · IMAX' },
      },
    ]);
    expect(booking?.showingId).toBe('sh-riverside-1122-2240');
  });

  it('next-day: takes the day after, which breaks the wish for tomorrow, and does not notice on its own', async () => {
    const { made, booking } = await run([{ id: 'day', kind: 'next-day', stage: 'date' }]);
    expect(made.map((m) => [m.chosen, m.truth])).toEqual([
      [
        { date: '2026-11-23', label: 'Mon 23 Nov' },
        { date: '2026-11-22', label: 'Sun 22 Nov' },
      ],
    ]);
    expect(booking?.date).toBe('2026-11-23');
  });

  it('seats-apart: as many seats, not side by side, booked as they are', async () => {
    const { made, booking } = await run([{ id: 'apart', kind: 'seats-apart', stage: 'seat' }]);
    expect(made).toHaveLength(1);
    const [mistake] = made as [MistakeRecord];
    const chosen = (mistake.chosen as { seats: string[] }).seats;
    const truth = (mistake.truth as { seats: string[] }).seats;
    expect(chosen).toHaveLength(2);
    expect(chosen).not.toEqual(truth);
    const numbers = chosen.map((id) => Number(id.slice(1)));
    expect(Math.abs((numbers[0] as number) - (numbers[1] as number))).toBeGreaterThan(1);
    expect((booking?.seats ?? []).map((seat) => seat.id).sort()).toEqual([...chosen].sort());
  });

  it('a mistake whose plan was dropped while its record was written (the page changed) is still made, recorded once', async () => {
    const server = await startTestRelay();
    const page = await FaultyHost.join({ url: server.url, scenario: defaultScenario() });
    const made: MistakeRecord[] = [];
    const agent = new Agent({
      url: server.url,
      room: 'default',
      study: 'pilot-01',
      participant: 'P01',
      mode: 'autopilot',
      goal: GOAL,
      returnWhenBlocked: true,
      mistakes: {
        mistakes: [{ id: 'late', kind: 'later-showing', stage: 'time' }],
        // A record written elsewhere (a supervisor in another thread) while the participant says
        // "ok": the plan that makes the mistake was made on a page that has changed since.
        onMistake: async (r) => {
          made.push(r);
          page.say('ok');
          await new Promise((resolve) => setTimeout(resolve, 200));
        },
      },
    });
    onTestFinished(() => {
      agent.stop();
      page.close();
    });
    await withinLimit(agent.run(), 20_000);
    expect(made.map((m) => m.mistakeId)).toEqual(['late']);
    expect(page.protocol.engine.submitted()?.showingId).toBe('sh-riverside-1122-2240');
  });

  it('a mistake already made in this task (an earlier run of the agent) is not made again', async () => {
    const server = await startTestRelay();
    const page = await FaultyHost.join({ url: server.url, scenario: defaultScenario() });
    const made: MistakeRecord[] = [];
    const agent = new Agent({
      url: server.url,
      room: 'default',
      study: 'pilot-01',
      participant: 'P01',
      mode: 'autopilot',
      goal: GOAL,
      returnWhenBlocked: true,
      mistakes: {
        mistakes: [{ id: 'day', kind: 'next-day', stage: 'date' }],
        made: new Set(['day']),
        onMistake: (r) => {
          made.push(r);
        },
      },
    });
    onTestFinished(() => {
      agent.stop();
      page.close();
    });
    await withinLimit(agent.run(), 20_000);
    expect(made).toEqual([]);
    expect(page.protocol.engine.submitted()?.date).toBe('2026-11-22');
  });

  it("the participant's words after the mistake make the agent judge it again: it goes back to the right day", async () => {
    const server = await startTestRelay();
    const page = await FaultyHost.join({ url: server.url, scenario: defaultScenario() });
    onTestFinished(() => page.close());
    const made: MistakeRecord[] = [];
    const agent = new Agent({
      url: server.url,
      room: 'default',
      study: 'pilot-01',
      participant: 'P01',
      mode: 'autopilot',
      goal: GOAL,
      confirmInChat: true,
      mistakes: {
        mistakes: [{ id: 'day', kind: 'next-day', stage: 'date' }],
        onMistake: (r) => {
          made.push(r);
        },
      },
    });
    onTestFinished(() => agent.stop());
    const running = agent.run();
    const asks = () => page.protocol.view().messageHistory.filter((m) => m.text.includes('Shall I book it?')).length;
    const until = (test: () => boolean) =>
      withinLimit(
        (async () => {
          while (!test()) await new Promise((r) => setTimeout(r, 20));
        })(),
        20_000,
      );
    await until(() => asks() === 1);
    expect(page.protocol.view().uiSpec?.state.booking?.date).toBe('2026-11-23');
    page.say('That is the wrong day, I said tomorrow!');
    await until(() => asks() === 2);
    expect(page.protocol.view().uiSpec?.state.booking?.date).toBe('2026-11-22');
    page.say('yes');
    await withinLimit(running, 20_000);
    expect(made).toHaveLength(1);
    expect(page.protocol.engine.submitted()?.date).toBe('2026-11-22');
  });
});
