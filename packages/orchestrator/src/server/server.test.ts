import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYNC_PATH } from '@usher/protocol/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { OrchestratorStartupError, startOrchestrator } from './server.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('startOrchestrator', () => {
  // ws waits 30 s for a peer's close frame; a frozen agent must not hold the shutdown that long.
  it('stops even when an agent never answers the close handshake', { timeout: 15_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usher-orchestrator-server-'));
    dirs.push(dir);
    const orchestrator = await startOrchestrator({ port: 0, bind: '127.0.0.1', token: 't', dataDir: dir });
    // A client that completes the upgrade and then reads nothing and answers nothing, as a frozen agent would.
    const socket = connect(orchestrator.port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `GET ${SYNC_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n` +
        'Authorization: Bearer t\r\n\r\n',
    );
    const [response] = await once(socket, 'data');
    expect(String(response)).toMatch(/^HTTP\/1\.1 101/);
    socket.pause();
    // close() resolves once the server has let go of every connection, this one included.
    await orchestrator.close();
    socket.destroy();
  });
});

describe('the bearer tokens it is given', () => {
  // A token with a space passed to startOrchestrator started it, and then no header could carry it:
  // `Authorization: Bearer two words` is read up to the space (RFC 6750: a bearer token is one
  // word), so every agent and API call was refused with 401 and nothing said why.
  it('are refused at start when no Authorization header could carry them, naming which and why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usher-orchestrator-server-'));
    dirs.push(dir);
    const base = { port: 0, bind: '127.0.0.1', dataDir: dir };
    await expect(startOrchestrator({ ...base, token: 'two words' })).rejects.toThrow(
      /agents' token cannot be a bearer token: it has a space in it/,
    );
    await expect(startOrchestrator({ ...base, token: 'ok', apiToken: 'api\ttoken' })).rejects.toThrow(
      /API token cannot be a bearer token: it has a space in it/,
    );
    await expect(startOrchestrator({ ...base, token: '' })).rejects.toBeInstanceOf(OrchestratorStartupError);
    await expect(startOrchestrator({ ...base, token: 'caf\u00e9' })).rejects.toThrow(/visible ASCII/);
    // Any visible ASCII is still a token, and is what the header must carry.
    const running = await startOrchestrator({ ...base, token: 'ok', apiToken: 'a+b/c=~!' });
    const sessions = `${running.url}/api/sessions`;
    expect((await fetch(sessions, { headers: { Authorization: 'Bearer a+b/c=~!' } })).status).toBe(200);
    await running.close();
  });
});
