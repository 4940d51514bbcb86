import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { unconfirmedSubmits } from '@usher/booking';
import type { MessageOf } from '@usher/protocol';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { readLog, startStudyServer } from '../testing/index.ts';

/*
 * The demo study's step-approval condition (autopilot, `guard: each-step`), run by 4 simulated
 * participants at once over real sockets, each doing both tasks: they ask for the booking in the
 * chat and approve each proposed step, but reject the agent's first choice of a theater or time,
 * pause the agent and resume it, and take over and hand back, each once a task. The logs hold every
 * control press, proposal, approval and rejection in order; no agent call reaches the page without
 * its approval, none while paused, and none while taken over.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const STEPS: Study = {
  ...LOADED,
  conditions: LOADED.conditions.filter((c) => c.guard === 'each-step').map((c) => ({ ...c, paceMs: 20 })),
};

async function post(base: string, room: string, body: object, route = 'step') {
  const response = await fetch(`${base}/api/participant/${route}?room=${room}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, JSON.stringify(body)).toBe(200);
  return response.json() as Promise<Record<string, unknown>>;
}

type Proposal = MessageOf<'agent.proposal'>;
const proposals = (host: FaultyHost) => host.received.filter((m): m is Proposal => m.type === 'agent.proposal');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Each runs with the agents in the server's thread and in an agent thread (usher serve --agent-threads).
describe.each([
  { where: "agents in the server's thread", agentThreads: 0 },
  { where: 'agents in an agent thread', agentThreads: 1 },
])('the step-approval condition, 4 simulated participants, $where', ({ agentThreads }) => {
  it('logs every control press, proposal, approval and rejection in order, and no unapproved call', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-steps-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const registry = new StudyRegistry(join(work, 'registry.sqlite'));
    onTestFinished(() => registry.close());
    const { server, supervisor } = await startStudyServer({ study: STEPS, registry, agentThreads });

    const participant = async (i: number) => {
      const link = await fetch(`${server.url}/s/demo-01?participant=S${i}`, { redirect: 'manual' });
      const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
      await post(server.url, room, { step: 'consent' });
      // Off the task, a control press changes nothing.
      const early = await fetch(`${server.url}/api/participant/control?room=${room}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ control: 'pause' }),
      });
      expect(early.status).toBe(409);
      for (const planned of registry.byRoom(room)?.plan.tasks ?? []) {
        const task = STEPS.tasks.find((t) => t.id === planned.taskId);
        if (!task) throw new Error(`no task ${planned.taskId}`);
        await post(server.url, room, { step: 'start-task' });
        const host = await FaultyHost.join({ url: server.url, room, scenario: task.world });
        await host.waitFor((m) => m.type === 'agent.message');
        host.say(task.goal ?? task.title);
        let decided = 0;
        let rejected = false;
        let paused = false;
        let tookOver = false;
        await vi.waitFor(
          async () => {
            const open = proposals(host).slice(decided);
            for (const proposal of open) {
              decided += 1;
              const { proposalId, tool, args } = proposal.payload;
              if (!rejected && tool === 'select' && /^(t|sh)-/.test(String(args.itemId))) {
                rejected = true;
                host.decide(proposalId, 'reject');
                continue;
              }
              host.decide(proposalId, 'approve');
              if (!paused && decided >= 3) {
                paused = true;
                await post(server.url, room, { control: 'pause' }, 'control');
                const calls = host.calls.length;
                await sleep(250);
                expect(host.calls.length).toBeLessThanOrEqual(calls + 1);
                const held = host.calls.length;
                await sleep(250);
                expect(host.calls.length).toBe(held);
                expect(await post(server.url, room, { control: 'resume' }, 'control')).toEqual({
                  agentControl: { paused: false, takenOver: false },
                });
              } else if (!tookOver && decided >= 6) {
                tookOver = true;
                expect(await post(server.url, room, { control: 'take-over' }, 'control')).toEqual({
                  agentControl: { paused: false, takenOver: true },
                });
                const calls = host.calls.length;
                await sleep(300);
                expect(host.calls.length).toBeLessThanOrEqual(calls + 1);
                await post(server.url, room, { control: 'hand-back' }, 'control');
              }
            }
            expect(host.protocol.engine.submitted()).not.toBeNull();
          },
          { timeout: 45_000, interval: 20 },
        );
        await post(server.url, room, { step: 'end-task', outcome: 'submitted' });
        host.close();
        await post(
          server.url,
          room,
          { questionnaire: 'per-task', answers: { effort: 1, confident: 5, useful: 5, trust: 5 } },
          'questionnaire',
        );
      }
      return room;
    };
    await Promise.all(Array.from({ length: 4 }, (_, i) => participant(i)));
    await supervisor.stopAll();

    const logs = readdirSync(server.logsDir)
      .filter((f) => f.startsWith('s-'))
      .map((f) => readLog(join(server.logsDir, f)));
    expect(logs).toHaveLength(8);
    for (const log of logs) {
      // The agent's manifest first, then the task.
      expect(log[0]).toMatchObject({ type: 'agent.manifest', payload: { manifest: { guard: 'each-step' } } });
      expect(log[1]?.payload).toMatchObject({ conditionId: 'step-approval' });
      // The presses, each once and in order, with what the agent was doing.
      const presses = log.filter((r) => r.type === 'participant.control');
      expect(presses.map((r) => (r.payload as { control: string }).control)).toEqual([
        'pause',
        'resume',
        'take-over',
        'hand-back',
      ]);
      for (const press of presses) {
        expect(press).toMatchObject({ direction: 'internal', payload: { by: 'participant' } });
        expect(['idle', 'acting', 'asking', 'waiting']).toContain(
          (press.payload as { agentActivity: string }).agentActivity,
        );
      }
      // Every decision follows its proposal; one rejection a task.
      const proposed = new Map<string, number>();
      let rejections = 0;
      log.forEach((r, k) => {
        const p = r.payload as { proposalId: string; decision?: string };
        if (r.type === 'agent.proposal') proposed.set(p.proposalId, k);
        if (r.type === 'participant.proposal') {
          expect(proposed.get(p.proposalId)).toBeLessThan(k);
          if (p.decision === 'reject') rejections += 1;
        }
      });
      expect(rejections).toBe(1);
      // Every agent call that reached the page came after an approval of that very call.
      const approvedAt = (k: number, tool: string) =>
        log.some((r, j) => {
          if (j >= k || r.type !== 'participant.proposal') return false;
          const decision = r.payload as { proposalId: string; decision: string };
          const proposal = log[proposed.get(decision.proposalId) ?? -1]?.payload as { tool?: string } | undefined;
          return decision.decision === 'approve' && proposal?.tool === tool;
        });
      const results = log.filter((r) => r.type === 'tool.result' && (r.payload as { ok: boolean }).ok);
      expect(results.length).toBeGreaterThan(5);
      for (const call of log.filter((r) => r.type === 'tool.call' && r.direction === 'in')) {
        expect(approvedAt(log.indexOf(call), (call.payload as { toolName: string }).toolName)).toBe(true);
      }
      // Between pause and resume, and between take-over and hand-back: at most the one call already on its way.
      const at = (control: string) =>
        log.indexOf(presses.find((r) => (r.payload as { control: string }).control === control) as never);
      for (const [from, to] of [
        ['pause', 'resume'],
        ['take-over', 'hand-back'],
      ] as const) {
        const during = log.slice(at(from), at(to)).filter((r) => r.type === 'tool.call' && r.direction === 'in');
        expect(during.length).toBeLessThanOrEqual(1);
      }
      expect(unconfirmedSubmits(log)).toEqual([]);
      expect(log.at(-1)?.type).toBe('study.task-ended');
    }
  }, 120_000);
});
