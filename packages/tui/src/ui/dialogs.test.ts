import { describe, expect, it, vi } from 'vitest';
import { DOWN, ENTER, ESC, type RunningApp, startApp, startRun } from '../test-support/app-harness.ts';

describe('dialogs', () => {
  async function confirmOn(app: RunningApp, id: string, params: object = {}) {
    app.runtime.ask(id, 'ui.confirm.request', {
      run_id: 'run-1',
      title: 'Submit this booking?',
      message: 'Orbital Drift · IMAX · 2 adults · F7, F8',
      confirm_label: 'Book',
      cancel_label: 'Not now',
      ...params,
    });
    await app.see('Submit this booking?');
    await app.see('Book (y)');
  }

  it('answers a confirm with y, under the request’s id', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    await confirmOn(app, 'ui-41');
    app.ui.stdin.write('y');
    expect(await app.runtime.response('ui-41')).toEqual({ jsonrpc: '2.0', id: 'ui-41', result: { ok: true } });
    await vi.waitFor(() => expect(app.screen()).not.toContain('Submit this booking?'));
  });

  it('answers n, and Enter on the focused choice (the safe one for a dangerous action)', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    await confirmOn(app, 'ui-1');
    app.ui.stdin.write('n');
    expect((await app.runtime.response('ui-1')).result).toEqual({ ok: false });

    await confirmOn(app, 'ui-2');
    app.ui.stdin.write(ENTER);
    expect((await app.runtime.response('ui-2')).result).toEqual({ ok: true });

    await confirmOn(app, 'ui-3', { danger_level: 'danger' });
    app.ui.stdin.write(ENTER);
    expect((await app.runtime.response('ui-3')).result).toEqual({ ok: false });

    await confirmOn(app, 'ui-4', { danger_level: 'danger' });
    app.ui.stdin.write('\u001B[D');
    await new Promise((r) => setTimeout(r, 20));
    app.ui.stdin.write(ENTER);
    expect((await app.runtime.response('ui-4')).result).toEqual({ ok: true });
  });

  it('Esc in a confirm says no and does not cancel the run', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    await confirmOn(app, 'ui-9');
    app.ui.stdin.write(ESC);
    expect((await app.runtime.response('ui-9')).result).toEqual({ ok: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(app.runtime.received.some((m) => m.method === 'run.cancel')).toBe(false);
  });

  it('answers a prompt with what was typed, and Esc with null', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    app.runtime.ask('p-1', 'ui.prompt.request', {
      run_id: 'run-1',
      title: 'The agent needs to know',
      message: 'Which movie?',
    });
    await app.see('Which movie?');
    app.ui.stdin.write('Orbital Drift');
    await app.see('› Orbital Drift');
    app.ui.stdin.write(ENTER);
    expect((await app.runtime.response('p-1')).result).toEqual({ value: 'Orbital Drift' });

    app.runtime.ask('p-2', 'ui.prompt.request', { run_id: 'run-1', title: 'Again', message: 'How many?' });
    await app.see('How many?');
    app.ui.stdin.write(ESC);
    expect((await app.runtime.response('p-2')).result).toEqual({ value: null });
  });

  it('answers a pick with the item chosen with the arrows, and Esc with nothing', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    const items = [
      { id: 't1', label: '19:30 IMAX' },
      { id: 't2', label: '21:00 IMAX', detail: 'later' },
    ];
    app.runtime.ask('k-1', 'ui.pick.request', { run_id: 'run-1', title: 'Which showing?', items });
    await app.see('❯ 19:30 IMAX');
    app.ui.stdin.write(DOWN);
    await app.see('❯ 21:00 IMAX');
    app.ui.stdin.write(ENTER);
    expect((await app.runtime.response('k-1')).result).toEqual({ ids: ['t2'] });

    app.runtime.ask('k-2', 'ui.pick.request', { run_id: 'run-1', title: 'Which showing now?', items });
    await app.see('Which showing now?');
    app.ui.stdin.write(ESC);
    expect((await app.runtime.response('k-2')).result).toEqual({ ids: [] });
  });

  it('keeps the list aligned when an item is too long for one line', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    const items = [
      { id: 's1', label: 'Winter Kings tomorrow', detail: 'a session' },
      { id: 's2', label: 'Two adults for Orbital Drift tomorrow evening', detail: `${'x'.repeat(40)} · 1 message` },
    ];
    app.runtime.ask('k-3', 'ui.pick.request', { run_id: 'run-1', title: 'Resume a session', items, multi: true });
    await app.see('Resume a session');
    expect(app.screen()).toContain('│ ❯ [ ] Winter Kings tomorrow');
    expect(app.screen()).toContain('│   [ ] Two adults for Orbital Drift');

    app.ui.stdin.write(ESC);
    expect((await app.runtime.response('k-3')).result).toEqual({ ids: [] });

    // A label wider than the dialog wraps; its detail is not squeezed into a column.
    const long = `Two adults for Orbital Drift tomorrow evening in IMAX, ${'seats together, '.repeat(8)}end`;
    app.runtime.ask('k-4', 'ui.pick.request', {
      run_id: 'run-1',
      title: 'Resume another session',
      items: [{ id: 's3', label: long, detail: '20261121-133452-7bc1c1 · 2 messages' }],
    });
    await app.see('Resume another session');
    expect(app.screen()).toContain('20261121-133452-7bc1c1 · 2 messages');
  });

  it('dismisses at once a question about a run that has ended', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'cancelled' });
    await app.see('CANCELLED');
    app.runtime.ask('late', 'ui.pick.request', {
      run_id: 'run-1',
      title: 'Too late?',
      items: [{ id: 'a', label: 'A' }],
    });
    expect((await app.runtime.response('late')).result).toEqual({ ids: [] });
    expect(app.screen()).not.toContain('Too late?');
  });

  it('closes a dialog whose run ends, answering it as dismissed', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    await confirmOn(app, 'ui-5');
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'cancelled' });
    expect((await app.runtime.response('ui-5')).result).toEqual({ ok: false });
    await vi.waitFor(() => expect(app.screen()).not.toContain('Submit this booking?'));
    await app.see('CANCELLED');
  });
});
