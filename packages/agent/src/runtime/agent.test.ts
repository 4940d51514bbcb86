import { checkBooking, defaultScenario } from '@usher/booking';
import type { StudyLogRecord, ToolDefinition, UiSpec } from '@usher/protocol';
import { readLog, startTestRelay as startTestServer, TestClient } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EpisodicLog } from '../memory/episodic.ts';
import { feasibleOptions } from '../suite/optimum.ts';
import { ORBITAL_IMAX_PAIR } from '../testing/stories.ts';
import { Agent } from './agent.ts';
import type { AgentOptions } from './agent-options.ts';
import { isPlainYes } from './asking.ts';

async function studyRoom() {
  const scenario = defaultScenario();
  const server = await startTestServer({ headlessHost: true, scenario });
  const agent = (options: Partial<AgentOptions>) =>
    new Agent({
      url: server.url,
      room: 'default',
      study: 'pilot-01',
      participant: 'P07',
      mode: 'autopilot',
      returnWhenBlocked: true,
      ...options,
    });
  return { server, scenario, agent };
}

/** Every tool call in a study log names a tool the host offered at that moment, with a reason (spec §10). */
function toolCallsFollowTheSchema(log: StudyLogRecord[]): void {
  let offered: string[] = [];
  for (const record of log) {
    const toolSchema = (record.payload as { toolSchema?: ToolDefinition[] }).toolSchema;
    if (record.direction === 'out' && toolSchema) offered = toolSchema.map((t) => t.name);
    if (record.type === 'tool.call') {
      const { toolName, reason } = record.payload as { toolName: string; reason: string };
      expect(offered, `tool.call ${toolName} at event ${record.eventIndex}`).toContain(toolName);
      expect(reason.trim().length).toBeGreaterThan(5);
    }
  }
}

describe('Agent in autopilot', () => {
  it('books what the goal asks for over real sockets, every call in the schema and with a reason', async () => {
    const { server, scenario, agent } = await studyRoom();
    const story = ORBITAL_IMAX_PAIR;
    const episodes = new EpisodicLog({ dir: null });
    const booker = agent({ goal: story.text, episodes });
    const result = await booker.run();
    expect(result.status).toBe('done');

    const booking = server.headlessHost?.submitted();
    expect(booking).not.toBeNull();
    const check = checkBooking(scenario, booking as never, story);
    expect(check.hard.filter((h) => !h.ok)).toEqual([]);

    const studyLog = readLog(`${server.logsDir}/${episodes.sessionId}.jsonl`);
    toolCallsFollowTheSchema(studyLog);
    const kinds = episodes.records.map((e) => e.kind);
    expect(kinds).toContain('plan');
    expect(kinds.filter((k) => k === 'action').length).toBe(kinds.filter((k) => k === 'outcome').length);
    // Working memory holds the plan followed last, under the id its episode was written with.
    const lastPlan = episodes.records.findLast((e) => e.kind === 'plan');
    expect(booker.memory.plan?.id).toBe(lastPlan && 'planId' in lastPlan ? lastPlan.planId : undefined);
    expect(booker.memory.plan?.goal).toBe(story.text);
  });

  it('asks first when it knows nothing, then books from the participant’s answer', async () => {
    const { server, agent } = await studyRoom();
    const observer = await TestClient.join(server.url, 'observer');
    const running = agent({}).run();
    const question = await observer.waitFor(
      (f) =>
        f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes('What would you like to see'),
    );
    expect(question).toBeDefined();
    server.headlessHost?.say('Second Helpings on Monday evening, one adult ticket');
    const result = await running;
    expect(result.status).toBe('done');
    expect(server.headlessHost?.submitted()).toMatchObject({
      movieTitle: 'Second Helpings',
      date: '2026-11-23',
      tickets: [{ typeId: 'adult', quantity: 1 }],
    });
  });

  it('stops and says which wish cannot be met, rather than guessing', async () => {
    const { server, agent } = await studyRoom();
    const observer = await TestClient.join(server.url, 'observer');
    const result = await agent({ goal: 'Paper Lanterns in IMAX tomorrow, two adults' }).run();
    expect(result.status).toBe('blocked');
    expect(result.message).toMatch(/IMAX/);
    expect(server.headlessHost?.submitted()).toBeNull();
    const said = await observer.waitFor(
      (f) => f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes('relax'),
    );
    expect(said).toBeDefined();
  });
});

describe('The study’s day', () => {
  it('reads "tomorrow" against the day the host gave, not the machine’s clock, also while no booking stage is loaded', async () => {
    const { server, agent } = await studyRoom();
    const lines: string[] = [];
    // The machine's clock is on another day than the scenario's (Saturday 2026-11-21).
    const booker = agent({ now: () => new Date('2027-06-30T12:00:00Z'), log: (line) => lines.push(line) });
    onTestFinished(() => booker.close());
    await booker.start();
    const first = await booker.instruct({ text: ORBITAL_IMAX_PAIR.text });
    expect(first.status).toBe('done');
    expect(server.headlessHost?.submitted()).toMatchObject({ date: '2026-11-22' });
    // The booking is submitted: the host shows no booking stage while the next wish is read.
    const next = await booker.instruct({ text: 'Two adults for Paper Lanterns tomorrow' });
    expect(next.model.hard).toContainEqual({ kind: 'date', dates: ['2026-11-22'] });
    expect(lines.join('\n')).not.toMatch(/machine's clock/);
  });
});

describe('The agent in a study’s condition', () => {
  it('paces its actions, leaves the page-tuning tools alone when told, and books only after the participant’s yes in the chat', async () => {
    const { server, agent } = await studyRoom();
    const host = server.headlessHost as NonNullable<typeof server.headlessHost>;
    const observer = await TestClient.join(server.url, 'observer');
    const booker = agent({
      goal: ORBITAL_IMAX_PAIR.text,
      paceMs: 30,
      pageTools: false,
      confirmInChat: true,
      returnWhenBlocked: false,
    });
    onTestFinished(() => booker.stop());
    const running = booker.run();
    const asked = await observer.waitFor(
      (f) => f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes('Shall I book it?'),
      15_000,
    );
    expect(asked).toBeDefined();
    expect(host.submitted()).toBeNull();
    host.say('no');
    await observer.waitFor(
      (f) => f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes('I have not booked it'),
      8000,
    );
    expect(host.submitted()).toBeNull();
    host.say('yes please');
    const result = await running;
    expect(result.status).toBe('done');
    expect(host.submitted()).toMatchObject({ movieTitle: 'Orbital Drift', format: 'IMAX' });
    const calls = observer.frames.filter(
      (f) => f.type === 'state.updated' && f.payload.source === 'agent' && f.payload.action,
    );
    const tools = calls.map((f) => (f.payload.action as { toolName: string }).toolName);
    expect(tools.filter((t) => ['filter', 'sort', 'highlight', 'augment', 'clearModification'].includes(t))).toEqual(
      [],
    );
    expect(tools.at(-1)).toBe('next');
  });

  it('reads a plain yes as a yes, and anything hedged as not', () => {
    for (const yes of ['yes', 'Yes please', 'ok', 'Sure, go ahead', 'book it']) expect(isPlainYes(yes), yes).toBe(true);
    for (const no of ['no', 'yes but make it 3 tickets', 'not yet', 'wait', 'actually IMAX', 'maybe'])
      expect(isPlainYes(no), no).toBe(false);
  });
});

describe('Agent in assist mode', () => {
  it('marks and explains what fits, selects only what was clearly asked for, and lets the participant book', async () => {
    const { server, agent } = await studyRoom();
    const host = server.headlessHost as NonNullable<typeof server.headlessHost>;
    const observer = await TestClient.join(server.url, 'observer');
    const running = agent({
      mode: 'assist',
      goal: 'Two adults for Orbital Drift tomorrow evening in IMAX, seats together',
      returnWhenBlocked: false,
    }).run();
    const agentSays = (text: string) =>
      observer.waitFor(
        (f) => f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes(text),
        8000,
      );
    const onStage = (stage: string) =>
      observer.waitFor((f) => f.type === 'state.updated' && (f.payload.uiSpec as UiSpec | null)?.stage === stage, 8000);
    const marked = () => host.view().uiSpec?.modification.highlight?.itemIds ?? [];

    // Named title and day: the agent selects them itself; theaters and times it only marks.
    await onStage('theater');
    await agentSays('I marked what fits your wishes');
    expect(marked().length).toBeGreaterThan(0);
    expect(host.view().uiSpec?.modification.augment?.length).toBeGreaterThan(0);
    host.act('select', { itemId: marked()[0] });
    host.act('next');
    await onStage('time');
    expect(host.view().uiSpec?.state.booking?.date).toBe('2026-11-22');
    await observer.waitFor(
      (f) =>
        f.type === 'state.updated' &&
        ((f.payload.uiSpec as UiSpec | null)?.modification.highlight?.itemIds.length ?? 0) > 0 &&
        (f.payload.uiSpec as UiSpec).stage === 'time',
      8000,
    );
    const time = marked()[0] as string;
    expect(host.view().uiSpec?.visibleItems.find((i) => i.id === time)).toMatchObject({ format: 'IMAX' });
    host.act('select', { itemId: time });
    host.act('next');
    await onStage('seat');
    await observer.waitFor(
      (f) =>
        f.type === 'state.updated' &&
        (f.payload.uiSpec as UiSpec | null)?.stage === 'seat' &&
        ((f.payload.uiSpec as UiSpec).modification.highlight?.itemIds.length ?? 0) === 2,
      8000,
    );
    for (const seat of marked()) host.act('select', { itemId: seat });
    host.act('next');
    await observer.waitFor(
      (f) => f.type === 'state.updated' && (f.payload.uiSpec as UiSpec | null)?.state.quantities?.adult === 2,
      8000,
    );
    host.act('next');
    await agentSays('check the summary and confirm');
    expect(host.submitted()).toBeNull();
    host.act('next');
    const result = await running;
    expect(result.status).toBe('done');
    expect(host.submitted()).toMatchObject({ movieTitle: 'Orbital Drift', date: '2026-11-22', format: 'IMAX' });
  });
});

describe('A pick among equals, and new wishes', () => {
  it('forgets a theater picked among equals once a new wish makes the theaters unequal, and books without going round', async () => {
    const { server, agent } = await studyRoom();
    const booker = agent({});
    onTestFinished(() => booker.close());
    await booker.start();
    const asked: string[] = [];
    // Whoever gives the instruction picks the last of the equal options offered.
    const pick = async (q: { title: string; items: { id: string }[] }) => {
      asked.push(q.title);
      return [q.items.at(-1)?.id ?? ''];
    };
    const first = await booker.instruct({
      text: 'Two adults for Orbital Drift tomorrow',
      pick,
      confirmSubmit: async () => false,
    });
    expect(asked.length).toBeGreaterThan(0);
    expect(first.status).not.toBe('done');
    const second = await booker.instruct({
      text: 'actually, the earliest showing of it instead',
      pick,
      confirmSubmit: async () => true,
    });
    expect(second.status).toBe('done');
    expect(second.message ?? '').not.toMatch(/keep coming back/);
    const booked = server.headlessHost?.submitted();
    const story = {
      text: '',
      hard: [
        { kind: 'title' as const, is: ['Orbital Drift'] },
        { kind: 'date' as const, dates: ['2026-11-22'] },
        { kind: 'seatCount' as const, count: 2 },
      ],
      soft: [{ kind: 'earliest' as const }],
    };
    expect(booked && checkBooking(defaultScenario(), booked, story).satisfied).toBe(true);
    const starts = feasibleOptions(defaultScenario(), story).map((o) => `${o.showing.date} ${o.showing.time}`);
    expect(`${booked?.date} ${booked?.time}`).toBe([...starts].sort()[0]);
  }, 60_000);
});

describe('A wish about the showing loosened after the page passed it', () => {
  it('"actually forget IMAX … still the earliest": the earliest showing is searched again, in any format', async () => {
    const { server, agent } = await studyRoom();
    const booker = agent({});
    onTestFinished(() => booker.close());
    await booker.start();
    const first = await booker.instruct({
      text: 'Deep Blue Cities in IMAX tomorrow, 2 adults, the earliest one please',
      confirmSubmit: async () => false,
    });
    expect(first.status).not.toBe('done');
    const second = await booker.instruct({
      text: "actually forget IMAX, I don't care what format it is. still the earliest showing",
      confirmSubmit: async () => true,
    });
    expect(second.status).toBe('done');
    const story = {
      text: '',
      hard: [
        { kind: 'title' as const, is: ['Deep Blue Cities'] },
        { kind: 'date' as const, dates: ['2026-11-22'] },
        { kind: 'seatCount' as const, count: 2 },
      ],
      soft: [{ kind: 'earliest' as const }],
    };
    const booked = server.headlessHost?.submitted();
    const options = feasibleOptions(defaultScenario(), story);
    const imax = options
      .filter((o) => o.showing.format === 'IMAX')
      .map((o) => o.showing.time)
      .sort();
    const any = options.map((o) => o.showing.time).sort();
    // Another format starts earlier than the earliest IMAX showing, so the IMAX one is no longer the best.
    expect(any[0]).not.toBe(imax[0]);
    expect(booked?.time).toBe(any[0]);
  }, 60_000);
});
