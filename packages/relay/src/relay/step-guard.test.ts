import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultScenario } from '@usher/booking';
import { PROTOCOL_VERSION, type UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { readLog, startTestRelay, TestClient } from '../testing/index.ts';

/*
 * Step approval on the relay's side: in a room whose condition approves each step, an agent's tool
 * call reaches the page only as the participant approved it (same tool, same params), once per
 * approval; the proposal and the decision are logged as they pass.
 */

async function room(approvesEachStep: boolean) {
  const { url, relay, headlessHost, logsDir } = await startTestRelay({
    headlessHost: true,
    scenario: defaultScenario(),
  });
  relay.attach({ approvesEachStep: () => approvesEachStep });
  const host = headlessHost as NonNullable<typeof headlessHost>;
  const agent = await TestClient.join(url, 'agent');
  await agent.request('session.start', { studyId: 'steps', participantId: 'P1' });
  const spec = (await agent.request('snapshot.get')).payload.uiSpec as UiSpec;
  const film = spec.visibleItems.find((i) => !i.isDisabled)?.id as string;
  return { agent, host, film, logsDir };
}

/** Sends a proposal, and a request after it, so the relay has the proposal before the participant can decide. */
async function propose(agent: TestClient, proposalId: string, tool: string, args: object) {
  agent.send({ v: PROTOCOL_VERSION, type: 'agent.proposal', payload: { proposalId, tool, args, reason: 'you asked' } });
  await agent.request('snapshot.get');
}

describe('the step guard', () => {
  it('lets through only the call the participant approved, once, and logs proposal and decision in order', async () => {
    const { agent, host, film, logsDir } = await room(true);
    const select = { toolName: 'select', params: { itemId: film }, reason: 'you asked' };
    const unapproved = await agent.request('tool.call', select);
    expect(unapproved.type).toBe('error');
    expect(unapproved.payload).toMatchObject({ code: 'TOOL_EXECUTION_FAILED' });
    expect(String(unapproved.payload.message)).toMatch(/approves each step/);

    await propose(agent, 'p1', 'select', { itemId: film });
    // A rejected proposal lets nothing through.
    host.decide('p1', 'reject', 'no, another one');
    await agent.nextMatching((f) => f.type === 'participant.proposal');
    expect((await agent.request('tool.call', select)).type).toBe('error');

    await propose(agent, 'p2', 'select', { itemId: film });
    host.decide('p2', 'approve');
    await agent.nextMatching((f) => f.type === 'participant.proposal' && f.payload.proposalId === 'p2');
    // Other params than approved: refused; the approved call: through; the same again: refused.
    expect((await agent.request('tool.call', { ...select, params: { itemId: 'm-other' } })).type).toBe('error');
    expect((await agent.request('tool.call', select)).type).toBe('tool.result');
    expect((await agent.request('tool.call', select)).type).toBe('error');

    const log = readLog(join(logsDir, readdirSync(logsDir).find((f) => f.startsWith('s-')) as string));
    const types = log.map((r) => `${r.direction} ${r.type}`);
    const at = (t: string, from = 0) => types.indexOf(t, from);
    expect(at('in agent.proposal')).toBeGreaterThan(0);
    expect(at('out participant.proposal')).toBeGreaterThan(at('in agent.proposal'));
    expect(log.filter((r) => r.type === 'participant.proposal').map((r) => r.payload)).toEqual([
      { proposalId: 'p1', decision: 'reject', comment: 'no, another one' },
      { proposalId: 'p2', decision: 'approve' },
    ]);
  });

  it('in a room that does not approve each step, calls go through without proposals', async () => {
    const { agent, film } = await room(false);
    const reply = await agent.request('tool.call', { toolName: 'select', params: { itemId: film }, reason: 'r' });
    expect(reply.type).toBe('tool.result');
  });
});
