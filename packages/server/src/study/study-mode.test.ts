import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capabilities } from '@usher/relay';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { MAX_RETURN_KEYS } from '@usher/study-host';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  envelope,
  openStudyLink,
  participantApi,
  readLog,
  scriptHost,
  startTestServer,
  TestClient,
} from '../testing/index.ts';

// The flow without questionnaires (a study may have none); questionnaires.test.ts runs it with them.
const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO = {
  ...LOADED,
  // The demo's first two conditions (alone, autopilot), as these tests count on.
  conditions: LOADED.conditions.filter((c) => c.guard !== 'each-step'),
  questionnaires: {},
};
const SECRET = new TextEncoder().encode('a-study-mode-test-secret-of-enough-length-0123456789');
const work = mkdtempSync(join(tmpdir(), 'usher-study-mode-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function studyServer(registry = new StudyRegistry(':memory:'), logsDir?: string) {
  const server = await startTestServer({
    access: 'token',
    secret: SECRET,
    study: { study: DEMO, registry },
    ...(logsDir && { logsDir }),
  });
  return { server, registry };
}

describe('study mode', () => {
  it('admits a participant through the study link into a room of their own, and takes them through every task to the end', async () => {
    const { server } = await studyServer();
    const link = await openStudyLink(server.url, 'PROLIFIC_PID=pid-1&STUDY_ID=st&SESSION_ID=se');
    expect(link.room).toMatch(/^r-/);
    const api = participantApi(server.url, link.token);
    expect(await api.view()).toMatchObject({
      status: 'consent',
      // The title participants see, the same in every condition.
      study: { title: 'Booking movie tickets' },
      taskCount: 2,
      consent: expect.stringContaining('Thank you'),
    });

    expect((await api.step({ step: 'start-task' })).status).toBe(409);
    // A body too large for any route is refused before it is read whole.
    const huge = await fetch(`${server.url}/api/participant/step`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${link.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ step: 'consent', pad: 'x'.repeat(200_000) }),
    });
    expect(huge.status).toBe(413);
    const briefing = (await api.step({ step: 'consent' })).body;
    expect(briefing).toMatchObject({ status: 'briefing', taskIndex: 0, task: { briefing: expect.any(String) } });
    expect(briefing.task.world).not.toHaveProperty('story');
    expect(briefing).not.toHaveProperty('consent');

    for (let i = 0; i < 2; i++) {
      const started = (await api.step({ step: 'start-task' })).body;
      expect(started).toMatchObject({ status: 'task', taskIndex: i });
      // The page (the room's host, with the link's token) and the participant's actions are logged, agent or not.
      const page = await TestClient.join(server.url, 'host', link.room, link.token);
      scriptHost(page);
      const events = () => server.relay.status().find((r) => r.room === link.room)?.studySession?.events ?? 0;
      const before = events();
      page.send(
        envelope('state.updated', {
          source: 'user',
          uiSpec: null,
          messageHistory: [],
          toolSchema: [],
          action: { toolName: 'select', params: { itemId: `m${i}` } },
        }),
      );
      // Logged before the task ends (its record, then the state it caused).
      await vi.waitFor(() => expect(events()).toBe(before + 2));
      if (i === 1) {
        // A tab left open on the first task cannot end the second one.
        const stale = await api.step({ step: 'end-task', outcome: 'submitted', taskIndex: 0 });
        expect(stale).toMatchObject({ status: 409, body: { error: { code: 'OUT_OF_STEP' } } });
        expect((await api.view()).status).toBe('task');
      }
      const outcome = i === 0 ? 'submitted' : 'gave-up';
      const ended = (await api.step({ step: 'end-task', outcome, taskIndex: i })).body;
      expect(ended).toMatchObject(
        i === 0 ? { status: 'briefing', taskIndex: 1 } : { status: 'done', completion: { code: 'USHER-DEMO-01' } },
      );
      page.close();
    }

    const logs = readdirSync(server.logsDir).sort();
    expect(logs).toHaveLength(2);
    const participantId = link.participant;
    const plan = (await server.study?.byRoom(link.room))?.plan;
    for (const [i, file] of logs.entries()) {
      const records = readLog(join(server.logsDir, file));
      expect(records[0]?.type).toBe('agent.manifest');
      expect(records[1]).toMatchObject({
        type: 'study.task',
        payload: { studyId: 'demo-01', participantId, conditionId: plan?.conditionId, taskId: plan?.tasks[i]?.taskId },
      });
      expect(records.find((r) => r.type === 'participant.action')?.payload).toEqual({
        toolName: 'select',
        params: { itemId: `m${i}` },
      });
      expect(records.at(-1)).toMatchObject({
        type: 'study.task-ended',
        payload: { reason: expect.stringMatching(i === 0 ? /submitted/ : /gave-up/) },
      });
      expect(records.map((r) => r.eventIndex)).toEqual(records.map((_, k) => k));
    }
  });

  it('sends a returning participant to the same room, where they were; after a restart mid-task their task’s session opens again', async () => {
    const path = join(work, 'restart.sqlite');
    const logsDir = mkdtempSync(join(work, 'logs-'));
    const first = await studyServer(new StudyRegistry(path), logsDir);
    const link = await openStudyLink(first.server.url, 'PROLIFIC_PID=back-1');
    const before = participantApi(first.server.url, link.token);
    await before.step({ step: 'consent' });
    await before.step({ step: 'start-task' });
    await first.server.close();
    first.registry.close();

    const second = await studyServer(new StudyRegistry(path), logsDir);
    expect(link.cookie).toMatch(/^usher_return_demo-01=[\w-]{32}$/);
    const again = await openStudyLink(second.server.url, 'PROLIFIC_PID=back-1', link.cookie);
    expect(again.room).toBe(link.room);
    const api = participantApi(second.server.url, again.token);
    expect(await api.view()).toMatchObject({ status: 'task', taskIndex: 0 });
    // The page comes back on its task: the session is opened again (what usher serve also does at start).
    expect((await api.step({ step: 'start-task' })).body).toMatchObject({ status: 'task' });
    expect(second.server.relay.status()).toEqual([
      expect.objectContaining({
        room: link.room,
        studySession: expect.objectContaining({ participantId: link.participant }),
      }),
    ]);
    // A reload mid-task changes nothing more: the same session goes on.
    await api.step({ step: 'start-task' });
    await api.step({ step: 'end-task', outcome: 'done' });
    const logs = readdirSync(logsDir)
      .sort()
      .map((f) => readLog(join(logsDir, f)));
    expect(
      logs.map((log) => [
        log[1]?.type,
        (log[1]?.payload as { resumed?: boolean } | undefined)?.resumed ?? false,
        log.at(-1)?.type,
      ]),
    ).toEqual([
      ['study.task', false, 'relay.shutdown'],
      ['study.task', true, 'study.task-ended'],
    ]);
    await api.step({ step: 'start-task' });
    await api.step({ step: 'end-task', outcome: 'submitted' });
    const finished = await openStudyLink(second.server.url, 'PROLIFIC_PID=back-1', link.cookie);
    expect(await participantApi(second.server.url, finished.token).view()).toMatchObject({
      status: 'done',
      completion: { code: 'USHER-DEMO-01' },
    });
    second.registry.close();
  });

  it('lets a participant come back only in the browser they started in', async () => {
    const { server } = await studyServer();
    const alice = await openStudyLink(server.url, 'participant=alice');
    const bob = await openStudyLink(server.url, 'participant=bob');
    // Someone who knows (or guesses) Alice's id, without her browser's key, does not get her room.
    for (const cookie of [undefined, bob.cookie, 'usher_return_demo-01=not-the-key']) {
      const response = await fetch(`${server.url}/s/demo-01?participant=alice`, {
        redirect: 'manual',
        headers: { Accept: 'text/html', ...(cookie && { Cookie: cookie }) },
      });
      expect(response.status).toBe(409);
      const page = await response.text();
      expect(page).toContain('This study was started in another browser');
      expect(page).not.toContain(alice.room);
    }
    const json = await fetch(`${server.url}/s/demo-01?participant=alice`, { redirect: 'manual' });
    expect(await json.json()).toMatchObject({ error: { code: 'ALREADY_STARTED' } });
    // Her own browser comes back to her room.
    expect((await openStudyLink(server.url, 'participant=alice', alice.cookie)).room).toBe(alice.room);
  });

  it('keeps the return keys of everyone who started in one browser, the newest ten', async () => {
    const { server } = await studyServer();
    const alice = await openStudyLink(server.url, 'participant=alice');
    // The same browser then opens the link for someone else: a shared computer, or the link opened without an id.
    const bob = await openStudyLink(server.url, 'participant=bob', alice.cookie);
    expect(bob.cookie).toMatch(/^usher_return_demo-01=[\w-]{32}\.[\w-]{32}$/);
    expect((await openStudyLink(server.url, 'participant=alice', bob.cookie)).room).toBe(alice.room);
    expect((await openStudyLink(server.url, 'participant=bob', bob.cookie)).room).toBe(bob.room);
    // A cookie does not grow without bound: after ten more starts there, Alice's key is the one let go.
    let cookie = bob.cookie;
    for (let i = 0; i < MAX_RETURN_KEYS - 1; i++)
      cookie = (await openStudyLink(server.url, `participant=c${i}`, cookie)).cookie;
    expect((await openStudyLink(server.url, 'participant=bob', cookie)).room).toBe(bob.room);
    const alicia = await fetch(`${server.url}/s/demo-01?participant=alice`, {
      redirect: 'manual',
      headers: { Cookie: cookie },
    });
    expect(alicia.status).toBe(409);
  });

  it('balances conditions across participants, and keeps strangers out of participants’ rooms and API', async () => {
    const { server, registry } = await studyServer();
    const links = [];
    for (let i = 0; i < 10; i++) links.push(await openStudyLink(server.url, `participant=p${i}`));
    expect(registry.conditionCounts(DEMO)).toEqual([5, 5]);
    expect(new Set(links.map((l) => l.room)).size).toBe(10);
    // One participant's token is not another's, nor an agent's a participant's.
    const [a, b] = links as [(typeof links)[0], (typeof links)[0]];
    const api = participantApi(server.url, a.token);
    expect((await api.view()).participantId).toBe(a.participant);
    const intruder = await TestClient.connect(server.url, { headers: { Authorization: `Bearer ${a.token}` } });
    expect((await intruder.request('relay.join', { role: 'host', sessionId: b.room })).payload.code).toBe(
      'INVALID_MESSAGE',
    );
    // A page that names one room and holds another's credential (a link pieced together from two) is refused.
    const mixed = await fetch(`${server.url}/api/participant?room=${b.room}`, {
      headers: { Authorization: `Bearer ${a.token}` },
    });
    expect(mixed.status).toBe(401);
    expect(
      (await fetch(`${server.url}/api/participant?room=${a.room}`, { headers: { Authorization: `Bearer ${a.token}` } }))
        .status,
    ).toBe(200);
    const agentToken = await (server.capabilities as Capabilities).issue({ kind: 'agent' });
    expect(
      (await fetch(`${server.url}/api/participant`, { headers: { Authorization: `Bearer ${agentToken}` } })).status,
    ).toBe(401);
    expect((await fetch(`${server.url}/s/another-study`, { redirect: 'manual' })).status).toBe(404);
  });

  it('admits nobody for a link preview or a prefetch, and holds no condition slot; the visit that follows admits', async () => {
    const { server, registry } = await studyServer();
    const link = `${server.url}/s/demo-01?PROLIFIC_PID=unfurled`;
    const head = await fetch(link, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(head.headers.get('set-cookie')).toBeNull();
    for (const [name, value] of [
      ['Sec-Purpose', 'prefetch'],
      ['Sec-Purpose', 'prefetch;prerender'],
      ['Purpose', 'prefetch'],
      ['X-Moz', 'prefetch'],
      ['X-Purpose', 'preview'],
    ] as const) {
      const prefetch = await fetch(link, { redirect: 'manual', headers: { Accept: 'text/html', [name]: value } });
      // A failed prefetch is not used: the visit itself comes to the server.
      expect(prefetch.status).toBe(503);
      expect(prefetch.headers.get('location')).toBeNull();
    }
    // A chat app unfurling the link with GET under its own name gets a page with the title participants see.
    const preview = await fetch(link, {
      redirect: 'manual',
      headers: { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
    });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('<title>Booking movie tickets</title>');
    expect(registry.participants(DEMO.id)).toHaveLength(0);
    expect(registry.conditionCounts(DEMO)).toEqual([0, 0]);

    const visit = await openStudyLink(server.url, 'PROLIFIC_PID=unfurled');
    expect(registry.participants(DEMO.id).map((p) => p.id)).toEqual([visit.participant]);
    expect(registry.conditionCounts(DEMO).reduce((a, b) => a + b)).toBe(1);
  });

  it('answers a browser’s visit with the participant’s page itself (no redirect), its address set to the page’s', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'usher-web-'));
    onTestFinished(() => rmSync(webRoot, { recursive: true, force: true }));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head><title>page</title></head></html>');
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      study: { study: DEMO, registry: new StudyRegistry(':memory:') },
      webRoot,
    });
    const visit = await fetch(`${server.url}/s/demo-01?PROLIFIC_PID=no-redirect`, {
      redirect: 'manual',
      headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(visit.status).toBe(200);
    expect(visit.headers.get('cache-control')).toBe('no-store');
    expect(visit.headers.get('set-cookie')).toMatch(/^usher_return_demo-01=/);
    const html = await visit.text();
    const address = /<head><script>history\.replaceState\(null,'',"([^"]+)"\)<\/script><title>page<\/title>/.exec(
      html,
    )?.[1];
    const page = new URL(address ?? '', server.url).searchParams;
    expect(page.get('study')).toBe('demo-01');
    expect(page.get('room')).toMatch(/^r-/);
    const api = participantApi(server.url, page.get('token') as string);
    expect(await api.view()).toMatchObject({ status: 'consent' });
    // A script following the link is redirected, as before.
    const script = await fetch(`${server.url}/s/demo-01?PROLIFIC_PID=script`, { redirect: 'manual' });
    expect(script.status).toBe(302);
  });

  it('answers a mistyped study link with a page a person can read, and the API’s JSON error to anything else', async () => {
    const { server } = await studyServer();
    const page = await fetch(`${server.url}/s/demo-10?PROLIFIC_PID=typo`, {
      redirect: 'manual',
      headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<h1>This study link does not work</h1>');
    expect(html).not.toContain('demo-01');
    const json = await fetch(`${server.url}/s/demo-10`, { redirect: 'manual' });
    expect(json.status).toBe(404);
    expect(await json.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    // Cut short or with more after it: the same page. With a slash after it, the link works.
    for (const path of ['/s/', '/s/demo-01/x']) {
      const cut = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { Accept: 'text/html' } });
      expect(cut.status).toBe(404);
      expect(await cut.text()).toContain('<h1>This study link does not work</h1>');
    }
    const slash = await fetch(`${server.url}/s/demo-01/?PROLIFIC_PID=slash`, { redirect: 'manual' });
    expect(slash.status).toBe(302);
    expect(slash.headers.get('location')).toMatch(/^\/\?room=r-/);
  });

  it('refuses more than 30 new participants a minute from one address (429), and admits nobody for them', async () => {
    const { server, registry } = await studyServer();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++)
      statuses.push((await fetch(`${server.url}/s/demo-01?participant=x${i}`, { redirect: 'manual' })).status);
    expect(statuses.filter((s) => s === 302)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual([429, 429]);
    expect(registry.participants(DEMO.id)).toHaveLength(30);
  });

  it('counts admissions per client behind a trusted proxy, and per proxy without --trust-proxy', async () => {
    const admit = async (base: string, i: number, client: string) =>
      (
        await fetch(`${base}/s/demo-01?participant=p${client}-${i}`, {
          redirect: 'manual',
          headers: { 'X-Forwarded-For': client },
        })
      ).status;
    const proxied = await startTestServer({
      limits: { admissionsPerMinute: 2 },
      trustProxy: ['127.0.0.1'],
      study: { study: DEMO, registry: new StudyRegistry(':memory:') },
    });
    const a = [await admit(proxied.url, 1, '198.51.100.1'), await admit(proxied.url, 2, '198.51.100.1')];
    expect([...a, await admit(proxied.url, 3, '198.51.100.1')]).toEqual([302, 302, 429]);
    expect(await admit(proxied.url, 1, '198.51.100.2')).toBe(302);

    const direct = await startTestServer({
      limits: { admissionsPerMinute: 2 },
      study: { study: DEMO, registry: new StudyRegistry(':memory:') },
    });
    const b = [await admit(direct.url, 1, '198.51.100.1'), await admit(direct.url, 1, '198.51.100.2')];
    expect([...b, await admit(direct.url, 1, '198.51.100.3')]).toEqual([302, 302, 429]);
  });

  it('marks the return key Secure only when the link came over HTTPS through a trusted proxy', async () => {
    const cookieOf = async (base: string, participant: string) =>
      (
        await fetch(`${base}/s/demo-01?participant=${participant}`, {
          redirect: 'manual',
          headers: { 'X-Forwarded-Proto': 'https' },
        })
      ).headers.get('set-cookie') ?? '';
    const proxied = await startTestServer({
      trustProxy: ['127.0.0.1'],
      study: { study: DEMO, registry: new StudyRegistry(':memory:') },
    });
    expect(await cookieOf(proxied.url, 'behind-proxy')).toMatch(/; Secure/);
    // Without --trust-proxy the header is a stranger's word: a Secure cookie on plain HTTP would never come back.
    const direct = await startTestServer({ study: { study: DEMO, registry: new StudyRegistry(':memory:') } });
    const cookie = await cookieOf(direct.url, 'direct');
    expect(cookie).toMatch(/^usher_return_demo-01=/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('tells the study when a participant’s page stayed away so long that the task’s session closed, and reopens it when they are back', async () => {
    const idle: string[] = [];
    const registry = new StudyRegistry(':memory:');
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      limits: { idleSessionMs: 100 },
      study: { study: DEMO, registry, hooks: { roomIdle: (room) => idle.push(room) } },
    });
    const link = await openStudyLink(server.url, 'participant=sleepy');
    const api = participantApi(server.url, link.token);
    await api.step({ step: 'consent' });
    await api.step({ step: 'start-task' });
    await vi.waitFor(() => expect(idle).toEqual([link.room]));
    expect(server.relay.hasStudySession(link.room)).toBe(false);
    await api.step({ step: 'start-task' });
    expect(server.relay.hasStudySession(link.room)).toBe(true);
  });

  // Regression: a step was taken on the participant as the request first read them, before its
  // body arrived; an experimenter ending the task meanwhile left a stale start-task to reopen the
  // task's session (and agent) of someone whose study was over.
  it('takes a step on the participant as the registry holds them when the step is taken', async () => {
    const { server, registry } = await studyServer();
    const link = await openStudyLink(server.url, 'participant=raced');
    const api = participantApi(server.url, link.token);
    await api.step({ step: 'consent' });
    await api.step({ step: 'start-task' });
    const study = server.study as NonNullable<typeof server.study>;
    const asRead = registry.byRoom(link.room) as NonNullable<ReturnType<typeof registry.byRoom>>;
    study.endByExperimenter(asRead, 'ended from the console');
    expect(server.relay.hasStudySession(link.room)).toBe(false);
    expect(() => study.step(asRead, { step: 'start-task' })).toThrow(/no task to start \(dropped\)/);
    expect(server.relay.hasStudySession(link.room)).toBe(false);
  });
});
