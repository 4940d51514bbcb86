import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  envelope,
  openStudyLink,
  participantApi,
  readLog,
  startStudyServer,
  startTestServer,
  TestClient,
} from '../testing/index.ts';

/*
 * Anyone may open a study link and start a task, and each task opens a room with a study log (an
 * open file) and, in an agent condition, an agent with its connection. `maxRooms` bounded only
 * rooms opened by a relay.join, so a stranger admitting participants from many addresses (30 a
 * minute each) opened rooms, files and agents past it without limit. A task now starts only while
 * the server is below `maxRooms`; past it the start is refused with 503 and nothing changes.
 * Below it, a task's room is held only by a page: one no page joined closes after `pageJoinMs`
 * (the page opens it again when it comes), and one address may hold `maxTasksPerAddress` tasks
 * at once, so a few addresses cannot take every room either.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO = {
  ...LOADED,
  // The demo's first two conditions (alone, autopilot), as these tests count on.
  conditions: LOADED.conditions.filter((c) => c.guard !== 'each-step'),
  questionnaires: {},
};
const SECRET = new TextEncoder().encode('a-study-rooms-test-secret-of-enough-length-0123456789');

/** A participant admitted through the study link who consented: their step call, room and host credential. */
async function consented(url: string, id: string) {
  const link = await openStudyLink(url, `participant=${id}`);
  const { step } = participantApi(url, link.token);
  expect((await step({ step: 'consent' })).status).toBe(200);
  return Object.assign(step, { room: link.room, token: link.token });
}

/** How long to wait for what the relay's sweep does (it runs on a timer). */
const SWEPT = { timeout: 5000, interval: 10 };

describe('rooms opened by starting tasks', () => {
  it('stop at maxRooms: the next start is refused (503) and changes nothing, and goes once a room is freed', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      study: { study: DEMO, registry },
      limits: { maxRooms: 2 },
    });
    const admit = (id: string) => consented(server.url, id);
    const first = await admit('P1');
    const second = await admit('P2');
    const third = await admit('P3');
    expect((await first({ step: 'start-task' })).status).toBe(200);
    expect((await second({ step: 'start-task' })).status).toBe(200);
    expect(server.relay.load().rooms).toBe(2);

    const refused = await third({ step: 'start-task' });
    expect(refused).toMatchObject({ status: 503, body: { error: { code: 'STUDY_FULL' } } });
    expect(refused.body.error.message).toMatch(/maxRooms/);
    expect(server.relay.load().rooms).toBe(2);
    expect(registry.byRoom(third.room)?.status).toBe('briefing');

    // The first task ends: its room is freed, and the third participant's task starts.
    expect((await first({ step: 'end-task', outcome: 'done' })).status).toBe(200);
    expect((await third({ step: 'start-task' })).status).toBe(200);
    expect(server.relay.load().rooms).toBe(2);
    // A participant mid-task whose page reloads keeps their room: it is theirs already.
    expect((await second({ step: 'start-task' })).status).toBe(200);
  });

  // Regression: `usher serve` reopened at start the session of every participant the registry
  // held mid-task, past maxRooms: tasks strangers started and left stay "task" in the registry
  // (1000 rooms' worth every idleSessionMs), and a restart opened a room, a log file and an agent
  // for each of them at once, until descriptors ran out and the start failed.
  it('are reopened after a restart only up to maxRooms, the latest first; the rest when their page comes back', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-study-rooms-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const path = join(work, 'registry.sqlite');
    const seeded = new StudyRegistry(path);
    for (const id of ['P1', 'P2', 'P3']) {
      const participant = seeded.admit(DEMO, {
        recruitment: { participant: id },
        now: new Date('2026-11-25T10:00:00Z'),
      }).participant;
      seeded.progress(participant.id, { status: 'briefing' }, new Date(`2026-11-25T10:00:0${id[1]}Z`), {
        status: 'consent',
        taskIndex: 0,
      });
      seeded.progress(participant.id, { status: 'task' }, new Date(`2026-11-25T10:01:0${id[1]}Z`), {
        status: 'briefing',
        taskIndex: 0,
      });
    }
    seeded.close();

    const registry = new StudyRegistry(path);
    onTestFinished(() => registry.close());
    const server = await startTestServer({
      now: () => new Date('2026-11-25T10:02:00Z'),
      study: { study: DEMO, registry },
      limits: { maxRooms: 2 },
    });
    const study = server.study as NonNullable<typeof server.study>;
    expect(study.resumeAll()).toEqual({ resumed: 2, waiting: 1, gone: 0 });
    expect(server.relay.load().rooms).toBe(2);
    const rooms = new Set(server.relay.status().map((r) => r.room));
    const byExternal = (id: string) => registry.participants(DEMO.id).find((p) => p.externalId === id);
    expect(rooms).toEqual(new Set([byExternal('P3')?.room, byExternal('P2')?.room]));
  });

  // Regression: a restart reopened the sessions of participants whose pages had left more than
  // idleSessionMs before the stop (their sessions closed for it, the registry still holding them
  // mid-task) and started their agents, each a log of three records closed a minute later by
  // pageJoinMs. Only a task whose page may still be there is reopened; the others when it comes.
  it('are reopened after a restart only when their page may still be there; the others when it comes back', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-study-rooms-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const path = join(work, 'registry.sqlite');
    const logsDir = join(work, 'logs');
    // The study's clock, days away from the machine's: only it says how long a page was gone.
    let clock = Date.parse('2026-11-20T10:00:00Z');
    const started: string[] = [];
    const serve = async (registry: StudyRegistry) =>
      startTestServer({
        access: 'token',
        secret: SECRET,
        logsDir,
        now: () => new Date(clock),
        study: { study: DEMO, registry, hooks: { taskStarted: (p) => started.push(p.room) } },
        // A short request timeout makes the relay sweep every 25 ms.
        limits: { requestTimeoutMs: 100 },
      });
    const firstRegistry = new StudyRegistry(path);
    const first = await serve(firstRegistry);
    const [stayed, left, gone] = [
      await consented(first.url, 'stayed'),
      await consented(first.url, 'left'),
      await consented(first.url, 'gone'),
    ];
    const pages = new Map<string, TestClient>();
    for (const p of [stayed, left, gone]) {
      expect((await p({ step: 'start-task' })).status).toBe(200);
      pages.set(p.room, await TestClient.join(first.url, 'host', p.room, p.token));
    }
    const leave = async (room: string) => {
      pages.get(room)?.close();
      await vi.waitFor(
        () => expect(first.relay.status().find((r) => r.room === room)?.host === false).toBe(true),
        SWEPT,
      );
    };
    // One page leaves and stays away: after idleSessionMs its session closes, the registry still
    // holding the task. Another, silent all along, is there at the stop; the third left 3 min before it.
    await leave(gone.room);
    clock += 11 * 60_000;
    await vi.waitFor(() => expect(!first.relay.hasStudySession(gone.room)).toBe(true), SWEPT);
    await leave(left.room);
    clock += 3 * 60_000;
    await first.close();
    firstRegistry.close();
    pages.get(stayed.room)?.close();
    expect(started).toEqual([stayed.room, left.room, gone.room]);

    clock += 30_000;
    started.length = 0;
    const registry = new StudyRegistry(path);
    onTestFinished(() => registry.close());
    const second = await serve(registry);
    const study = second.study as NonNullable<typeof second.study>;
    expect(study.resumeAll()).toEqual({ resumed: 2, waiting: 0, gone: 1 });
    expect(new Set(started)).toEqual(new Set([stayed.room, left.room]));
    expect(second.relay.hasStudySession(gone.room)).toBe(false);
    expect(registry.byRoom(gone.room)?.status).toBe('task');

    // The page comes back after all: its task's session opens again, marked resumed, and its agent starts.
    const back = await TestClient.join(second.url, 'host', gone.room, gone.token);
    onTestFinished(() => back.close());
    expect(second.relay.hasStudySession(gone.room)).toBe(true);
    expect(started.at(-1)).toBe(gone.room);
    const participantId = registry.byRoom(gone.room)?.id;
    const logs = readdirSync(logsDir)
      .filter((f) => f.startsWith('s-'))
      .map((f) => readLog(join(logsDir, f)))
      .filter((records) => records[1]?.payload.participantId === participantId);
    expect(logs.map((records) => [records[1]?.payload.resumed ?? false, records.at(-1)?.type])).toEqual([
      [false, 'relay.session-closed'],
      [true, 'relay.join'],
    ]);
  });

  // Regression: a task's room lived until idleSessionMs (10 min) whether or not a page ever came,
  // so a script admitting 30 participants a minute from each of a few addresses, and starting
  // their tasks without ever connecting, kept every room (maxRooms) taken, each with a log file
  // and an agent; real participants got 503 STUDY_FULL.
  it('close when no page joins within pageJoinMs, and open again, logged, when the page comes', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    let clock = Date.parse('2026-11-25T10:00:00Z');
    const idled: string[] = [];
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      now: () => new Date(clock),
      study: { study: DEMO, registry, hooks: { roomIdle: (room) => idled.push(room) } },
      // A short request timeout makes the relay sweep every 25 ms, so a wait of 100 ms sees sweeps.
      limits: { pageJoinMs: 60_000, requestTimeoutMs: 100 },
    });
    const admit = (id: string) => consented(server.url, id);
    const absent = await admit('P1');
    const present = await admit('P2');
    expect((await absent({ step: 'start-task' })).status).toBe(200);
    expect((await present({ step: 'start-task' })).status).toBe(200);
    const page = await TestClient.join(server.url, 'host', present.room, present.token);
    onTestFinished(() => page.close());
    expect(server.relay.load().rooms).toBe(2);

    // A minute passes: the room no page joined closes, saying why; the other goes on.
    clock += 60_000;
    await vi.waitFor(() => expect(server.relay.load().rooms === 1).toBe(true), SWEPT);
    expect(idled).toEqual([absent.room]);
    expect(server.relay.hasStudySession(present.room)).toBe(true);
    const logs = () => readdirSync(server.logsDir).filter((f) => f.endsWith('.jsonl'));
    const closed = logs()
      .map((f) => readLog(join(server.logsDir, f)))
      .find((records) => records.some((r) => r.type === 'relay.session-closed'));
    expect(closed?.at(-1)?.payload).toEqual({
      reason: `no page joined room "${absent.room}" within 1 min of its task's start (pageJoinMs)`,
    });
    expect(registry.byRoom(absent.room)?.status).toBe('task');

    // The page comes after all (a slow connection): joining opens the task's session again, and
    // what it sends is logged there.
    const late = await TestClient.join(server.url, 'host', absent.room, absent.token);
    onTestFinished(() => late.close());
    expect(server.relay.hasStudySession(absent.room)).toBe(true);
    late.send(envelope('state.updated', { source: 'host', uiSpec: null, messageHistory: [], toolSchema: [] }));
    const reopened = () =>
      logs()
        .map((f) => readLog(join(server.logsDir, f)))
        .find((records) => records[1]?.type === 'study.task' && (records[1].payload as { resumed?: boolean }).resumed);
    await vi.waitFor(() => expect(reopened()?.some((r) => r.type === 'state.updated') === true).toBe(true), SWEPT);
    expect(reopened()?.map((r) => r.type)).toEqual(['agent.manifest', 'study.task', 'relay.join', 'state.updated']);
    expect(reopened()?.[1]?.payload).toMatchObject({ participantId: registry.byRoom(absent.room)?.id, resumed: true });

    // A page that joined is not held to pageJoinMs any more: once it has gone, idleSessionMs counts.
    late.close();
    await vi.waitFor(
      () => expect(server.relay.status().find((r) => r.room === absent.room)?.host === false).toBe(true),
      SWEPT,
    );
    clock += 5 * 60_000;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.relay.hasStudySession(absent.room)).toBe(true);
    clock += 5 * 60_000;
    await vi.waitFor(() => expect(!server.relay.hasStudySession(absent.room)).toBe(true), SWEPT);
  });

  // Regression: the sessions a restart reopens (resumeAll) were started by no request, so they
  // counted toward no address's maxTasksPerAddress, and a page joining one held it (and, once
  // gone, for idleSessionMs more) uncounted: after a restart, one address touching each reopened
  // room with a page kept every one of them, up to maxRooms.
  it('reopened after a restart are counted to the address whose page first joins them', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-study-rooms-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const path = join(work, 'registry.sqlite');
    const seeded = new StudyRegistry(path);
    for (const id of ['P1', 'P2']) {
      const participant = seeded.admit(DEMO, {
        recruitment: { participant: id },
        now: new Date('2026-11-25T10:00:00Z'),
      }).participant;
      seeded.progress(participant.id, { status: 'briefing' }, new Date('2026-11-25T10:00:01Z'), {
        status: 'consent',
        taskIndex: 0,
      });
      seeded.progress(participant.id, { status: 'task' }, new Date('2026-11-25T10:00:02Z'), {
        status: 'briefing',
        taskIndex: 0,
      });
    }
    seeded.close();

    const registry = new StudyRegistry(path);
    onTestFinished(() => registry.close());
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      now: () => new Date('2026-11-25T10:01:00Z'),
      study: { study: DEMO, registry },
      limits: { maxTasksPerAddress: 1 },
    });
    const study = server.study as NonNullable<typeof server.study>;
    const capabilities = server.capabilities as NonNullable<typeof server.capabilities>;
    expect(study.resumeAll()).toEqual({ resumed: 2, waiting: 0, gone: 0 });
    const [first, second] = registry.participants(DEMO.id).map((p) => p.room) as [string, string];

    // The first page to come back takes its session: counted to its address.
    const page = await TestClient.join(
      server.url,
      'host',
      first,
      await capabilities.issue({ kind: 'host', room: first }),
    );
    onTestFinished(() => page.close());
    expect(server.relay.roomsHeldBy('127.0.0.1')).toBe(1);
    // A second from the same address is past its maxTasksPerAddress: refused (1013), as a page
    // reopening a closed session would be.
    const other = await TestClient.connect(server.url, {
      headers: { Authorization: `Bearer ${await capabilities.issue({ kind: 'host', room: second })}` },
    });
    const reply = await other.request('relay.join', { role: 'host', sessionId: second });
    expect(reply).toMatchObject({ type: 'error', payload: { code: 'SESSION_NOT_ACTIVE' } });
    expect(String(reply.payload.message)).toMatch(/maxTasksPerAddress/);
    expect(await other.closed()).toBe(1013);
    expect(server.relay.status().find((r) => r.room === second)?.host).toBe(false);
    expect(server.relay.roomsHeldBy('127.0.0.1')).toBe(1);
  });

  // Regression: a page holds its room whether or not a task runs there, and only rooms with a
  // task's session counted toward maxTasksPerAddress. A stranger's page joining the room of a
  // participant admitted but not started, or staying after end-task, held a room toward nothing
  // (up to maxConnectionsPerAddress of them, besides the address's 64 tasks), so half as many
  // addresses as the READMEs say filled maxRooms.
  it('count the rooms a page holds with no task running toward its address', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      now: () => new Date('2026-11-25T10:00:00Z'),
      study: { study: DEMO, registry },
      limits: { maxTasksPerAddress: 1 },
    });
    const admit = (id: string) => consented(server.url, id);
    const [first, second] = [await admit('P1'), await admit('P2')];
    const joinRefused = async (room: string, token: string) => {
      const page = await TestClient.connect(server.url, { headers: { Authorization: `Bearer ${token}` } });
      const reply = await page.request('relay.join', { role: 'host', sessionId: room });
      expect(reply).toMatchObject({ type: 'error', payload: { code: 'SESSION_NOT_ACTIVE' } });
      expect(String(reply.payload.message)).toMatch(/maxTasksPerAddress/);
      expect(await page.closed()).toBe(1013);
    };

    // The first task takes the address's one room: the second participant's page, with no task
    // started, cannot take another.
    expect((await first({ step: 'start-task' })).status).toBe(200);
    const page = await TestClient.join(server.url, 'host', first.room, first.token);
    onTestFinished(() => page.close());
    await joinRefused(second.room, second.token);
    expect(server.relay.load().rooms).toBe(1);

    // The task ends and its page stays: the room is still the address's, so no other task starts.
    expect((await first({ step: 'end-task', outcome: 'done' })).status).toBe(200);
    expect(server.relay.hasStudySession(first.room)).toBe(false);
    expect(server.relay.roomsHeldBy('127.0.0.1')).toBe(1);
    expect(await second({ step: 'start-task' })).toMatchObject({ status: 429 });
    // The same participant's next task goes in the room their page holds: nothing more is taken.
    expect(registry.byRoom(first.room)?.status).toBe('briefing');
    expect((await first({ step: 'start-task' })).status).toBe(200);
    expect(server.relay.roomsHeldBy('127.0.0.1')).toBe(1);
    expect((await first({ step: 'end-task', outcome: 'done' })).status).toBe(200);
    // Once the page has gone, the other starts.
    page.close();
    await vi.waitFor(() => expect(server.relay.load().rooms === 0).toBe(true), SWEPT);
    expect((await second({ step: 'start-task' })).status).toBe(200);
  });

  it('closed for pageJoinMs stop their agent, and a page reopening one brings it back', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    let clock = Date.parse('2026-11-25T10:00:00Z');
    const { server, supervisor } = await startStudyServer({
      access: 'token',
      secret: SECRET,
      now: () => new Date(clock),
      study: DEMO,
      registry,
      limits: { pageJoinMs: 60_000, requestTimeoutMs: 100 },
    });
    const study = server.study as NonNullable<typeof server.study>;
    let room = '';
    for (let i = 0; room === ''; i++) {
      const { participant } = study.admit(new URLSearchParams({ participant: `P${i}` }));
      if (participant.plan.tasks[0]?.conditionId !== 'autopilot') continue;
      study.step(participant, { step: 'consent' });
      study.step(study.get(participant.id) as typeof participant, { step: 'start-task' }, '192.0.2.1');
      room = participant.room;
    }
    const agents = () => server.relay.status().find((r) => r.room === room)?.agents ?? 0;
    expect(supervisor.isRunning(room)).toBe(true);
    await vi.waitFor(() => expect(agents()).toBe(1), { timeout: 10_000, interval: 20 });

    // No page within a minute: the session closes, the agent stops and leaves, the room is freed.
    clock += 60_000;
    await vi.waitFor(() => expect(!server.relay.hasStudySession(room)).toBe(true), SWEPT);
    expect(supervisor.isRunning(room)).toBe(false);
    await vi.waitFor(() => expect(!server.relay.status().some((r) => r.room === room)).toBe(true), SWEPT);

    // The page comes: the session opens again, counted toward the page's address, and the agent is back.
    const capabilities = server.capabilities as NonNullable<typeof server.capabilities>;
    const page = await TestClient.join(server.url, 'host', room, await capabilities.issue({ kind: 'host', room }));
    onTestFinished(() => page.close());
    expect(server.relay.hasStudySession(room)).toBe(true);
    expect(server.relay.roomsHeldBy('127.0.0.1')).toBe(1);
    expect(supervisor.isRunning(room)).toBe(true);
    await vi.waitFor(() => expect(agents()).toBe(1), { timeout: 10_000, interval: 20 });
  });

  it('count per address: past maxTasksPerAddress a start is refused (429) and changes nothing, as is a page reopening one', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    let clock = Date.parse('2026-11-25T10:00:00Z');
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      now: () => new Date(clock),
      study: { study: DEMO, registry },
      limits: { maxTasksPerAddress: 2, pageJoinMs: 60_000 },
    });
    const admit = (id: string) => consented(server.url, id);
    const [first, second, third] = [await admit('P1'), await admit('P2'), await admit('P3')];
    expect((await first({ step: 'start-task' })).status).toBe(200);
    expect((await second({ step: 'start-task' })).status).toBe(200);

    const refused = await third({ step: 'start-task' });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_REQUESTS' } } });
    expect(refused.body.error.message).toMatch(/maxTasksPerAddress/);
    expect(registry.byRoom(third.room)?.status).toBe('briefing');
    expect(server.relay.load().rooms).toBe(2);
    // Resending start-task for a task whose session is open takes nothing more.
    expect((await first({ step: 'start-task' })).status).toBe(200);

    // The first two never connect a page: their sessions close, and the address may start again.
    clock += 60_000;
    await vi.waitFor(() => expect(server.relay.load().rooms === 0).toBe(true), SWEPT);
    expect((await third({ step: 'start-task' })).status).toBe(200);
    expect((await first({ step: 'start-task' })).status).toBe(200);
    // A page reopening its closed session from the same address counts too: refused (1013), no room opened.
    const page = await TestClient.connect(server.url, { headers: { Authorization: `Bearer ${second.token}` } });
    const reply = await page.request('relay.join', { role: 'host', sessionId: second.room });
    expect(reply).toMatchObject({ type: 'error', payload: { code: 'SESSION_NOT_ACTIVE' } });
    expect(String(reply.payload.message)).toMatch(/maxTasksPerAddress/);
    expect(await page.closed()).toBe(1013);
    expect(server.relay.hasStudySession(second.room)).toBe(false);
    expect(server.relay.load().rooms).toBe(2);
  });
});
