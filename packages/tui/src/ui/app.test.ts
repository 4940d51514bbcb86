import { describe, expect, it, vi } from 'vitest';
import { CTRL_C, ENTER, ESC, startApp, startRun, step } from '../test-support/app-harness.ts';

describe('the terminal UI', () => {
  it('starts a run from the input line and shows its progress, last step and final answer', async () => {
    const app = await startApp();
    const request = await startRun(app, 'Two adults for Orbital Drift tomorrow evening');
    expect(request.params).toEqual({ input: { type: 'text', text: 'Two adults for Orbital Drift tomorrow evening' } });
    await app.see('RUNNING · tool=- · step=0 · ctx=-');

    app.runtime.notify('run.context', { run_id: 'run-1', context_left_percent: 92 });
    step(app.runtime, 'run-1', 1, 'select', true, 12);
    await app.see('RUNNING · tool=select · step=1 · ctx=92%');
    await app.see('step 1 · select · item1 · ok · 12 ms');

    step(app.runtime, 'run-1', 2, 'select', false, 30);
    await app.see('RUNNING · tool=select · step=2 · ctx=92%');
    await app.see('step 2 · select · item2 · err · 30 ms · TOOL_EXECUTION_FAILED: seat taken');

    app.runtime.notify('agent.event', {
      run_id: 'run-1',
      seq: 8,
      event: { type: 'text', content: 'Picking seats F7 and F8.', timestamp: 1 },
    });
    app.runtime.notify('agent.event', {
      run_id: 'run-1',
      seq: 9,
      event: { type: 'final', content: 'Booked 2 adults, IMAX 19:30.' },
    });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'completed' });
    await app.see('DONE · tool=select · step=2 · ctx=92%');
    expect(app.screen()).toContain('Picking seats F7 and F8.');
    expect(app.screen()).toContain('◆ Booked 2 adults, IMAX 19:30.');
  });

  it('prints an answer once when the agent says it and then ends with it', async () => {
    const app = await startApp();
    await startRun(app, 'book it');
    const say = (seq: number, event: object) => app.runtime.notify('agent.event', { run_id: 'run-1', seq, event });
    say(0, { type: 'text', content: 'Looking for Orbital Drift.', timestamp: 1 });
    await app.see('Looking for Orbital Drift.');
    say(1, { type: 'text', content: 'Your booking is confirmed: USH-1.', timestamp: 2 });
    say(2, { type: 'final', content: 'Your booking is confirmed: USH-1.' });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'completed' });
    await app.see('DONE');
    expect(app.screen().match(/Your booking is confirmed: USH-1\./g)).toHaveLength(1);
    expect(app.screen()).toContain('◆ Your booking is confirmed: USH-1.');
    expect(app.screen()).toContain('Looking for Orbital Drift.');
  });

  it('prints an answer once when a dialog came between the text that says it and the final', async () => {
    const app = await startApp();
    await startRun(app, 'Winter Kings tomorrow');
    const answer = 'I could not find a booking that fits. Could you relax one of your wishes?';
    app.runtime.notify('agent.event', {
      run_id: 'run-1',
      seq: 0,
      event: { type: 'text', content: answer, timestamp: 1 },
    });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'awaiting_ui' });
    app.runtime.ask('p-1', 'ui.prompt.request', {
      run_id: 'run-1',
      title: 'The agent needs to know',
      message: 'Which?',
    });
    await app.see('The agent needs to know');
    app.ui.stdin.write(ESC);
    expect((await app.runtime.response('p-1')).result).toEqual({ value: null });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'running' });
    app.runtime.notify('agent.event', { run_id: 'run-1', seq: 1, event: { type: 'final', content: answer } });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'completed' });
    await app.see('DONE');
    expect(app.screen().match(/I could not find a booking that fits/g)).toHaveLength(1);
    expect(app.screen()).toContain(`◆ ${answer}`);
  });

  it('keeps the marks before lines that wrap: the instruction, the final answer and the input', async () => {
    const app = await startApp();
    const long = `Two adults for Orbital Drift tomorrow evening in IMAX, ${'seats together in the middle, '.repeat(4)}end`;
    app.ui.stdin.write(long);
    await app.see('› Two adults for Orbital Drift');
    await app.see('middle, end');
    app.ui.stdin.write(ENTER);
    app.runtime.answer(await app.runtime.request('run.start'), { run_id: 'run-1', session_id: 's' });
    app.runtime.notify('agent.event', { run_id: 'run-1', seq: 0, event: { type: 'final', content: long } });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'completed' });
    await app.see('DONE');
    expect(app.screen()).toContain('❯ Two adults for Orbital Drift');
    expect(app.screen()).toContain('◆ Two adults for Orbital Drift');
  });

  it('wraps the transcript within the terminal: no line is wider than its 100 columns', async () => {
    const app = await startApp();
    await startRun(app, 'Winter Kings tomorrow');
    const answer =
      'I could not find a booking that fits: No movie titled "Winter Kings": Winter Kings has no showings; the movies showing are Paper Lanterns, Orbital Drift, The Quiet Harbor, Second Helpings, Love in Lisbon. Could you relax one of your wishes, or tell me what matters most?';
    app.runtime.notify('agent.event', { run_id: 'run-1', seq: 0, event: { type: 'final', content: answer } });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'error', message: answer });
    await app.see('ERROR');
    await app.see('✗ run failed');
    const lines = app.screen().split('\n');
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
  });

  it('cuts the session, not the status line, on a narrow terminal', async () => {
    const app = await startApp({}, 60);
    await app.type('book it');
    app.runtime.answer(await app.runtime.request('run.start'), {
      run_id: 'run-1',
      session_id: '20261121-132910-570f8f',
    });
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'running' });
    app.runtime.notify('run.context', { run_id: 'run-1', context_left_percent: 92 });
    step(app.runtime, 'run-1', 12, 'setQuantity', true, 5);
    await app.see('RUNNING · tool=setQuantity · step=12 · ctx=92%');
  });

  it('submits a pasted line at its line break', async () => {
    const app = await startApp();
    app.ui.stdin.write('Two adults tomorrow\rthen');
    const start = await app.runtime.request('run.start');
    expect(start.params).toEqual({ input: { type: 'text', text: 'Two adults tomorrow' } });
    await app.see('› then');
  });

  it('keeps keys sent faster than a render: Enter right after the text submits the text', async () => {
    const app = await startApp();
    app.ui.stdin.write('/help');
    app.ui.stdin.write(ENTER);
    await app.see('Commands');
    await startRun(app, 'book');
    app.runtime.ask('p-9', 'ui.prompt.request', { run_id: 'run-1', title: 'Which?', message: 'Which movie?' });
    await app.see('Which movie?');
    app.ui.stdin.write('Orbital Drift');
    app.ui.stdin.write(ENTER);
    expect((await app.runtime.response('p-9')).result).toEqual({ value: 'Orbital Drift' });
  });

  it('continues the session: the next run.start carries its session_id', async () => {
    const app = await startApp();
    await startRun(app, 'first');
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'completed' });
    await app.see('DONE');
    await app.type('make it 3D instead');
    const second = await app.runtime.request('run.start');
    expect(second.params).toEqual({ input: { type: 'text', text: 'make it 3D instead' }, session_id: 'sess-1' });
  });

  it('shows a run that failed in red, with its message', async () => {
    const app = await startApp();
    await startRun(app, 'book it');
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'error', message: 'cannot reach the relay' });
    await app.see('ERROR · tool=- · step=0 · ctx=- · cannot reach the relay');
    expect(app.screen()).toContain('✗ run failed: cannot reach the relay');
  });

  it('cancels a running run with Esc, and shows CANCELLED once the runtime confirms', async () => {
    const app = await startApp();
    await startRun(app, 'book it', 'run-7');
    step(app.runtime, 'run-7', 1, 'select', true, 5);
    await app.see('step=1');
    app.ui.stdin.write(ESC);
    const cancel = await app.runtime.request('run.cancel');
    expect(cancel.params).toMatchObject({ run_id: 'run-7' });
    await app.see('CANCELLING · tool=select · step=1');
    app.runtime.answer(cancel, { ok: true, status: 'cancelled' });
    app.runtime.notify('run.status', { run_id: 'run-7', status: 'cancelled' });
    await app.see('CANCELLED · tool=select · step=1');
    // Nothing counts after the cancelled status.
    step(app.runtime, 'run-7', 2, 'next', true, 5);
    app.runtime.notify('run.status', { run_id: 'run-7', status: 'completed' });
    app.runtime.notify('run.context', { run_id: 'run-8', context_left_percent: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(app.screen()).toContain('CANCELLED · tool=select · step=1');
    expect(app.screen()).not.toContain('item2');
  });

  it('cancels a run whose run.start is still unanswered as soon as its id is known', async () => {
    const app = await startApp();
    await app.type('book it');
    app.ui.stdin.write(ESC);
    const start = await app.runtime.request('run.start');
    await app.see('CANCELLING');
    expect(app.runtime.received.some((m) => m.method === 'run.cancel')).toBe(false);
    app.runtime.answer(start, { run_id: 'run-3', session_id: 's' });
    const cancel = await app.runtime.request('run.cancel');
    expect(cancel.params).toMatchObject({ run_id: 'run-3' });
  });

  it('Ctrl-C cancels a run first and quits the second time', async () => {
    const app = await startApp();
    await startRun(app, 'book it');
    app.ui.stdin.write(CTRL_C);
    await app.runtime.request('run.cancel');
    await app.see('Ctrl-C again to quit');
    expect(app.quit).not.toHaveBeenCalled();
    app.ui.stdin.write(CTRL_C);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledOnce());
  });

  it('Ctrl-C quits at once when no run is in progress', async () => {
    const app = await startApp();
    app.ui.stdin.write(CTRL_C);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledOnce());
    expect(app.runtime.received.some((m) => m.method === 'run.cancel')).toBe(false);
  });

  it('shows a line that is not the protocol as an error and keeps working', async () => {
    const app = await startApp();
    app.runtime.sendLine('Debugger attached.');
    await app.see('✗ the runtime sent a line that is not JSON: Debugger attached.');
    await startRun(app, 'still works');
    await app.see('RUNNING');
  });
});
