import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { unconfirmedSubmits } from '@usher/booking';
import { exportStudy, readExportTable } from '@usher/export';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { readLog, startStudyServer } from '../testing/index.ts';

/*
 * The demo study's ask-before-submit condition (autopilot, `confirmBeforeSubmit`), run by 8
 * simulated participants at once over real sockets: each asks for the task's booking in the chat;
 * every other one also clicks Next on the ticket stage as soon as the agent has set the tickets,
 * racing the agent's own Next; each says yes when asked. The logs show the participant's yes
 * after the booking last changed and before every agent submit, for every participant task, and
 * the export counts no submit without it.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const ASKING: Study = {
  ...LOADED,
  // A short pace, so a participant's click can land while the agent's next call waits to be sent.
  conditions: LOADED.conditions.filter((c) => c.id === 'autopilot').map((c) => ({ ...c, paceMs: 30 })),
};

async function post(base: string, room: string, body: object, route = 'step') {
  const response = await fetch(`${base}/api/participant/${route}?room=${room}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ status: string }>;
}

const asked = (host: FaultyHost) =>
  host.protocol.view().messageHistory.filter((m) => m.role === 'agent' && m.text.includes('Shall I book it?')).length;

/** On the ticket stage with as many tickets as seats: the participant clicks Next themselves (once). */
function clickNextOnTickets(host: FaultyHost): () => void {
  let clicked = false;
  const timer = setInterval(() => {
    const spec = host.protocol.view().uiSpec;
    const seats = spec?.state.booking?.seats?.length ?? 0;
    const tickets = Object.values(spec?.state.quantities ?? {}).reduce((n, q) => n + q, 0);
    if (clicked || spec?.stage !== 'ticket' || seats === 0 || tickets !== seats) return;
    clicked = true;
    try {
      host.act('next');
    } catch {
      // The agent's next got there first: nothing to click on this stage.
    }
  }, 1);
  return () => clearInterval(timer);
}

describe('the ask-before-submit condition, 8 simulated participants', () => {
  it("shows the participant's confirmation before every agent submit, in every participant task's log and in the export", async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-asking-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const registryPath = join(work, 'registry.sqlite');
    const registry = new StudyRegistry(registryPath);
    onTestFinished(() => registry.close());
    const { server, supervisor } = await startStudyServer({ study: ASKING, registry });

    const participant = async (i: number) => {
      const link = await fetch(`${server.url}/s/demo-01?participant=Q${i}`, { redirect: 'manual' });
      const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
      await post(server.url, room, { step: 'consent' });
      for (const planned of registry.byRoom(room)?.plan.tasks ?? []) {
        const task = ASKING.tasks.find((t) => t.id === planned.taskId);
        if (!task) throw new Error(`no task ${planned.taskId}`);
        await post(server.url, room, { step: 'start-task' });
        const host = await FaultyHost.join({ url: server.url, room, scenario: task.world });
        const stopClicking = i % 2 === 0 ? clickNextOnTickets(host) : () => {};
        host.say(task.goal ?? task.title);
        // The agent asks (again after any change); the participant says yes each time, until it is booked.
        let answered = 0;
        await vi.waitFor(
          () => {
            if (asked(host) > answered) {
              answered = asked(host);
              host.say('yes');
            }
            expect(host.protocol.engine.submitted()).not.toBeNull();
          },
          { timeout: 30_000, interval: 20 },
        );
        stopClicking();
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
    const rooms = await Promise.all(Array.from({ length: 8 }, (_, i) => participant(i)));
    await supervisor.stopAll();
    expect(new Set(rooms).size).toBe(8);

    const logs = readdirSync(server.logsDir)
      .filter((f) => f.startsWith('s-'))
      .map((f) => readLog(join(server.logsDir, f)));
    expect(logs).toHaveLength(16);
    let agentSubmits = 0;
    for (const log of logs) {
      expect(log[0]?.type).toBe('agent.manifest');
      expect(log[1]?.type).toBe('study.task');
      // The submit: the state that leaves the confirm stage for no stage.
      const states = log.filter((r) => r.type === 'state.updated' && r.direction === 'out');
      const stageOf = (r: (typeof log)[number] | undefined) =>
        (r?.payload as { uiSpec?: { stage?: string } | null } | undefined)?.uiSpec?.stage ?? null;
      const submits = states.filter((r, k) => k > 0 && stageOf(states[k - 1]) === 'confirm' && stageOf(r) === null);
      expect(submits).toHaveLength(1);
      const submit = submits[0] as (typeof log)[number];
      if ((submit.payload as { source?: string }).source === 'agent') {
        agentSubmits += 1;
        // The participant's yes came after the booking last changed, before the submit.
        const at = log.indexOf(submit);
        const yes = log.findLastIndex(
          (r, k) => k < at && r.type === 'user.message' && (r.payload as { text: string }).text === 'yes',
        );
        const changed = log.findLastIndex(
          (r, k) =>
            k < at &&
            r.type === 'state.updated' &&
            r !== submit &&
            ['select', 'setQuantity', 'next', 'prev'].includes(
              String((r.payload as { action?: { toolName?: string } }).action?.toolName),
            ),
        );
        expect(yes).toBeGreaterThan(changed);
      }
      expect(unconfirmedSubmits(log)).toEqual([]);
    }
    expect(agentSubmits).toBeGreaterThan(0);

    const outDir = join(work, 'export');
    await exportStudy({ study: ASKING, registryPath, logsDir: server.logsDir, outDir });
    const tasks = await readExportTable(join(outDir, 'participant_tasks.parquet'));
    expect(tasks).toHaveLength(16);
    for (const row of tasks) {
      expect(row.booked).toBe(true);
      expect(Number(row.unconfirmed_submits)).toBe(0);
    }
  }, 120_000);
});
