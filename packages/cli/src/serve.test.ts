import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import WebSocket from 'ws';
import { startServe, USHER_BIN } from './test-helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `usher …` to completion. */
function usher(args: string[]): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [USHER_BIN, ...args], { cwd: work });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('usher serve: command line', () => {
  it('refuses --agent-threads that is not a whole number of threads from 0 to 64', async () => {
    for (const bad of ['-1', 'two', '65', '1.5']) {
      const result = await usher(['serve', '--agent-threads', bad]);
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toContain('expected a whole number of threads from 0 to 64');
    }
  });

  it('refuses an unknown flag with exit code 2 and says what is wrong', async () => {
    const result = await usher(['serve', '--prot', '8787']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--prot'");
  });

  it.each([
    ['--port', 'eighty', 'port number'],
    ['--port', '70000', 'port number'],
    ['--room', '../up', 'room'],
    ['--trust-proxy', 'proxy.example.org', 'not an IP address, a CIDR range'],
    ['--trust-proxy', '10.0.0.0/40', 'not an IP address, a CIDR range'],
    // A header value is built from it: nothing but a site may get through.
    ['--frame-ancestors', "https://survey.example.org; script-src 'unsafe-inline'", 'is not a site such as'],
    ['--frame-ancestors', '*', 'is not a site such as'],
  ])('refuses %s %s', async (flag, value, hint) => {
    const result = await usher(['serve', flag, value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(hint);
  });

  it('exits 1 with a readable message when the port is busy', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const result = await usher(['serve', '--port', String(port), '--logs', join(work, 'logs')]);
    blocker.close();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`port ${port} is already in use on 127.0.0.1`);
  });

  it('exits 1 when it cannot bind to the address or use the logs folder', async () => {
    const remote = await usher(['serve', '--port', '0', '--bind', '203.0.113.9', '--logs', 'logs']);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain('cannot bind to 203.0.113.9');

    writeFileSync(join(work, 'a-file'), 'not a folder');
    const notAFolder = await usher(['serve', '--port', '0', '--logs', 'a-file/study']);
    expect(notAFolder.code).toBe(1);
    expect(notAFolder.stderr).toContain('cannot create the logs folder a-file/study');
  });

  it('exits 1 naming the file when the scenario is missing, not JSON, or invalid', async () => {
    const missing = await usher(['serve', '--scenario', 'nope.json', '--logs', 'logs']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read scenario nope.json: no such file');

    writeFileSync(join(work, 'broken.json'), '{ "movies": [');
    const broken = await usher(['serve', '--scenario', 'broken.json', '--logs', 'logs']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('scenario broken.json is not valid JSON');

    writeFileSync(join(work, 'invalid.json'), JSON.stringify({ id: 'x', name: 'x', today: 'soon' }));
    const invalid = await usher(['serve', '--scenario', 'invalid.json', '--logs', 'logs']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/scenario invalid\.json is invalid: .*today/);
  });

  it('serves the study page, health and the headless host, and stops cleanly on SIGTERM', async () => {
    const { child, url } = await startServe(['--headless-host', '--logs', join(work, 'logs')], work);
    const page = await fetch(`${url}/?room=default&study=pilot-01&participant=P01`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');
    const health = await (await fetch(`${url}/healthz`)).json();
    expect(health).toMatchObject({ ok: true });
    const rooms = await (await fetch(`${url}/api/rooms`)).json();
    expect(rooms.rooms).toEqual([expect.objectContaining({ room: 'default', host: true })]);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('with --trust-proxy counts the per-address limits by the client a proxy names in X-Forwarded-For', async () => {
    const { url } = await startServe(
      ['--trust-proxy', 'loopback', '--limit', 'maxConnectionsPerAddress=1', '--logs', join(work, 'logs')],
      work,
    );
    const upgrade = (client: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${url.replace('http', 'ws')}/agent/ws`, { headers: { 'X-Forwarded-For': client } });
        ws.once('open', () => resolve(101));
        ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      });
    expect(await upgrade('198.51.100.1')).toBe(101);
    expect(await upgrade('198.51.100.1')).toBe(503);
    expect(await upgrade('198.51.100.2')).toBe(101);
  });

  it('refuses to serve beyond loopback without access control unless told so loudly, and says why', async () => {
    const result = await usher(['serve', '--bind', '0.0.0.0', '--access', 'open', '--logs', 'logs']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/without access control.*--insecure-open-to-everyone/s);
  });

  // Six processes start in this test (the server and five `usher token` runs), each paying Node's
  // and the TypeScript loader's start: on a loaded machine that takes longer than the default allows.
  it('with --access token prints a study link that works and credentials, and usher token makes more', {
    timeout: 60_000,
  }, async () => {
    const data = join(work, 'data-token');
    const child = spawn(
      process.execPath,
      [
        USHER_BIN,
        'serve',
        '--port',
        '0',
        '--access',
        'token',
        '--data',
        data,
        '--headless-host',
        '--logs',
        join(work, 'logs'),
      ],
      { cwd: work },
    );
    // Runs even when the test times out: a test abandoned there may never reach its finally below.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    try {
      await vi.waitFor(() => expect(out).toMatch(/Press Ctrl-C/), { timeout: 10_000 });
      const link = /study page\s+(\S+)/.exec(out)?.[1] as string;
      const experimenter = /experimenter\s+(\S+)/.exec(out)?.[1] as string;
      const base = new URL(link).origin;
      const token = new URL(link).searchParams.get('token') as string;
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect((await fetch(`${base}/api/rooms`)).status).toBe(401);
      expect((await fetch(`${base}/api/rooms`, { headers: { Authorization: `Bearer ${experimenter}` } })).status).toBe(
        200,
      );
      expect((await fetch(`${base}/api/scenario?token=${token}`)).status).toBe(200);
      // usher token makes credentials the running server accepts, from the same secret.
      const minted = await usher(['token', 'experimenter', '--data', data]);
      expect(minted.code).toBe(0);
      const auth = { Authorization: `Bearer ${minted.stdout.trim()}` };
      expect((await fetch(`${base}/api/rooms`, { headers: auth })).status).toBe(200);
      // An experimenter's credential may name them (the console's actions are logged with it); no other may.
      const [named, agentNamed, badName] = await Promise.all([
        usher(['token', 'experimenter', '--name', 'Ada L', '--data', data]),
        usher(['token', 'agent', '--name', 'Ada', '--data', data]),
        usher(['token', 'experimenter', '--name', 'a\nb', '--data', data]),
      ]);
      expect(named.code).toBe(0);
      const claims = JSON.parse(Buffer.from(named.stdout.trim().split('.')[1] as string, 'base64url').toString());
      expect(claims).toMatchObject({ cap: 'experimenter', name: 'Ada L' });
      expect(agentNamed.code).toBe(1);
      expect(badName.code).toBe(2);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
