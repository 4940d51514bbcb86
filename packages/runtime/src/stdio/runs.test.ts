import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import { checkBooking, defaultScenario } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { eventOf, type Line, type RuntimeProcess, spawnRuntime } from './testing/runtime-process.ts';

/*
 * Runs from stdio on a real headless host through a real relay: the booking, the UI's questions
 * (confirm, prompt) with their answers, dismissals, timeouts and withdrawal, and cancel semantics.
 */

const ORDER = ['step_start', 'tool_call', 'tool_result', 'step_complete'];
let runtimes: RuntimeProcess[] = [];

afterEach(() => {
  for (const runtime of runtimes) expect(runtime.impure, 'stdout lines that are not JSON-RPC').toEqual([]);
  runtimes = [];
});

async function studyRoom(args: string[] = []) {
  const scenario = defaultScenario();
  const server = await startTestRelay({ headlessHost: true, scenario });
  const runtime = spawnRuntime(['--url', server.url, ...args]);
  runtimes.push(runtime);
  // Every booking the host took (a booking ends the study session, which resets the host).
  const bookings = () => server.headlessHost?.bookings ?? [];
  return { scenario, server, runtime, bookings };
}

async function startRun(runtime: RuntimeProcess, text: string, extra: Record<string, unknown> = {}) {
  const response = await runtime.request('run.start', { input: { type: 'text', text }, ...extra });
  expect(response.error).toBeUndefined();
  return { runId: String(response.result?.run_id), sessionId: String(response.result?.session_id), response };
}

function eventsOf(runtime: RuntimeProcess, runId: string): Line[] {
  return runtime.notificationsOf(runId).filter((l) => l.method === 'agent.event');
}

function statusesOf(runtime: RuntimeProcess, runId: string): unknown[] {
  return runtime
    .notificationsOf(runId)
    .filter((l) => l.method === 'run.status')
    .map((l) => l.params?.status);
}

/** The UI's request of `method` for the run (sent or to come). */
function uiRequest(runtime: RuntimeProcess, method: string, runId: string): Promise<Line> {
  return runtime.waitFor((l) => l.method === method && 'id' in l && l.params?.run_id === runId);
}

describe('a run from stdio on a headless host', () => {
  it('books what was asked, confirmed through ui.confirm.request, with gapless events in the spec order', async () => {
    const { scenario, runtime, bookings } = await studyRoom();
    await runtime.initialize({ supports_confirm: true });
    const { runId } = await startRun(runtime, ORBITAL_IMAX_PAIR.text);

    const confirm = await uiRequest(runtime, 'ui.confirm.request', runId);
    expect(confirm.params).toMatchObject({
      title: expect.any(String),
      message: expect.stringMatching(/Orbital Drift/),
    });
    expect(bookings()).toEqual([]);
    runtime.send({ jsonrpc: '2.0', id: confirm.id, result: { ok: true } });

    const end = await runtime.runEnd(runId);
    expect(end.params?.status).toBe('completed');
    expect(bookings()).toHaveLength(1);
    const booking = bookings()[0];
    const check = checkBooking(scenario, booking as never, ORBITAL_IMAX_PAIR);
    expect(check.hard.filter((h) => !h.ok)).toEqual([]);

    const events = eventsOf(runtime, runId);
    expect(events.map((l) => l.params?.seq)).toEqual(events.map((_, i) => i));
    const types = events.map((l) => String(eventOf(l).type));
    expect(types.at(-1)).toBe('final');
    const steps = types.filter((t) => ORDER.includes(t));
    expect(steps.length).toBeGreaterThan(8);
    for (let i = 0; i < steps.length; i++) expect(steps[i]).toBe(ORDER[i % 4]);
    expect(String(eventOf(events.at(-1)).content)).toMatch(/booking is confirmed/);

    expect(statusesOf(runtime, runId)).toEqual(['running', 'awaiting_ui', 'running', 'completed']);
    const notes = runtime.notificationsOf(runId);
    expect(notes[0]?.method).toBe('run.status');
    expect(notes[1]).toMatchObject({ method: 'run.context', params: { context_left_percent: 100 } });
    const contexts = notes.filter((l) => l.method === 'run.context');
    expect(contexts.length).toBe(1 + types.filter((t) => t === 'step_complete').length);
    // The terminal status is the run's last word.
    expect(notes.at(-1)).toBe(end);

    const late = await runtime.request('run.cancel', { run_id: runId });
    expect(late.result).toEqual({ ok: false, status: 'completed' });
  }, 60_000);

  it('does not submit when the UI dismisses the confirm dialog with -32003', async () => {
    const { runtime, bookings } = await studyRoom();
    await runtime.initialize({ supports_confirm: true });
    const { runId } = await startRun(runtime, ORBITAL_IMAX_PAIR.text);
    const confirm = await uiRequest(runtime, 'ui.confirm.request', runId);
    runtime.send({ jsonrpc: '2.0', id: confirm.id, error: { code: -32003, message: 'user cancelled' } });
    const end = await runtime.runEnd(runId);
    expect(end.params?.status).toBe('completed');
    expect(bookings()).toEqual([]);
    expect(eventOf(eventsOf(runtime, runId).at(-1)).type).toBe('final');
  }, 60_000);

  it('takes a confirm dialog left unanswered past --ui-timeout as "no"', async () => {
    const { runtime, bookings } = await studyRoom(['--ui-timeout', '300']);
    await runtime.initialize({ supports_confirm: true });
    const { runId } = await startRun(runtime, ORBITAL_IMAX_PAIR.text);
    const confirm = await uiRequest(runtime, 'ui.confirm.request', runId);
    const end = await runtime.runEnd(runId);
    expect(end.params?.status).toBe('completed');
    expect(bookings()).toEqual([]);
    // An answer after the timeout is ignored: nothing books, nothing is answered back.
    const before = runtime.lines.length;
    runtime.send({ jsonrpc: '2.0', id: confirm.id, result: { ok: true } });
    expect((await runtime.request('session.list', { limit: 0 })).result).toEqual({ sessions: [] });
    expect(runtime.lines.length).toBe(before + 1);
    expect(bookings()).toEqual([]);
  }, 60_000);

  it('books without asking when the UI does not support confirm', async () => {
    const { scenario, runtime, bookings } = await studyRoom();
    await runtime.initialize({ supports_prompt: false });
    const { runId } = await startRun(runtime, ORBITAL_IMAX_PAIR.text);
    expect((await runtime.runEnd(runId)).params?.status).toBe('completed');
    expect(runtime.lines.filter((l) => String(l.method).startsWith('ui.'))).toEqual([]);
    expect(statusesOf(runtime, runId)).toEqual(['running', 'completed']);
    expect(checkBooking(scenario, bookings()[0] as never, ORBITAL_IMAX_PAIR).hard.every((h) => h.ok)).toBe(true);
  }, 60_000);

  it('asks for a missing wish with ui.prompt.request and goes on with the answer', async () => {
    const { scenario, runtime, bookings } = await studyRoom();
    await runtime.initialize({ supports_prompt: true });
    const { runId } = await startRun(runtime, 'hello there');
    const prompt = await uiRequest(runtime, 'ui.prompt.request', runId);
    expect(prompt.params).toMatchObject({
      title: expect.any(String),
      message: expect.stringMatching(/could not tell/),
    });
    runtime.send({ jsonrpc: '2.0', id: prompt.id, result: { value: ORBITAL_IMAX_PAIR.text } });
    expect((await runtime.runEnd(runId)).params?.status).toBe('completed');
    expect(checkBooking(scenario, bookings()[0] as never, ORBITAL_IMAX_PAIR).hard.every((h) => h.ok)).toBe(true);
    expect(statusesOf(runtime, runId)).toEqual(['running', 'awaiting_ui', 'running', 'completed']);
  }, 60_000);

  it('offers equally good options with ui.pick.request and books the ones picked', async () => {
    const { runtime, bookings } = await studyRoom();
    await runtime.initialize({ supports_pick: true });
    // No theater or showtime wish: several fit equally well.
    const { runId } = await startRun(runtime, 'Two adults for Orbital Drift tomorrow evening');
    const picked: string[] = [];
    for (;;) {
      const next = await runtime.waitFor(
        (l) =>
          (l.method === 'ui.pick.request' && l.params?.run_id === runId && !picked.includes(lastItemOf(l))) ||
          (l.method === 'run.status' && l.params?.run_id === runId && l.params?.status === 'completed'),
      );
      if (next.method === 'run.status') break;
      // Not the agent's own first choice: the last item offered.
      picked.push(lastItemOf(next));
      runtime.send({ jsonrpc: '2.0', id: next.id, result: { ids: [lastItemOf(next)] } });
    }
    expect(picked.length).toBeGreaterThan(0);
    const [booking] = bookings();
    expect(picked).toContain(booking?.theaterId);
  }, 60_000);
});

/** The id of the last item a `ui.pick.request` offers. */
function lastItemOf(line: Line): string {
  const items = (line.params?.items ?? []) as { id: string }[];
  return String(items.at(-1)?.id);
}

describe('cancel', () => {
  it('cancels a run waiting on a confirm dialog: withdrawn, nothing booked, nothing sent after', async () => {
    const { runtime, bookings } = await studyRoom();
    await runtime.initialize({ supports_confirm: true });
    const { runId, sessionId } = await startRun(runtime, ORBITAL_IMAX_PAIR.text);
    const confirm = await uiRequest(runtime, 'ui.confirm.request', runId);

    const cancel = await runtime.request('run.cancel', { run_id: runId });
    expect(cancel.result).toEqual({ ok: true, status: 'cancelled' });
    const cancelled = await runtime.runEnd(runId);
    expect(cancelled.params?.status).toBe('cancelled');
    const cancelledAt = runtime.lines.indexOf(cancelled);

    // The withdrawn dialog's late "yes" books nothing.
    runtime.send({ jsonrpc: '2.0', id: confirm.id, result: { ok: true } });
    // A fence: the next run in the same session completes, so the cancelled one had every chance to speak.
    const next = await startRun(runtime, 'yes, book it', { session_id: sessionId });
    const confirmNext = await uiRequest(runtime, 'ui.confirm.request', next.runId);
    runtime.send({ jsonrpc: '2.0', id: confirmNext.id, result: { ok: false } });
    expect((await runtime.runEnd(next.runId)).params?.status).toBe('completed');

    expect(runtime.lines.slice(cancelledAt + 1).filter((l) => l.params?.run_id === runId)).toEqual([]);
    expect(statusesOf(runtime, runId)).toEqual(['running', 'awaiting_ui', 'cancelled']);
    expect(bookings()).toEqual([]);
    const again = await runtime.request('run.cancel', { run_id: runId });
    expect(again.result).toEqual({ ok: false, status: 'cancelled' });
  }, 60_000);

  it('cancels a run in the middle of its tool calls, and nothing follows its cancelled status', async () => {
    const { runtime } = await studyRoom();
    await runtime.initialize({});
    const { runId } = await startRun(runtime, ORBITAL_IMAX_PAIR.text);
    // Cancel once the agent is in the middle of a tool call (after a tool_call, before its result).
    await runtime.waitFor(
      (l) => l.method === 'agent.event' && l.params?.run_id === runId && eventOf(l).type === 'tool_call',
    );
    const cancel = await runtime.request('run.cancel', { run_id: runId });
    expect(cancel.result).toEqual({ ok: true, status: 'cancelled' });
    const cancelled = await runtime.runEnd(runId);
    const cancelledAt = runtime.lines.indexOf(cancelled);
    // A fence: a run that ends after the cancelled one has let go of the engine.
    const next = await startRun(runtime, 'go on');
    await runtime.runEnd(next.runId);
    expect(runtime.lines.slice(cancelledAt + 1).filter((l) => l.params?.run_id === runId)).toEqual([]);
    const events = eventsOf(runtime, runId);
    expect(events.map((l) => l.params?.seq)).toEqual(events.map((_, i) => i));
    expect(events.map((l) => eventOf(l).type)).not.toContain('final');
    expect(statusesOf(runtime, runId)).toEqual(['running', 'cancelled']);
  }, 60_000);
});
