import { readdirSync, readFileSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { replayStudyLog } from '@usher/booking';
import { AgentFeedEventSchema, ConsoleStudySchema, ParticipantRowSchema, SessionSummarySchema } from '@usher/protocol';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { type AgentFeedEvent, AgentSupervisor } from '@usher/study-host';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { readLog, startStudyServer, startTestServer, TestClient } from '../testing/index.ts';

const SECRET = new TextEncoder().encode('a-console-test-secret-of-enough-length-0123456789');
const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
// The agents work at full speed, and each test names its participants' conditions in the link.
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};

/** The demo study on a test server (open mode unless told), with the supervisor staffing agent conditions. */
async function studyServer(access: { access: 'token'; secret: Uint8Array } | object = {}) {
  const registry = new StudyRegistry(':memory:');
  const { server, supervisor } = await startStudyServer({ ...access, study: DEMO, registry });
  return { server, registry, supervisor };
}

async function post(base: string, path: string, body: object) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A participant in `condition` (by the link), through consent, on their first task with a page of their own. */
async function participantOnTask(base: string, name: string, condition: string) {
  const link = await fetch(`${base}/s/${DEMO.id}?participant=${name}&condition=${condition}`, { redirect: 'manual' });
  const room = new URL(link.headers.get('location') as string, base).searchParams.get('room') as string;
  expect((await post(base, `/api/participant/step?room=${room}`, { step: 'consent' })).status).toBe(200);
  expect((await post(base, `/api/participant/step?room=${room}`, { step: 'start-task' })).status).toBe(200);
  const view = (await (await fetch(`${base}/api/participant?room=${room}`)).json()) as { task: { id: string } };
  const task = DEMO.tasks.find((t) => t.id === view.task.id);
  if (!task) throw new Error('no task');
  const host = await FaultyHost.join({ url: base, room, scenario: task.world });
  onTestFinished(() => host.close());
  return { room, host, task };
}

/** Reads a server-sent event stream, keeping each event. */
async function openStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const events: { event: string; data: unknown }[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
      }
    }
  })();
  onTestFinished(() => controller.abort());
  return { status: response.status, events };
}

type Row = { room: string; stage: string | null; status: string; agent: string };
const rowOf = (events: { event: string; data: unknown }[], room: string) =>
  (events.filter((e) => e.event === 'participants').at(-1)?.data as Row[] | undefined)?.find((r) => r.room === room);

/** Answers every item of the questionnaire the participant is on (the first option, the lowest point), as their page would. */
async function answerAll(base: string, room: string) {
  const view = (await (await fetch(`${base}/api/participant?room=${room}`)).json()) as {
    questionnaire: { kind: string; sections: { items: Record<string, unknown>[] }[] };
  };
  const answers: Record<string, unknown> = {};
  for (const item of view.questionnaire.sections.flatMap((section) => section.items)) {
    const first = (item.options as { value: string }[] | undefined)?.[0]?.value;
    if (item.kind === 'likert') answers[item.id as string] = item.from;
    else if (item.kind === 'single') answers[item.id as string] = first;
    else if (item.kind === 'multiple') answers[item.id as string] = [first];
    else if (item.kind === 'slider') answers[item.id as string] = 50;
  }
  const answered = await post(base, `/api/participant/questionnaire?room=${room}`, {
    questionnaire: view.questionnaire.kind,
    answers,
  });
  expect(answered.status).toBe(200);
  return answered.body as { status: string };
}

describe('the experimenter console', () => {
  it('shows a participant’s stage change live, and watching adds only the observer’s join and leave to the log', async () => {
    const { server } = await studyServer();
    const { room, host } = await participantOnTask(server.url, 'W1', 'alone');
    const stream = await openStream(`${server.url}/api/console/stream`);
    expect(stream.status).toBe(200);
    await vi.waitFor(() => expect(rowOf(stream.events, room)).toMatchObject({ status: 'booking', stage: 'movie' }));

    const logFile = () => join(server.logsDir, readdirSync(server.logsDir)[0] as string);
    const before = readLog(logFile()).length;
    const observer = await TestClient.join(server.url, 'observer', room);
    const watched = (await (await fetch(`${server.url}/api/console/rooms/${room}`)).json()) as {
      state: { uiSpec: { stage: string } };
      world: { story?: unknown };
    };
    expect(watched.state.uiSpec.stage).toBe('movie');

    const movie = host.protocol.view().uiSpec?.visibleItems[0]?.id as string;
    host.act('select', { itemId: movie });
    host.act('next');
    // Pushed, not polled: the list goes out at most every 250 ms while rooms change.
    await vi.waitFor(() => expect(rowOf(stream.events, room)?.stage).toBe('theater'), { timeout: 5000, interval: 20 });
    await vi.waitFor(() =>
      expect(observer.frames.some((f) => f.type === 'state.updated' && f.payload.source === 'user')).toBe(true),
    );
    observer.close();
    await vi.waitFor(() => expect(readLog(logFile()).some((r) => r.type === 'relay.left')).toBe(true));

    const since = readLog(logFile()).slice(before);
    const added = since.filter(
      (r) => r.peer?.startsWith('observer') || r.type === 'relay.join' || r.type === 'relay.left',
    );
    expect(added.map((r) => `${r.type} ${(r.payload as { role: string }).role}`)).toEqual([
      'relay.join observer',
      'relay.left observer',
    ]);
    // Nothing else the observer did reached the log: every other new record is the participant's booking.
    const others = since.filter((r) => !added.includes(r));
    expect(others.every((r) => r.type === 'state.updated' || r.type === 'participant.action')).toBe(true);
  }, 30_000);

  it('keeps a participant current to the end: booked with the page open, then done with the last answers', async () => {
    const { server } = await studyServer();
    const { room, host } = await participantOnTask(server.url, 'L1', 'alone');
    const stream = await openStream(`${server.url}/api/console/stream`);
    await vi.waitFor(() => expect(rowOf(stream.events, room)).toMatchObject({ status: 'booking', stage: 'movie' }));

    // The participant books on their page, and stays on it: the console says booked, not "page closed".
    for (let spec = host.protocol.view().uiSpec; spec; spec = host.protocol.view().uiSpec) {
      const free = spec.visibleItems.find((i) => !i.isDisabled)?.id;
      if (spec.stage === 'ticket') host.act('setQuantity', { typeId: 'adult', quantity: 1 });
      else if (spec.stage !== 'confirm' && spec.state.selected === undefined && free)
        host.act('select', { itemId: free });
      host.act('next');
    }
    await vi.waitFor(() => expect(rowOf(stream.events, room)).toMatchObject({ status: 'booking', stage: 'booked' }), {
      timeout: 5000,
    });

    // Then the rest of the study, the last step its post-study answers: the list follows each step.
    const step = (body: object) => post(server.url, `/api/participant/step?room=${room}`, body);
    expect((await step({ step: 'end-task', outcome: 'submitted' })).status).toBe(200);
    await answerAll(server.url, room);
    expect((await step({ step: 'start-task' })).status).toBe(200);
    expect((await step({ step: 'end-task', outcome: 'gave-up' })).status).toBe(200);
    await answerAll(server.url, room);
    await vi.waitFor(() => expect(rowOf(stream.events, room)?.status).toBe('questionnaire'));
    expect((await answerAll(server.url, room)).status).toBe('done');
    await vi.waitFor(() => expect(rowOf(stream.events, room)?.status).toBe('done'), { timeout: 5000, interval: 20 });
  }, 30_000);

  it('lets an experimenter take over from the agent mid-task, book, and hand back; the log says who did each action', async () => {
    const { server, supervisor } = await studyServer();
    const stream = await openStream(`${server.url}/api/console/stream`);
    const { room, host, task } = await participantOnTask(server.url, 'Z1', 'autopilot');
    await vi.waitFor(() => expect(supervisor.isRunning(room)).toBe(true));

    const taken = await post(server.url, `/api/console/rooms/${room}/take-over`, { reason: 'the agent misread' });
    expect(taken).toMatchObject({ status: 200, body: { paused: true } });
    expect(supervisor.isPaused(room)).toBe(true);
    const refused = await post(server.url, `/api/console/rooms/${room}/take-over`, {});
    expect(refused.status).toBe(400);

    // The console acts as the agent through the relay, as any agent would.
    const wizard = await TestClient.connect(server.url, {}, 'as=experimenter');
    const joined = await wizard.request('relay.join', { role: 'agent', sessionId: room });
    expect(joined.type).toBe('relay.joined');
    const movie = host.protocol.view().uiSpec?.visibleItems[0]?.id as string;
    const call = await wizard.request('tool.call', {
      toolName: 'select',
      params: { itemId: movie },
      reason: 'as asked',
    });
    expect(call.type).toBe('tool.result');
    wizard.send({ v: 'mvp-0.2', type: 'agent.message', payload: { text: 'I picked the first film for you.' } });
    await vi.waitFor(() =>
      expect(host.protocol.view().messageHistory.some((m) => m.text.startsWith('I picked'))).toBe(true),
    );
    wizard.close();

    const back = await post(server.url, `/api/console/rooms/${room}/hand-back`, {});
    expect(back).toMatchObject({ status: 200, body: { resumed: true } });
    await vi.waitFor(() => expect(supervisor.isRunning(room)).toBe(true));
    // The agent, handed back, books what the participant asks for.
    host.say(task.goal ?? task.title);
    await vi.waitFor(
      () => expect(host.protocol.view().messageHistory.some((m) => /Shall I book/.test(m.text))).toBe(true),
      {
        timeout: 20_000,
        interval: 50,
      },
    );
    host.say('yes');
    await vi.waitFor(() => expect(host.protocol.engine.submitted()).not.toBeNull(), { timeout: 10_000, interval: 50 });

    const log = readLog(join(server.logsDir, readdirSync(server.logsDir)[0] as string));
    const takeOver = log.find((r) => r.type === 'console.take-over');
    expect(takeOver?.payload).toMatchObject({ by: 'experimenter', reason: 'the agent misread', agentPaused: true });
    const calls = log.filter((r) => r.type === 'tool.call');
    const byWizard = calls.filter((r) => r.peer?.startsWith('experimenter-'));
    const byAgent = calls.filter((r) => r.peer?.startsWith('agent-'));
    expect(byWizard).toHaveLength(1);
    expect(byWizard[0]?.payload).toMatchObject({ toolName: 'select', reason: 'as asked' });
    expect(byAgent.length).toBeGreaterThan(3);
    expect(log.findIndex((r) => r.type === 'console.hand-back')).toBeGreaterThan(log.indexOf(byWizard[0] as never));
    expect(log.indexOf(byAgent.at(-1) as never)).toBeGreaterThan(log.findIndex((r) => r.type === 'console.hand-back'));

    // What the console page reads holds to the contract in @usher/protocol, for every kind of event sent.
    const feed = stream.events.filter((e) => e.event === 'agent').map((e) => AgentFeedEventSchema.parse(e.data));
    expect(new Set(feed.map((e) => e.kind))).toEqual(new Set(['started', 'episode', 'paused', 'resumed']));
    for (const e of stream.events.filter((x) => x.event === 'participants')) ParticipantRowSchema.array().parse(e.data);
    const glance = (await (await fetch(`${server.url}/api/console/study`)).json()) as Record<string, unknown>;
    ConsoleStudySchema.parse(glance.study);
    expect(ParticipantRowSchema.array().parse(glance.participants)).toHaveLength(1);
    const sessions = (await (await fetch(`${server.url}/api/console/sessions`)).json()) as Record<string, unknown>;
    expect(SessionSummarySchema.array().parse(sessions.sessions)).toHaveLength(1);
  }, 60_000);

  // Regression: a session closed while the page was away stopped the agent as if the task had
  // ended, forgetting that an experimenter had paused it; the page coming back then started it,
  // and it acted beside the experimenter who had the room.
  it('keeps an agent the experimenter paused paused when the page goes away long enough and comes back', async () => {
    const registry = new StudyRegistry(':memory:');
    const { server, supervisor } = await startStudyServer({
      study: DEMO,
      registry,
      limits: { idleSessionMs: 100 },
    });
    const { room, host, task } = await participantOnTask(server.url, 'Z9', 'autopilot');
    await vi.waitFor(() => expect(supervisor.isRunning(room)).toBe(true));
    expect((await post(server.url, `/api/console/rooms/${room}/take-over`, { reason: 'mine now' })).status).toBe(200);

    host.close();
    await vi.waitFor(() => expect(server.relay.hasStudySession(room)).toBe(false));
    const back = await FaultyHost.join({ url: server.url, room, scenario: task.world });
    onTestFinished(() => back.close());
    expect(server.relay.hasStudySession(room)).toBe(true);
    expect(supervisor.isPaused(room)).toBe(true);
    expect(supervisor.isRunning(room)).toBe(false);
    // Handed back, it works again.
    expect((await post(server.url, `/api/console/rooms/${room}/hand-back`, {})).status).toBe(200);
    await vi.waitFor(() => expect(supervisor.isRunning(room)).toBe(true));
  });

  it('closes a live view its reader has stopped taking, instead of holding its events without bound', async () => {
    const { server } = await studyServer();
    const studyConsole = server.console as NonNullable<typeof server.console>;
    // The agents' feed, driven by the test: every listener is handed each event, and says when it leaves.
    const listeners = new Set<(event: AgentFeedEvent) => void>();
    studyConsole.agents = {
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      episodes: () => [],
      pause: () => false,
      resume: () => false,
      isPaused: () => false,
      isRunning: () => false,
      pausedBy: () => null,
      hold: () => false,
      release: () => false,
      isHeld: () => false,
      activity: () => 'idle',
    };
    const note = 'x'.repeat(64 * 1024);
    const event: AgentFeedEvent = {
      room: 'r-x',
      kind: 'episode',
      episode: { kind: 'note', seq: 1, timestamp: '', sessionId: null, text: note },
    };
    const flood = async (until: () => boolean) => {
      let sent = 0;
      // Far more than the cap and the sockets' buffers together, a little at a time so the connection can drain.
      while (sent < 40 * 1024 * 1024 && !until()) {
        for (const listener of listeners) listener(event);
        sent += note.length;
        if (sent % (16 * note.length) === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return sent;
    };

    // A reader that keeps reading gets everything, and its view stays open.
    const reading = await fetch(`${server.url}/api/console/stream`);
    const reader = (reading.body as ReadableStream<Uint8Array>).getReader();
    let received = 0;
    void (async () => {
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (chunk.done || !chunk.value) return;
        received += chunk.value.length;
      }
    })();
    await vi.waitFor(() => expect(listeners.size).toBe(1));
    const sent = await flood(() => false);
    await vi.waitFor(() => expect(received).toBeGreaterThan(sent), { timeout: 10_000 });
    expect(listeners.size).toBe(1);
    await reader.cancel();
    await vi.waitFor(() => expect(listeners.size).toBe(0));

    // A reader that stops reading is let go once the cap is reached: its listener leaves, its slot is freed.
    const stalled = await new Promise<IncomingMessage>((resolve) => {
      httpGet(`${server.url}/api/console/stream`, resolve);
    });
    stalled.pause();
    onTestFinished(() => {
      stalled.destroy();
    });
    await vi.waitFor(() => expect(listeners.size).toBe(1));
    await flood(() => listeners.size === 0);
    await vi.waitFor(() => expect(listeners.size).toBe(0), { timeout: 10_000 });
    expect((await fetch(`${server.url}/api/console/study`)).status).toBe(200);
  }, 60_000);

  it('is closed to anyone without an experimenter’s credential', async () => {
    const { server } = await studyServer({ access: 'token', secret: SECRET });
    const capabilities = server.capabilities as NonNullable<typeof server.capabilities>;
    const get = async (path: string, token?: string) =>
      (await fetch(`${server.url}${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {})).status;
    const host = await capabilities.issue({ kind: 'host', room: 'r-someone' });
    const agent = await capabilities.issue({ kind: 'agent' });
    const experimenter = await capabilities.issue({ kind: 'experimenter', name: 'Ada' });
    for (const path of ['/api/console/study', '/api/console/sessions', '/api/console/stream']) {
      expect(await get(path)).toBe(401);
      expect(await get(path, host)).toBe(403);
      expect(await get(path, agent)).toBe(403);
    }
    expect(await get('/api/console/study', experimenter)).toBe(200);
    // The stream's credential comes in the address, as a browser's EventSource cannot send headers.
    const stream = await openStream(`${server.url}/api/console/stream?token=${experimenter}`);
    expect(stream.status).toBe(200);
    // A page of another site cannot act on a participant, whatever it holds.
    const forged = await fetch(`${server.url}/api/console/rooms/r-x/end`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${experimenter}`,
        Origin: 'https://evil.example',
      },
      body: JSON.stringify({ reason: 'x' }),
    });
    expect(forged.status).toBe(403);
  });

  it('ends or resets a participant’s task with the reason logged', async () => {
    const { server, registry } = await studyServer();
    const one = await participantOnTask(server.url, 'E1', 'alone');
    const two = await participantOnTask(server.url, 'E2', 'alone');
    expect((await post(server.url, `/api/console/rooms/${one.room}/reset`, { reason: 'page froze' })).status).toBe(200);
    expect(registry.byRoom(one.room)?.status).toBe('briefing');
    expect((await post(server.url, `/api/console/rooms/${two.room}/end`, { reason: 'withdrew consent' })).status).toBe(
      200,
    );
    expect(registry.byRoom(two.room)?.status).toBe('dropped');
    expect((await post(server.url, `/api/console/rooms/${two.room}/end`, { reason: 'again' })).status).toBe(409);
    expect((await post(server.url, '/api/console/rooms/r-nobody/end', { reason: 'x' })).status).toBe(404);
    const ends = readdirSync(server.logsDir)
      .map((f) => readLog(join(server.logsDir, f)).at(-1))
      .map((r) => (r?.payload as { reason?: string } | undefined)?.reason ?? '')
      .sort();
    expect(ends).toEqual([
      'ended by the experimenter: withdrew consent (experimenter)',
      'reset by the experimenter: page froze (experimenter)',
    ]);
    // A condition without an agent stays without one.
    const three = await participantOnTask(server.url, 'E3', 'alone');
    expect((await post(server.url, `/api/console/rooms/${three.room}/take-over`, { reason: 'help' })).status).toBe(409);
  }, 30_000);

  it('replays every session of a simulated study to the final state its log records', async () => {
    const { server } = await studyServer();
    const people = await Promise.all(
      ['R1', 'R2', 'R3', 'R4'].map((name, i) => participantOnTask(server.url, name, i % 2 ? 'alone' : 'autopilot')),
    );
    await Promise.all(
      people.map(async ({ room, host, task }, i) => {
        if (i % 2 === 0) {
          host.say(task.goal ?? task.title);
          await vi.waitFor(
            () => expect(host.protocol.view().messageHistory.some((m) => /Shall I book/.test(m.text))).toBe(true),
            {
              timeout: 20_000,
              interval: 50,
            },
          );
          host.say('yes');
          await vi.waitFor(() => expect(host.protocol.engine.submitted()).not.toBeNull(), {
            timeout: 10_000,
            interval: 50,
          });
        } else {
          const spec = () => host.protocol.view().uiSpec;
          host.act('select', { itemId: spec()?.visibleItems[0]?.id as string });
          host.act('sort', { field: 'title', order: 'desc' });
          host.act('next');
          host.act('select', { itemId: spec()?.visibleItems[1]?.id as string });
        }
        const ended = await post(server.url, `/api/participant/step?room=${room}`, {
          step: 'end-task',
          outcome: 'done',
        });
        expect(ended.status).toBe(200);
      }),
    );
    const sessions = (await (await fetch(`${server.url}/api/console/sessions`)).json()) as {
      sessions: { sessionId: string }[];
    };
    expect(sessions.sessions).toHaveLength(4);
    for (const { sessionId } of sessions.sessions) {
      const { log, world } = (await (await fetch(`${server.url}/api/console/sessions/${sessionId}`)).json()) as {
        log: string;
        world: Parameters<typeof replayStudyLog>[0];
      };
      expect(log).toBe(readFileSync(join(server.logsDir, `${sessionId}.jsonl`), 'utf8'));
      const replay = replayStudyLog(world, log);
      expect(replay.differences).toEqual([]);
      expect(replay.unreadable).toEqual([]);
      expect(replay.final.rebuilt).toEqual(replay.final.logged);
      expect(replay.frames).toHaveLength(log.trim().split('\n').length);
    }
    // A log that does not explain its states says where.
    const { sessionId } = sessions.sessions[0] as { sessionId: string };
    const { log, world } = (await (await fetch(`${server.url}/api/console/sessions/${sessionId}`)).json()) as {
      log: string;
      world: Parameters<typeof replayStudyLog>[0];
    };
    const tampered = log
      .split('\n')
      .filter(
        (line) =>
          !line.includes('"participant.action"') && !(line.includes('"tool.call"') && line.includes('"select"')),
      )
      .map((line) => line.replace(/"action":\{"toolName":"select","params":\{[^}]*\}\},?/, ''))
      .join('\n');
    expect(replayStudyLog(world, tampered).differences.length).toBeGreaterThan(0);
  }, 60_000);

  it('runs a condition whose agent is the wizard: nobody is started, the experimenter acts and the log says so', async () => {
    const wizardStudy: Study = {
      ...DEMO,
      conditions: [
        ...DEMO.conditions,
        { ...(DEMO.conditions[1] as Study['conditions'][number]), id: 'woz', agent: 'wizard' },
      ],
    };
    const registry = new StudyRegistry(':memory:');
    const supervisor = new AgentSupervisor({
      relayUrl: 'ws://127.0.0.1:1',
      studyId: DEMO.id,
      episodesDir: null,
      llm: null,
      log: () => {},
    });
    const server = await startTestServer({
      study: { study: wizardStudy, registry, hooks: { taskStarted: (p, c) => supervisor.start(p.room, p.id, c) } },
    });
    if (server.console) server.console.agents = supervisor;
    const { room, host } = await participantOnTask(server.url, 'WZ', 'woz');
    expect(supervisor.isRunning(room)).toBe(false);
    const rows = async () =>
      (
        (await (await fetch(`${server.url}/api/console/study`)).json()) as {
          participants: { room: string; agentsInRoom: number; condition: { agent: string } }[];
        }
      ).participants;
    expect((await rows()).find((r) => r.room === room)).toMatchObject({
      agentsInRoom: 0,
      condition: { agent: 'wizard' },
    });

    expect(
      await post(server.url, `/api/console/rooms/${room}/take-over`, { reason: 'wizard condition' }),
    ).toMatchObject({ status: 200, body: { paused: false } });
    const wizard = await TestClient.connect(server.url, {}, 'as=experimenter');
    await wizard.request('relay.join', { role: 'agent', sessionId: room });
    expect((await rows()).find((r) => r.room === room)?.agentsInRoom).toBe(1);
    const movie = host.protocol.view().uiSpec?.visibleItems[0]?.id as string;
    expect(
      (await wizard.request('tool.call', { toolName: 'select', params: { itemId: movie }, reason: 'the wizard picks' }))
        .type,
    ).toBe('tool.result');
    wizard.close();
    expect(await post(server.url, `/api/console/rooms/${room}/hand-back`, {})).toMatchObject({
      status: 200,
      body: { resumed: false },
    });
    expect(supervisor.isRunning(room)).toBe(false);

    const log = readLog(join(server.logsDir, readdirSync(server.logsDir)[0] as string));
    expect(log[1]?.payload).toMatchObject({ conditionId: 'woz' });
    expect(log.find((r) => r.type === 'tool.call')?.peer).toMatch(/^experimenter-/);
    expect(log.filter((r) => r.type.startsWith('console.')).map((r) => r.type)).toEqual([
      'console.take-over',
      'console.hand-back',
    ]);
  });
});
