import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import WebSocket from 'ws';
import { startOrchestrator } from './server.ts';

/* The orchestrator tried as a stranger would: its API needs its token, and no frame takes it down. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function orchestrator() {
  const dir = mkdtempSync(join(tmpdir(), 'usher-orchestrator-hostile-'));
  dirs.push(dir);
  const logs: string[] = [];
  const running = await startOrchestrator({
    port: 0,
    bind: '127.0.0.1',
    token: 'agents-token',
    apiToken: 'api-token',
    dataDir: dir,
    log: (l) => logs.push(l),
  });
  onTestFinished(() => running.close());
  return { running, logs };
}

describe('the orchestrator, hostile', () => {
  it('refuses the HTTP API without its token, with the agents’ token, and from a page of another site', async () => {
    const { running } = await orchestrator();
    const sessions = `${running.url}/api/sessions`;
    expect((await fetch(sessions, { method: 'POST' })).status).toBe(401);
    expect((await fetch(sessions, { headers: { Authorization: 'Bearer agents-token' } })).status).toBe(401);
    // A form another site posts carries no Authorization header; with one, its Origin gives it away.
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    expect((await fetch(sessions, { method: 'POST', headers: form, body: 'a=1' })).status).toBe(401);
    const crossSite = { Authorization: 'Bearer api-token', Origin: 'https://evil.example' };
    expect((await fetch(sessions, { method: 'POST', headers: crossSite })).status).toBe(403);
    expect(running.system.sessions()).toEqual([]);
    const ok = await fetch(sessions, { method: 'POST', headers: { Authorization: 'Bearer api-token' } });
    expect(ok.status).toBe(201);
  });

  it('reads the bearer scheme in any case, and tells a stranger at /healthz only that it is up', async () => {
    const { running } = await orchestrator();
    const sessions = `${running.url}/api/sessions`;
    for (const scheme of ['bearer', 'BEARER']) {
      expect((await fetch(sessions, { headers: { Authorization: `${scheme} api-token` } })).status).toBe(200);
    }
    expect((await fetch(sessions, { headers: { Authorization: 'Basic api-token' } })).status).toBe(401);
    const agent = new WebSocket(running.syncUrl, { headers: { Authorization: 'bearer agents-token' } });
    await new Promise((resolve, reject) => agent.once('open', resolve).once('error', reject));
    agent.send(
      JSON.stringify({ event_type: 'agent_ready', data: { agent_id: 'a1', agent: 'x', version: '1', requests: [] } }),
    );
    await vi.waitFor(() => expect(running.system.agents()).toHaveLength(1), { timeout: 5000, interval: 20 });
    const stranger = await (await fetch(`${running.url}/healthz`)).json();
    expect(Object.keys(stranger).sort()).toEqual(['ok', 'version']);
    const operator = await (
      await fetch(`${running.url}/healthz`, { headers: { Authorization: 'Bearer api-token' } })
    ).json();
    expect(operator).toMatchObject({ ok: true, agents: [expect.objectContaining({ agent_id: 'a1' })], sessions: 0 });
    agent.terminate();
  });

  it('survives an agent frame nested thousands deep (regression: a deep event_type crashed it) and goes on', async () => {
    const { running, logs } = await orchestrator();
    const ws = new WebSocket(running.syncUrl, { headers: { Authorization: 'Bearer agents-token' } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    ws.send(`{"event_type":${deep}}`);
    ws.send(`{"event_type":{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`);
    ws.send(
      JSON.stringify({ event_type: 'agent_ready', data: { agent_id: 'a1', agent: 'x', version: '1', requests: [] } }),
    );
    await vi.waitFor(() => expect(running.system.agents()).toHaveLength(1), { timeout: 5000, interval: 20 });
    expect(running.system.agents()).toEqual([expect.objectContaining({ agent_id: 'a1' })]);
    expect(logs.join('\n')).toMatch(/nested deeper than 64 levels/);
    ws.terminate();
  });
});
