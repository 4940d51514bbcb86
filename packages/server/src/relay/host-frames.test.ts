import { describe, expect, it } from 'vitest';
import { envelope, readLog, startTestServer, TestClient } from '../testing/index.ts';

/*
 * A researcher's own host follows the spec, not Usher's shapes: its own session ids, its own item
 * records in the page a tool result carries. The relay checks such frames for safety and carries
 * them; what is inside the page is the agent's to read.
 */
describe('relay: a host it did not grow up with', () => {
  it("answers with the relay's session id when the host names its own, and carries a tool result with the host's own page", async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    const agent = await TestClient.join(server.url, 'agent');

    const started = agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    const start = await host.waitFor((f) => f.type === 'session.start');
    host.send(envelope('session.started', { sessionId: 'web-1' }, { replyTo: start.id as string }));
    const sessionId = String(start.payload.sessionId);
    expect((await started).payload).toEqual({ sessionId });

    const page = {
      stage: 'movie',
      items: [{ filmId: 'F-101', name: 'Orbital Drift', stars: '4.2' }],
      state: { workflow: 1 },
    };
    const result = agent.request('tool.call', {
      toolName: 'select',
      params: { id: 'F-101' },
      reason: 'the film asked for',
    });
    const call = await host.waitFor((f) => f.type === 'tool.call');
    host.send(envelope('tool.result', { ok: true, toolName: 'select', uiSpec: page }, { replyTo: call.id as string }));
    expect((await result).payload).toEqual({ ok: true, toolName: 'select', uiSpec: page });
    expect(host.frames.filter((f) => f.type === 'error')).toEqual([]);
    const logged = readLog(`${server.logsDir}/${sessionId}.jsonl`).find((r) => r.type === 'tool.result');
    expect(logged?.payload).toEqual({ ok: true, toolName: 'select', uiSpec: page });

    const ended = agent.request('session.end', { reason: 'booking-complete' });
    const end = await host.waitFor((f) => f.type === 'session.end');
    host.send(
      envelope('session.ended', { sessionId: 'web-1', logFile: '', stateReset: true }, { replyTo: end.id as string }),
    );
    expect((await ended).payload).toEqual({ sessionId, logFile: expect.stringContaining(sessionId), stateReset: true });
  });

  it('still refuses a session id that is no short string, and drops a stray key of a tool result', async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    const agent = await TestClient.join(server.url, 'agent');
    const started = agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    const start = await host.waitFor((f) => f.type === 'session.start');
    host.send(envelope('session.started', { sessionId: 'x'.repeat(200) }, { replyTo: start.id as string }));
    expect((await started).payload).toMatchObject({ code: 'TOOL_EXECUTION_FAILED' });

    const result = agent.request('tool.call', { toolName: 'next', params: {}, reason: 'on' });
    const call = await host.waitFor((f) => f.type === 'tool.call');
    host.send(
      envelope(
        'tool.result',
        { ok: true, toolName: 'next', backendData: { price: 'secret' } },
        { replyTo: call.id as string },
      ),
    );
    // The result goes on without the key the contract does not name: nothing of it reaches the agent.
    expect((await result).payload).toEqual({ ok: true, toolName: 'next' });
    expect(JSON.stringify(agent.frames)).not.toContain('secret');
  });
});
