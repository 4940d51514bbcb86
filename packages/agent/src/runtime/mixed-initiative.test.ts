import { join } from 'node:path';
import { checkBooking, defaultScenario, type Story, type SubmittedBooking } from '@usher/booking';
import type { Item, StudyLogRecord } from '@usher/protocol';
import { readLog, startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { withinLimit } from '../testing/bounded.ts';
import { FaultyHost, type FaultyHostOptions, nthCall } from '../testing/faulty-host.ts';
import { ORBITAL_IMAX_PAIR } from '../testing/stories.ts';
import { Agent } from './agent.ts';
import type { AgentOptions, AgentResult } from './agent-options.ts';

/*
 * Mixed initiative: the participant writes or clicks while the agent is
 * at work. The host holds one of the agent's tool calls so that the participant acts while that
 * call waits, then lets it through; everything goes over a real relay and real sockets.
 */

/** How long a run may take before the test calls it a hang. */
const RUN_LIMIT_MS = 20_000;

async function room(options: Omit<FaultyHostOptions, 'url' | 'scenario'>) {
  const server = await startTestServer();
  const host = await FaultyHost.join({ url: server.url, scenario: defaultScenario(), ...options });
  onTestFinished(() => host.close());
  return { server, host };
}

function agentOn(url: string, options: Partial<AgentOptions>): Agent {
  const agent = new Agent({
    url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P09',
    mode: 'autopilot',
    returnWhenBlocked: true,
    // A held call is let through as soon as the participant has acted: never near this limit.
    requestTimeoutMs: 10_000,
    ...options,
  });
  onTestFinished(() => agent.stop());
  return agent;
}

const bounded = (run: Promise<AgentResult>) => withinLimit(run, RUN_LIMIT_MS);

/** The study log the relay wrote for the session this host served. */
async function studyLogOf(host: FaultyHost, logsDir: string): Promise<StudyLogRecord[]> {
  const start = await host.waitFor((m) => m.type === 'session.start');
  const sessionId = start.type === 'session.start' ? start.payload.sessionId : undefined;
  return readLog(join(logsDir, `${sessionId}.jsonl`));
}

/** The tool calls the study log holds after the participant's first action in the UI. */
function callsAfterParticipantActed(log: StudyLogRecord[]): Array<{ toolName: string; itemId?: unknown }> {
  const acted = log.findIndex(
    (r) =>
      r.type === 'state.updated' &&
      (r.payload as { source?: string; action?: unknown }).action !== undefined &&
      (r.payload as { source?: string }).source === 'user',
  );
  expect(acted, 'the participant acted').toBeGreaterThan(-1);
  return log
    .slice(acted + 1)
    .filter((r) => r.type === 'tool.call')
    .map((r) => {
      const { toolName, params } = r.payload as { toolName: string; params?: { itemId?: unknown } };
      return { toolName, itemId: params?.itemId };
    });
}

function expectBookingMeets(booking: SubmittedBooking | null, story: Story): SubmittedBooking {
  expect(booking).not.toBeNull();
  const check = checkBooking(defaultScenario(), booking as SubmittedBooking, story);
  expect(check.hard.filter((h) => !h.ok)).toEqual([]);
  return booking as SubmittedBooking;
}

const agentMessages = (host: FaultyHost) =>
  host.received.flatMap((m) => (m.type === 'agent.message' ? [m.payload.text] : []));

/** Every call named a tool of the toolSchema the host had sent last, with a reason (spec §10). */
function expectCallsWithinSchema(host: FaultyHost): void {
  for (const call of host.calls) {
    expect(call.offered, `tool.call #${call.index} ${call.toolName} on the ${call.stage} stage`).toContain(
      call.toolName,
    );
    expect(call.reason.trim()).not.toBe('');
  }
}

describe('the participant writes mid-flow, over real sockets', () => {
  it('books the new format when the participant says "actually make it 3D" while seats are being chosen, and says what it understood', async () => {
    const { server, host } = await room({ hold: nthCall('select', 1, 'seat') });
    const running = bounded(
      agentOn(server.url, { goal: 'Two adults for Iron Meridian tomorrow evening, seats together, not in 3D' }).run(),
    );
    running.catch(() => {}); // awaited below; not an unhandled rejection meanwhile

    await host.nextHeld();
    // The agent had chosen a Standard showing, as first asked.
    expect(host.protocol.view().uiSpec?.state.booking?.showing?.format).toBe('Standard');
    host.say('Actually make it 3D');
    host.release();
    const result = await running;

    expect(result.status).toBe('done');
    const story: Story = {
      text: 'Two adults for Iron Meridian tomorrow evening in 3D, seats together',
      hard: [
        { kind: 'title', is: ['Iron Meridian'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'startTime', after: '17:00' },
        { kind: 'format', is: ['3D'] },
        { kind: 'seatCount', count: 2 },
        { kind: 'adjacent' },
        { kind: 'ticketMix', adult: 2 },
      ],
      soft: [],
    };
    expectBookingMeets(host.protocol.engine.submitted(), story);
    // What it understood, said in the chat after the participant wrote.
    const understood = agentMessages(host).filter((t) => t.startsWith('Understood'));
    expect(understood.at(-1)).toMatch(/Iron Meridian, 3D,/);
    expectCallsWithinSchema(host);
  });

  it('reads a theater the participant names on the theater stage, even in lower case', async () => {
    const { server, host } = await room({ hold: nthCall('select', 1, 'theater') });
    const running = bounded(agentOn(server.url, { goal: 'Two adults for Orbital Drift tomorrow evening' }).run());
    running.catch(() => {});

    await host.nextHeld();
    expect(host.protocol.view().uiSpec?.stage).toBe('theater');
    host.say('starlight multiplex please');
    host.release();
    const result = await running;

    expect(result.status).toBe('done');
    expect(host.protocol.engine.submitted()?.theaterName).toBe('Starlight Multiplex');
    expect(
      agentMessages(host)
        .filter((t) => t.startsWith('Understood'))
        .at(-1),
    ).toMatch(/Starlight Multiplex/);
    expectCallsWithinSchema(host);
  });

  it('books another film on another day when the participant names them mid-flow ("make it Night Ledger on Monday")', async () => {
    const { server, host } = await room({ hold: nthCall('select', 1, 'seat') });
    const running = bounded(
      agentOn(server.url, { goal: 'Two adults for Orbital Drift tomorrow evening, seats together' }).run(),
    );
    running.catch(() => {});

    await host.nextHeld();
    expect(host.protocol.view().uiSpec?.state.booking?.movie?.title).toBe('Orbital Drift');
    host.say('Actually, make it Night Ledger on Monday');
    host.release();
    const result = await running;

    expect(result.status).toBe('done');
    const booking = expectBookingMeets(host.protocol.engine.submitted(), {
      text: 'Two adults for Night Ledger on Monday evening, seats together',
      hard: [
        { kind: 'title', is: ['Night Ledger'] },
        { kind: 'date', dates: ['2026-11-23'] },
        { kind: 'startTime', after: '17:00' },
        { kind: 'seatCount', count: 2 },
        { kind: 'adjacent' },
        { kind: 'ticketMix', adult: 2 },
      ],
      soft: [],
    });
    expect(booking.movieTitle).toBe('Night Ledger');
    expect(
      agentMessages(host)
        .filter((t) => t.startsWith('Understood'))
        .at(-1),
    ).toMatch(/Night Ledger.*Mon 23 Nov/);
    expectCallsWithinSchema(host);
  });
});

describe('the participant answers when the agent is stuck, over real sockets', () => {
  it('books after a new wish reopens the options that were ruled out under the old one', async () => {
    const { server, host } = await room({});
    const running = bounded(
      agentOn(server.url, {
        goal: 'Two adults for Orbital Drift tomorrow evening in 3D, seats together',
        returnWhenBlocked: false,
      }).run(),
    );
    running.catch(() => {});

    // Orbital Drift has no 3D showing: the agent looks through the theaters and days, then says so.
    const stuck = await host.waitFor((m) => m.type === 'agent.message' && /could not find/.test(m.payload.text));
    expect(stuck.type === 'agent.message' && stuck.payload.text).toMatch(/3D/);
    expect(host.calls.filter((c) => c.toolName === 'prev').length).toBeGreaterThan(0);
    host.say('IMAX is fine then');
    const result = await running;

    expect(result.status).toBe('done');
    expectBookingMeets(host.protocol.engine.submitted(), ORBITAL_IMAX_PAIR);
    expectCallsWithinSchema(host);
  });
});

describe('the participant clicks mid-flow, over real sockets', () => {
  it('keeps the theater the participant picked while the agent was moving on, and books there', async () => {
    const { server, host } = await room({ hold: nthCall('next', 1, 'theater') });
    const running = bounded(agentOn(server.url, { goal: ORBITAL_IMAX_PAIR.text }).run());
    running.catch(() => {});

    await host.nextHeld();
    const agentsTheater = host.protocol.view().uiSpec?.state.selected;
    const theirs = agentsTheater === 't-riverside' ? 't-starlight' : 't-riverside';
    host.act('select', { itemId: theirs });
    host.release();
    const result = await running;

    expect(result.status).toBe('done');
    const booking = expectBookingMeets(host.protocol.engine.submitted(), ORBITAL_IMAX_PAIR);
    expect(booking.theaterId).toBe(theirs);
    // Nothing after their click went back to the theater stage or chose a theater.
    const after = callsAfterParticipantActed(await studyLogOf(host, server.logsDir));
    expect(after.filter((c) => c.toolName === 'select' && String(c.itemId).startsWith('t-'))).toEqual([]);
    // The held next was planned before their click: the page refused it, and the agent moved on from their theater.
    const heldAt = host.calls.findIndex((c) => c.fate === 'released');
    expect(host.sent.some((m) => m.type === 'error' && /planned on revision/.test(m.payload.message))).toBe(true);
    expect(
      host.calls
        .slice(heldAt + 1)
        .filter((c) => c.stage === 'theater')
        .map((c) => c.toolName),
    ).toEqual(['next']);
    expectCallsWithinSchema(host);
  });

  it('keeps a seat the participant clicked, frees its own seat instead, and books seats together with theirs', async () => {
    const { server, host } = await room({ hold: nthCall('select', 1, 'seat') });
    const running = bounded(agentOn(server.url, { goal: ORBITAL_IMAX_PAIR.text }).run());
    running.catch(() => {});

    const held = await host.nextHeld();
    const spec = host.protocol.view().uiSpec;
    const agentsSeat = String(held.params.itemId);
    const theirs = seatWithFreeNeighbour(spec?.visibleItems ?? [], agentsSeat, spec?.meta?.aisleAfter);
    host.act('select', { itemId: theirs });
    host.release();
    const result = await running;

    expect(result.status).toBe('done');
    const booking = expectBookingMeets(host.protocol.engine.submitted(), ORBITAL_IMAX_PAIR);
    expect(booking.seats.map((s) => s.id)).toContain(theirs);
    expect(booking.seats.map((s) => s.id)).not.toContain(agentsSeat);
    // No tool call after their click touched their seat (select toggles: that would drop it).
    const after = callsAfterParticipantActed(await studyLogOf(host, server.logsDir));
    expect(after.filter((c) => c.itemId === theirs)).toEqual([]);
    // The agent's held seat was planned before their click: the page refused it rather than hold three seats.
    expect(host.sent.some((m) => m.type === 'error' && /planned on revision/.test(m.payload.message))).toBe(true);
    expectCallsWithinSchema(host);
  });
});

describe('assist mode with the participant choosing, over real sockets', () => {
  it('selects only the film the participant named and the day they asked for; their theater, showtime and seats stand', async () => {
    const { server, host } = await room({});
    const running = bounded(
      agentOn(server.url, {
        mode: 'assist',
        goal: 'Two adults tomorrow evening, seats together',
        returnWhenBlocked: false,
      }).run(),
    );
    running.catch(() => {});
    /** Resolves once the agent has written a message matching `pattern` since `from` frames. */
    const agentSays = (pattern: RegExp, from: number) =>
      host.waitFor(
        (m) => host.received.indexOf(m) >= from && m.type === 'agent.message' && pattern.test(m.payload.text),
      );
    const stage = () => host.protocol.view().uiSpec?.stage;
    const marked = () => host.protocol.view().uiSpec?.modification.highlight?.itemIds ?? [];

    // No film named: the agent looks at when the films play (the list cannot show it), marks those
    // with a showing tomorrow evening, and leaves none selected.
    await agentSays(/^I marked what fits your wishes: /, 0);
    expect(stage()).toBe('movie');
    expect(host.protocol.view().uiSpec?.state.selected).toBeUndefined();
    // The participant names one in the chat: now it is clearly chosen, and the agent selects it.
    let from = host.received.length;
    const looked = host.calls.length;
    host.say('Night Ledger please');
    await agentSays(/I marked what fits/, from);
    expect(stage()).toBe('theater');
    expect(host.protocol.view().uiSpec?.state.booking?.movie?.title).toBe('Night Ledger');

    // The participant picks the theater themselves: the last one marked, not the agent's first.
    const theater = marked().at(-1) as string;
    from = host.received.length;
    host.act('select', { itemId: theater });
    host.act('next');
    // "Tomorrow" was asked for: the agent selects the day and moves on, then marks showtimes.
    await agentSays(/I marked what fits/, from);
    expect(stage()).toBe('time');
    expect(host.protocol.view().uiSpec?.state.booking?.date).toBe('2026-11-22');
    const time = marked()[0] as string;
    from = host.received.length;
    host.act('select', { itemId: time });
    host.act('next');
    await agentSays(/I marked what fits/, from);
    expect(stage()).toBe('seat');
    const seats = [...marked()];
    expect(seats.length).toBe(2);
    for (const seat of seats) host.act('select', { itemId: seat });
    from = host.received.length;
    host.act('next');
    // Two adults were asked for: the agent sets them; the participant goes on and submits.
    await agentSays(/tickets you asked for/, from);
    from = host.received.length;
    host.act('next');
    await agentSays(/check the summary and confirm/, from);
    expect(host.protocol.engine.submitted()).toBeNull();
    host.act('next');
    const result = await running;

    expect(result.status).toBe('done');
    const booking = host.protocol.engine.submitted() as SubmittedBooking;
    expect(booking).toMatchObject({
      movieTitle: 'Night Ledger',
      theaterId: theater,
      showingId: time,
      date: '2026-11-22',
    });
    expect(booking.seats.map((s) => s.id).sort()).toEqual([...seats].sort());
    // The agent's own selections once the film was named: that film and the day asked for, nothing
    // else; it never went back. (Its look ahead before, at where the films play, left none selected.)
    const since = host.calls.slice(looked);
    const selects = since.filter((c) => c.toolName === 'select').map((c) => [c.stage, c.params.itemId]);
    expect(selects).toEqual([
      ['movie', 'm-night-ledger'],
      ['date', '2026-11-22'],
    ]);
    expect(since.filter((c) => c.toolName === 'prev')).toEqual([]);
    expect(since.filter((c) => c.toolName === 'next').map((c) => c.stage)).toEqual(['movie', 'date']);
    expectCallsWithinSchema(host);
  });
});

/**
 * A free seat the participant can click: not in the agent's row, with a free neighbour on the
 * same side of every aisle, so that a pair with it exists.
 */
function seatWithFreeNeighbour(items: readonly Item[], agentsSeat: string, aisleAfter: unknown): string {
  const aisles = Array.isArray(aisleAfter) ? aisleAfter.map(Number) : [];
  const free = new Map(items.filter((i) => !i.isDisabled).map((i) => [`${i.row}${i.number}`, i]));
  const agentsRow = items.find((i) => i.id === agentsSeat)?.row;
  for (const item of free.values()) {
    const n = Number(item.number);
    if (item.row === agentsRow || aisles.includes(n)) continue;
    if (free.has(`${item.row}${n + 1}`)) return item.id;
  }
  throw new Error('no free seat with a free neighbour');
}
