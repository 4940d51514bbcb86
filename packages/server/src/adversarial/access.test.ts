import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { get as httpGet, request } from 'node:http';
import { connect } from 'node:net';
import { defaultScenario } from '@usher/booking';
import { Capabilities } from '@usher/relay';
import { describe, expect, it } from 'vitest';
import { scriptHost, startTestServer, TestClient } from '../testing/index.ts';

/*
 * Access control, tried as a stranger on the internet would (README, "Security model"): every
 * attack fails at the door, and a study in another room goes on undisturbed.
 */

const SECRET = new TextEncoder().encode('an-adversarial-test-secret-of-enough-length-0123456789');

/** The default world with a participant's story, whose hidden constraints are the experimenter's alone. */
const WITH_STORY = {
  ...defaultScenario(),
  story: { text: 'Two adults for Orbital Drift tomorrow', hard: [{ kind: 'seatCount' as const, count: 2 }], soft: [] },
};

async function guarded() {
  const server = await startTestServer({ access: 'token', secret: SECRET, headlessHost: true, scenario: WITH_STORY });
  const caps = server.capabilities as Capabilities;
  const tokens = {
    host: await caps.issue({ kind: 'host', room: 'default' }),
    otherHost: await caps.issue({ kind: 'host', room: 'other' }),
    agent: await caps.issue({ kind: 'agent' }),
    experimenter: await caps.issue({ kind: 'experimenter' }),
  };
  return { server, tokens };
}

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

async function http(url: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  const response = await fetch(url, { ...init, headers });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

describe('access control: the WebSocket door', () => {
  it('refuses a connection without a credential, with a forged or foreign one, or expired, with HTTP 401', async () => {
    const { server } = await guarded();
    expect(await TestClient.refusal(server.url)).toMatchObject({
      status: 401,
      text: expect.stringMatching(/credential is needed/),
    });
    expect((await TestClient.refusal(server.url, bearer('not.a.token'))).status).toBe(401);
    const foreign = await new Capabilities(
      new TextEncoder().encode('another-servers-secret-of-enough-length-9876543210'),
    ).issue({
      kind: 'experimenter',
    });
    expect(await TestClient.refusal(server.url, bearer(foreign))).toMatchObject({ status: 401, text: /not valid/ });
    const longAgo = new Capabilities(SECRET, () => new Date('2020-01-01T00:00:00Z'));
    const expired = await longAgo.issue({ kind: 'agent' }, 1);
    expect(await TestClient.refusal(server.url, bearer(expired))).toMatchObject({ status: 401, text: /expired/ });
  });

  it('closes a refused upgrade’s socket itself, so a client that never closes cannot hold the descriptor', async () => {
    const { server } = await guarded();
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.allowHalfOpen = true;
    socket.write(
      `GET /agent/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    let answer = '';
    socket.on('data', (d) => {
      answer += d;
    });
    // The client never ends its side; the server closes the connection all the same: once it has
    // let go of the socket, anything more the client writes is refused (a reset), not read.
    await once(socket, 'end');
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    const reset = new Promise((resolve) => {
      socket.once('error', resolve);
      socket.once('close', resolve);
    });
    for (let i = 0; i < 20; i++) {
      if (socket.destroyed) break;
      socket.write('still here?');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await reset;
  });

  it('takes the Bearer scheme in any case', async () => {
    const { server, tokens } = await guarded();
    expect(
      (await TestClient.refusal(server.url, { headers: { Authorization: `bearer ${tokens.agent}` } })).status,
    ).toBe(101);
  });

  it('refuses an upgrade from a page of another site with HTTP 403, and accepts an allowed one', async () => {
    const { server, tokens } = await guarded();
    const evil = { headers: { Authorization: `Bearer ${tokens.agent}`, Origin: 'https://evil.example' } };
    expect(await TestClient.refusal(server.url, evil)).toMatchObject({ status: 403, text: /evil\.example/ });
    const allowed = await startTestServer({
      access: 'token',
      secret: SECRET,
      allowOrigins: ['https://study.example.org'],
    });
    const ok = { headers: { Authorization: `Bearer ${tokens.agent}`, Origin: 'https://study.example.org' } };
    expect((await TestClient.refusal(allowed.url, ok)).status).toBe(101);
  });

  it('lets a credential join only what it grants, and closes a refused join (1008)', async () => {
    const { server, tokens } = await guarded();
    const tries: Array<[string, 'host' | 'agent' | 'observer', string]> = [
      [tokens.otherHost, 'host', 'default'], // a participant's link for another room
      [tokens.host, 'agent', 'default'], // a participant posing as the assistant
      [tokens.host, 'observer', 'default'], // or reading the chat
      [tokens.agent, 'host', 'default'], // an agent replacing the page
      [tokens.agent, 'observer', 'default'],
      [tokens.experimenter, 'host', 'default'],
    ];
    for (const [token, role, room] of tries) {
      const client = await TestClient.connect(server.url, bearer(token));
      const reply = await client.request('relay.join', { role, sessionId: room });
      expect(reply.payload, `${role} in ${room}`).toMatchObject({
        code: 'INVALID_MESSAGE',
        message: expect.stringMatching(/^not allowed/),
      });
      expect(await client.closed()).toBe(1008);
    }
    // The headless host still holds the room: nobody replaced it.
    expect(server.relay.status()).toEqual([
      expect.objectContaining({ room: 'default', host: true, agents: 0, observers: 0 }),
    ]);
    const watcher = await TestClient.join(server.url, 'observer', 'default', tokens.experimenter);
    const agent = await TestClient.join(server.url, 'agent', 'default', tokens.agent);
    expect((await agent.request('session.start', { studyId: 's', participantId: 'p' })).type).toBe('session.started');
    await watcher.waitFor((f) => f.type === 'state.updated');
  });

  it('lets only the holder of the room’s link replace its host, and the replaced page take it back', async () => {
    const { server, tokens } = await guarded();
    const page = await TestClient.join(server.url, 'host', 'other', tokens.otherHost);
    scriptHost(page);
    const agent = await TestClient.join(server.url, 'agent', 'other', tokens.agent);
    const impostor = await TestClient.connect(server.url, bearer(tokens.host));
    expect((await impostor.request('relay.join', { role: 'host', sessionId: 'other' })).payload.code).toBe(
      'INVALID_MESSAGE',
    );
    // A second tab of the same participant replaces the first, which can take the room back by joining again.
    const second = await TestClient.join(server.url, 'host', 'other', tokens.otherHost);
    expect(await page.closed()).toBe(4001);
    const again = await TestClient.join(server.url, 'host', 'other', tokens.otherHost);
    scriptHost(again);
    expect(await second.closed()).toBe(4001);
    expect((await agent.request('session.start', { studyId: 's', participantId: 'p' })).type).toBe('session.started');
  });
});

describe('access control: the HTTP API', () => {
  it('lists rooms only for experimenters', async () => {
    const { server, tokens } = await guarded();
    expect((await http(`${server.url}/api/rooms`)).status).toBe(401);
    expect((await http(`${server.url}/api/rooms`, { token: tokens.agent })).status).toBe(403);
    expect((await http(`${server.url}/api/rooms`, { token: tokens.host })).status).toBe(403);
    const listed = await http(`${server.url}/api/rooms`, { token: tokens.experimenter });
    expect(listed).toMatchObject({ status: 200, body: { rooms: [expect.objectContaining({ room: 'default' })] } });
  });

  it('gives the scenario to the room’s page without its hidden story, whole to experimenters, and never to agents', async () => {
    const { server, tokens } = await guarded();
    expect((await http(`${server.url}/api/scenario`)).status).toBe(401);
    expect((await http(`${server.url}/api/scenario`, { token: tokens.agent })).status).toBe(403);
    const page = await http(`${server.url}/api/scenario`, { token: tokens.host });
    expect(page.status).toBe(200);
    expect(page.body).toHaveProperty('movies');
    expect(page.body).not.toHaveProperty('story');
    const whole = await http(`${server.url}/api/scenario?token=${tokens.experimenter}`);
    expect(whole.body).toMatchObject({ story: WITH_STORY.story });
  });

  it('lets only the room’s participant act through the participant API, and never a page of another site or a form', async () => {
    const { server, tokens } = await guarded();
    const say = `${server.url}/api/rooms/default/participant/message`;
    const json = { 'Content-Type': 'application/json' };
    const body = JSON.stringify({ text: 'hello' });
    expect((await http(say, { method: 'POST', headers: json, body })).status).toBe(401);
    expect((await http(say, { method: 'POST', headers: json, body, token: tokens.otherHost })).status).toBe(403);
    expect((await http(say, { method: 'POST', headers: json, body, token: tokens.agent })).status).toBe(403);
    const crossSite = { ...json, Origin: 'https://evil.example' };
    expect((await http(say, { method: 'POST', headers: crossSite, body, token: tokens.host })).status).toBe(403);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    expect((await http(say, { method: 'POST', headers: form, body: 'text=hello', token: tokens.host })).status).toBe(
      415,
    );
    expect(server.headlessHost?.view().messageHistory).toEqual([]);
    expect((await http(say, { method: 'POST', headers: json, body, token: tokens.host })).status).toBe(202);
    expect(server.headlessHost?.view().messageHistory).toEqual([expect.objectContaining({ text: 'hello' })]);
  });
});

/** A raw HTTP request naming `host`, as a browser does for a page whose name was pointed at 127.0.0.1. */
function asHost(url: string, path: string, host: string, upgrade = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: host };
    if (upgrade) {
      Object.assign(headers, {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version': '13',
      });
    }
    const req = request(`${url}${path}`, { headers });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 101);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('open mode on loopback', () => {
  it('answers only requests that name a loopback host (no DNS rebinding from a page of another site)', async () => {
    const server = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
    const port = new URL(server.url).port;
    expect(await asHost(server.url, '/api/rooms', `rebound.example:${port}`)).toBe(403);
    expect(await asHost(server.url, '/agent/ws', `rebound.example:${port}`, true)).toBe(403);
    expect(await asHost(server.url, '/api/rooms', `127.0.0.1:${port}`)).toBe(200);
    expect(await asHost(server.url, '/api/rooms', `localhost:${port}`)).toBe(200);
    expect(await asHost(server.url, '/agent/ws', `localhost:${port}`, true)).toBe(101);
  });

  it('refuses what a page of another site makes the browser send, unless it is a link followed', async () => {
    const server = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
    // node:http, as fetch writes its own Sec-Fetch-Mode.
    const get = (headers: Record<string, string>) =>
      new Promise<number | undefined>((resolve, reject) => {
        httpGet(`${server.url}/api/rooms`, { headers }, (response) => {
          response.resume();
          resolve(response.statusCode);
        }).on('error', reject);
      });
    // An image or a no-cors fetch on a page of another site: sent by the browser, with no credential needed.
    expect(await get({ 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' })).toBe(403);
    expect(
      await get({ 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors', Origin: 'https://evil.example' }),
    ).toBe(403);
    // A link followed from elsewhere (a study link in an e-mail), the server's own pages, and programs.
    expect(await get({ 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' })).toBe(200);
    expect(await get({ 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors' })).toBe(200);
    expect(await get({})).toBe(200);
  });
});
