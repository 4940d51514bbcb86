import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultyHost } from '@usher/agent/testing';
import { exportStudy, readExportTable } from '@usher/export';
import { loadStudyFile, type Study, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { startStudyServer, TestClient } from '../testing/index.ts';

/*
 * What a researcher exports after a study as it runs: participants answer the questionnaires, an
 * experimenter takes a room over from the agent and hands it back, and the server restarts while
 * a participant is mid-task, who goes on in a second study log. `usher export` must read all of it
 * as it happened: no problem rows, each action its actor's, the two logs of the resumed task in
 * one participant task row.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
// The agents work at full speed; each participant's condition is named in the link.
const DEMO: Study = {
  ...LOADED,
  conditions: LOADED.conditions.map((c) => ({ ...c, paceMs: 0 })),
  assignment: { ...LOADED.assignment, conditions: 'link' },
};
const WAIT = { timeout: 20_000, interval: 50 };

async function post(base: string, path: string, body: object) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type View = {
  status: string;
  task?: { id: string };
  questionnaire?: { kind: string; sections: { items: Record<string, unknown>[] }[] };
};
const viewOf = async (base: string, room: string) =>
  (await (await fetch(`${base}/api/participant?room=${room}`)).json()) as View;
const step = async (base: string, room: string, body: object) => {
  const done = await post(base, `/api/participant/step?room=${room}`, body);
  expect(done.status).toBe(200);
  return done.body as View;
};

/** Answers every questionnaire the participant is on, one after the other (the first option, the lowest point). */
async function answerQuestionnaires(base: string, room: string): Promise<View> {
  for (;;) {
    const view = await viewOf(base, room);
    if (!view.questionnaire) return view;
    const answers: Record<string, unknown> = {};
    for (const item of view.questionnaire.sections.flatMap((section) => section.items)) {
      const first = (item.options as { value: string }[] | undefined)?.[0]?.value;
      if (item.kind === 'likert') answers[item.id as string] = item.from;
      else if (item.kind === 'single') answers[item.id as string] = first;
      else if (item.kind === 'multiple') answers[item.id as string] = [first];
      else if (item.kind === 'slider') answers[item.id as string] = 50;
    }
    const answered = await post(base, `/api/participant/questionnaire?room=${room}`, {
      questionnaire: view.questionnaire.kind,
      answers,
    });
    expect(answered.status).toBe(200);
  }
}

/** The participant books alone on the page: the first option of every stage, as many seats and adult tickets as wanted. */
function bookFirstOptions(host: FaultyHost, seats: number): void {
  for (let guard = 0; guard < 20; guard++) {
    const spec = host.protocol.view().uiSpec;
    if (!spec) return;
    const free = spec.visibleItems.filter((item) => !item.isDisabled);
    if (spec.stage === 'seat') for (const item of free.slice(0, seats)) host.act('select', { itemId: item.id });
    else if (spec.stage === 'ticket') host.act('setQuantity', { typeId: 'adult', quantity: seats });
    else if (spec.stage !== 'confirm') host.act('select', { itemId: free[0]?.id as string });
    host.act('next', {});
  }
}

const said = (host: FaultyHost, text: RegExp) => host.protocol.view().messageHistory.some((m) => text.test(m.text));

describe('usher export after a study with questionnaires, a take-over and a restart', () => {
  it('has no problem rows, each action its actor’s, and the resumed task’s two logs in its one row', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-export-restart-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const logsDir = join(work, 'logs');
    const registryPath = join(work, 'registry.sqlite');
    // The study's clock, days behind the machine's, and moving.
    const now = () => new Date(Date.now() - 3 * 86_400_000);
    const serve = async () => {
      const registry = new StudyRegistry(registryPath);
      const started = await startStudyServer({ now, logsDir, study: DEMO, registry, registryPath });
      return { ...started, registry };
    };
    const first = await serve();
    let base = first.server.url;
    const admit = async (name: string, condition: string) => {
      const link = await fetch(`${base}/s/${DEMO.id}?participant=${name}&condition=${condition}`, {
        redirect: 'manual',
      });
      const room = new URL(link.headers.get('location') as string, base).searchParams.get('room') as string;
      await step(base, room, { step: 'consent' });
      return room;
    };
    const taskOf = (view: View) => {
      const task = DEMO.tasks.find((t) => t.id === view.task?.id);
      if (!task) throw new Error(`no task ${view.task?.id}`);
      return task;
    };
    const seatsOf = (task: (typeof DEMO.tasks)[number]) => {
      const wanted = task.success.hard.find((h) => h.kind === 'seatCount');
      return wanted?.kind === 'seatCount' ? wanted.count : 2;
    };
    /** The agent books what the participant asks for, once they say yes. */
    const agentBooks = async (host: FaultyHost, goal: string) => {
      host.say(goal);
      await vi.waitFor(() => expect(said(host, /Shall I book/)).toBe(true), WAIT);
      host.say('yes');
      await vi.waitFor(() => expect(host.protocol.engine.submitted()).not.toBeNull(), WAIT);
    };

    // W, with the agent: on the first task an experimenter takes the room over, picks a film and
    // says so in the chat, and hands back; the agent books. The second task the agent books alone.
    const w = await admit('W', 'autopilot');
    for (let i = 0; i < 2; i++) {
      const task = taskOf(await step(base, w, { step: 'start-task' }));
      const host = await FaultyHost.join({ url: base, room: w, scenario: task.world });
      await vi.waitFor(() => expect(first.supervisor.isRunning(w)).toBe(true));
      if (i === 0) {
        expect((await post(base, `/api/console/rooms/${w}/take-over`, { reason: 'the agent misread' })).status).toBe(
          200,
        );
        const wizard = await TestClient.connect(base, {}, 'as=experimenter');
        expect((await wizard.request('relay.join', { role: 'agent', sessionId: w })).type).toBe('relay.joined');
        const movie = host.protocol.view().uiSpec?.visibleItems[0]?.id as string;
        const call = await wizard.request('tool.call', { toolName: 'select', params: { itemId: movie }, reason: 'x' });
        expect(call.type).toBe('tool.result');
        wizard.send({ v: 'mvp-0.2', type: 'agent.message', payload: { text: 'I picked the first film.' } });
        await vi.waitFor(() => expect(said(host, /^I picked/)).toBe(true));
        wizard.close();
        expect((await post(base, `/api/console/rooms/${w}/hand-back`, {})).status).toBe(200);
        await vi.waitFor(() => expect(first.supervisor.isRunning(w)).toBe(true));
      }
      await agentBooks(host, task.goal ?? task.title);
      // The booking's state.updated is logged before the task ends (it travels on the page's socket).
      await new Promise((resolve) => setTimeout(resolve, 200));
      await step(base, w, { step: 'end-task', outcome: 'submitted', taskIndex: i });
      host.close();
      await answerQuestionnaires(base, w);
    }
    expect((await viewOf(base, w)).status).toBe('done');

    // R, alone: the page chooses a film, and the server stops.
    const r = await admit('R', 'alone');
    const rTask = taskOf(await step(base, r, { step: 'start-task' }));
    const before = await FaultyHost.join({ url: base, room: r, scenario: rTask.world });
    const film = before.protocol.view().uiSpec?.visibleItems[0]?.id as string;
    before.act('select', { itemId: film });
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.supervisor.stopAll();
    await first.server.close();
    first.registry.close();
    before.close();

    // The server is back: R's task, whose page was there at the stop, is resumed; the page comes
    // back and books, and R goes on to the end.
    const second = await serve();
    onTestFinished(() => second.registry.close());
    base = second.server.url;
    expect(second.server.study?.resumeAll()).toEqual({ resumed: 1, waiting: 0, gone: 0 });
    const after = await FaultyHost.join({ url: base, room: r, scenario: rTask.world });
    bookFirstOptions(after, seatsOf(rTask));
    await vi.waitFor(() => expect(after.protocol.engine.submitted()).not.toBeNull(), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await step(base, r, { step: 'end-task', outcome: 'submitted', taskIndex: 0 });
    after.close();
    await answerQuestionnaires(base, r);
    const next = taskOf(await step(base, r, { step: 'start-task' }));
    const last = await FaultyHost.join({ url: base, room: r, scenario: next.world });
    bookFirstOptions(last, seatsOf(next));
    await vi.waitFor(() => expect(last.protocol.engine.submitted()).not.toBeNull(), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await step(base, r, { step: 'end-task', outcome: 'submitted', taskIndex: 1 });
    last.close();
    expect((await answerQuestionnaires(base, r)).status).toBe('done');
    second.supervisor.stopAll();
    await second.server.close();

    const out = join(work, 'export');
    const result = await exportStudy({ study: DEMO, registryPath, logsDir, outDir: out });
    expect(result.problemCount).toBe(0);
    expect(await readExportTable(join(out, 'log_problems.parquet'))).toEqual([]);
    const ids = Object.fromEntries(second.registry.participants(DEMO.id).map((p) => [p.externalId, p.id]));
    const tasks = await readExportTable(join(out, 'participant_tasks.parquet'));
    expect(tasks).toHaveLength(4);
    const row = (who: string, index: number) =>
      tasks.find((t) => t.participant_id === ids[who] && Number(t.task_index) === index) as Record<string, unknown>;
    for (const t of tasks) expect(t).toMatchObject({ booked: true, outcome: 'booked' });

    // The take-over: the experimenter's call and message are theirs, the agent's are the agent's.
    expect(row('W', 0)).toMatchObject({ sessions: '1', experimenter_actions: '1', submitted_by: 'agent' });
    expect(Number(row('W', 0).agent_actions)).toBeGreaterThan(3);
    expect(row('W', 1)).toMatchObject({ sessions: '1', experimenter_actions: '0', submitted_by: 'agent' });
    const events = await readExportTable(join(out, 'events.parquet'));
    const wizard = events.filter((e) => e.actor === 'experimenter');
    expect(wizard.filter((e) => e.type === 'tool.call').map((e) => e.tool_name)).toEqual(['select']);
    expect(wizard.some((e) => e.type === 'agent.message')).toBe(true);
    expect(wizard.some((e) => e.type === 'state.updated')).toBe(true);
    expect(new Set(wizard.map((e) => e.participant_id))).toEqual(new Set([ids.W]));
    // Their chat message is theirs in the row too, not the agent's.
    const chat = (actor: string) =>
      events.filter(
        (e) =>
          e.participant_id === ids.W &&
          e.task_id === row('W', 0).task_id &&
          e.actor === actor &&
          (e.type === 'agent.message' || (e.type === 'tool.call' && e.tool_name === 'postMessage')),
      ).length;
    expect(chat('agent')).toBeGreaterThanOrEqual(2);
    expect(row('W', 0)).toMatchObject({
      messages_from_agent: String(chat('agent')),
      messages_from_experimenter: '1',
    });
    expect(events.filter((e) => e.participant_id === ids.R).every((e) => e.actor !== 'agent')).toBe(true);

    // The restart: R's first task is one row of two sessions, the second marked resumed, from the
    // first log's start to the second's end, booked by the participant.
    const resumed = row('R', 0);
    expect(resumed).toMatchObject({ sessions: '2', submitted_by: 'participant', agent_actions: '0' });
    const sessionIds = String(resumed.session_ids).split(' ');
    expect(sessionIds).toHaveLength(2);
    const starts = events.filter((e) => e.type === 'study.task' && e.participant_id === ids.R);
    expect(starts.filter((e) => sessionIds.includes(String(e.session_id))).map((e) => e.session_id)).toEqual(
      sessionIds,
    );
    expect(String(resumed.started_at)).toBe(String(starts[0]?.timestamp));
    expect(Number(resumed.participant_actions)).toBeGreaterThan(1);
    expect(row('R', 1)).toMatchObject({ sessions: '1', submitted_by: 'participant' });

    // Every questionnaire answered is there: two per-task each and the post-study one.
    const wide = await readExportTable(join(out, 'questionnaire_wide.parquet'));
    expect(wide.length).toBeGreaterThanOrEqual(4);
    const participants = await readExportTable(join(out, 'participants.parquet'));
    expect(participants.map((p) => p.status).sort()).toEqual(['done', 'done']);
  }, 120_000);
});
