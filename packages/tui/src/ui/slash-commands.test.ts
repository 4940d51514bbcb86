import { describe, expect, it, vi } from 'vitest';
import { DOWN, ENTER, startApp, startRun } from '../test-support/app-harness.ts';

describe('slash commands', () => {
  it('/help lists the commands and keys', async () => {
    const app = await startApp();
    await app.type('/help');
    await app.see('/sessions');
    for (const text of ['/history', '/model', '/mcp', '/skills', '/cancel', '/new', '/quit', 'Ctrl-C']) {
      expect(app.screen()).toContain(text);
    }
  });

  it('refuses an unknown command without sending anything', async () => {
    const app = await startApp();
    await app.type('/bogus');
    await app.see('✗ unknown command /bogus; /help lists the commands');
    expect(app.runtime.received.map((m) => m.method)).toEqual(['initialize']);
  });

  it('/mcp shows each server with its state, tools and last error', async () => {
    const app = await startApp();
    await app.type('/mcp');
    const list = await app.runtime.request('mcp.list');
    expect(list.params).toEqual({ scope: 'loaded' });
    app.runtime.answer(list, {
      servers: [
        { id: 'maps', transport: 'stdio', source: 'project', enabled: true, state: 'ready', tools: 4 },
        { id: 'calendar', transport: 'http', enabled: true, state: 'error', last_error: 'HTTP 401' },
      ],
    });
    await app.see(/maps\s+stdio · project\s+ready\s+4 tools/);
    await app.see(/calendar\s+http\s+error\s+HTTP 401/);
  });

  it('/mcp and /skills say so when the runtime cannot list them', async () => {
    const app = await startApp({ supports_mcp_list: false, supports_skills_list: false });
    await app.type('/mcp');
    await app.see('MCP status unavailable');
    await app.type('/skills');
    await app.see('Skills list unavailable');
    expect(app.runtime.received.map((m) => m.method)).toEqual(['initialize']);
  });

  it('/skills filters the catalog and shows bad SKILL.md files', async () => {
    const app = await startApp();
    await app.type('/skills seat');
    const skill = (name: string, description: string) => ({
      id: name,
      name,
      description,
      path: `/s/${name}/SKILL.md`,
      dir: `/s/${name}`,
      scope: 'repo',
      mtime_ms: 1,
    });
    app.runtime.answer(await app.runtime.request('skills.list'), {
      skills: [skill('seat-picking', 'keeps seats together'), skill('dates', 'reads tomorrow')],
      errors: [{ path: '/s/broken/SKILL.md', message: 'no front matter' }],
      truncated: false,
    });
    await app.see('Skills matching "seat" · 1 of 2');
    await app.see(/seat-picking\s+repo\s+keeps seats together/);
    await app.see(/\/s\/broken\/SKILL\.md\s+no front matter/);
    expect(app.screen()).not.toContain('reads tomorrow');
  });

  it('/model lists the planners and /model <provider>/<name> switches', async () => {
    const app = await startApp();
    await app.type('/model');
    const current = await app.runtime.request('model.list');
    expect(current.params).toEqual({});
    app.runtime.answer(current, { provider: 'usher', models: ['rules'], current: 'rules' });
    const openai = await app.runtime.request('model.list');
    expect(openai.params).toEqual({ provider: 'openai' });
    app.runtime.answer(openai, { provider: 'openai', models: ['gpt-4o-mini'] });
    await app.see(/usher\s+rules\s+current/);
    await app.see(/openai\s+gpt-4o-mini/);

    await app.type('/model openai/gpt-4o-mini');
    const set = await app.runtime.request('model.set');
    expect(set.params).toEqual({ provider: 'openai', name: 'gpt-4o-mini' });
    app.runtime.answer(set, { provider: 'openai', name: 'gpt-4o-mini' });
    await app.see('planner: openai/gpt-4o-mini');

    await app.type('/model nope');
    app.runtime.fail(await app.runtime.request('model.set'), -32602, 'Invalid params: unknown model nope');
    await app.see('✗ /model: Invalid params: unknown model nope (code -32602)');
  });

  it('/sessions lists sessions, resumes the one picked and replays its history', async () => {
    const app = await startApp();
    await app.type('/sessions');
    const list = await app.runtime.request('session.list');
    app.runtime.answer(list, {
      sessions: [
        {
          session_id: 'sess-a',
          updated_at: '2026-11-21T10:00:00Z',
          message_count: 2,
          last_user_message: 'two for IMAX',
        },
        { session_id: 'sess-b', updated_at: '2026-11-20T10:00:00Z', message_count: 1, last_user_message: 'one for 3D' },
      ],
    });
    await app.see('Resume a session');
    app.ui.stdin.write(DOWN);
    await app.see('❯ one for 3D');
    app.ui.stdin.write(ENTER);
    const history = await app.runtime.request('session.history');
    expect(history.params).toMatchObject({ session_id: 'sess-b' });
    const replay = (seq: number, event: object) => app.runtime.notify('agent.event', { run_id: 'old-run', seq, event });
    replay(-1, { type: 'hidden_user_message', content: 'one for 3D' });
    replay(0, { type: 'step_start', step_id: 'x', title: 'pick the movie', step_number: 1 });
    replay(1, { type: 'tool_call', tool: 'select', args: {}, tool_call_id: 'x', display_name: 'select · m2' });
    replay(2, { type: 'step_complete', step_id: 'x', status: 'completed', duration_ms: 8 });
    replay(3, { type: 'final', content: 'Booked one 3D seat.' });
    app.runtime.answer(history, { runs: 1, events_sent: 5, truncated: false });
    await app.see('end of history: 1 run, 5 events');
    expect(app.screen()).toContain('❯ one for 3D');
    expect(app.screen()).toContain('1 select · m2 · 8 ms');
    expect(app.screen()).toContain('◆ Booked one 3D seat.');
    // A replay is the past: the status line stays idle, and the next run resumes that session.
    expect(app.screen()).toMatch(/IDLE\s/);
    await app.see('session sess-b');
    await app.type('again please');
    expect((await app.runtime.request('run.start')).params).toMatchObject({ session_id: 'sess-b' });
  });

  it('/history replays the current session, runs of this screen included', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'completed' });
    await app.see('DONE');
    await app.type('/history');
    const history = await app.runtime.request('session.history');
    expect(history.params).toMatchObject({ session_id: 'sess-1' });
    app.runtime.notify('agent.event', {
      run_id: 'run-1',
      seq: 0,
      event: { type: 'final', content: 'Replayed answer.' },
    });
    app.runtime.answer(history, { runs: 1, events_sent: 2, truncated: true });
    await app.see('end of history: 1 run, 2 events (older ones left out)');
    expect(app.screen()).toContain('◆ Replayed answer.');
    expect(app.screen()).toContain('DONE');
  });

  it('/new forgets the session; /quit quits', async () => {
    const app = await startApp();
    await startRun(app, 'book');
    app.runtime.notify('run.status', { run_id: 'run-1', status: 'completed' });
    await app.see('DONE');
    await app.type('/new');
    await app.see('new session: the next instruction starts it');
    await app.type('fresh start');
    expect((await app.runtime.request('run.start')).params).toEqual({ input: { type: 'text', text: 'fresh start' } });
    await app.type('/quit');
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledOnce());
  });
});
