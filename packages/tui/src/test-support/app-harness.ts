// The terminal UI on a fake terminal and a fake runtime, for the component tests.
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterEach, expect, vi } from 'vitest';
import { TuiController } from '../controller.ts';
import { App as TuiApp } from '../ui/app.tsx';
import { FakeRuntime } from './fake-runtime.ts';

export const ESC = '\u001B';
export const ENTER = '\r';
export const DOWN = '\u001B[B';
export const CTRL_C = '\u0003';

const mounted: Array<() => void> = [];
afterEach(() => {
  for (const unmount of mounted.splice(0)) unmount();
});

export type RunningApp = Awaited<ReturnType<typeof startApp>>;

/**
 * The app on a fake terminal (100 columns, or `width` for a narrower one), connected to a fake
 * runtime through in-memory stdio.
 */
export async function startApp(capabilities: Record<string, boolean> = {}, width?: number) {
  const runtime = new FakeRuntime();
  const controller = new TuiController({ input: runtime.stdout, output: runtime.stdin, version: '0.1.0' });
  const quit = vi.fn();
  controller.onQuit(quit);
  const app = createElement(TuiApp, { controller });
  const ui = render(width === undefined ? app : createElement(Box, { width, flexDirection: 'column' }, app));
  mounted.push(ui.unmount);
  void controller.start();
  await runtime.initialize(capabilities);
  const screen = () => ui.lastFrame() ?? '';
  const see = (text: string | RegExp) =>
    vi.waitFor(() => expect(screen()).toMatch(typeof text === 'string' ? new RegExp(escapeRegExp(text)) : text));
  await see('connected to usher-runtime 9.9.9');
  /** Types a line into the input and presses Enter. */
  const type = async (line: string) => {
    ui.stdin.write(line);
    await see(`› ${line}`);
    ui.stdin.write(ENTER);
  };
  return { runtime, controller, ui, screen, see, type, quit };
}

/** Starts a run through the input line; resolves once run.start is answered with `runId`. */
export async function startRun(app: RunningApp, text: string, runId = 'run-1') {
  await app.type(text);
  const request = await app.runtime.request('run.start');
  app.runtime.answer(request, { run_id: runId, session_id: 'sess-1' });
  app.runtime.notify('run.status', { run_id: runId, status: 'running' });
  await app.see('session sess-1');
  return request;
}

export function step(runtime: FakeRuntime, runId: string, n: number, tool: string, ok: boolean, ms: number) {
  const id = `call-${n}`;
  let seq = (n - 1) * 4;
  const event = (e: object) => runtime.notify('agent.event', { run_id: runId, seq: seq++, event: e });
  event({ type: 'step_start', step_id: id, title: `because ${n}`, step_number: n });
  event({ type: 'tool_call', tool, args: {}, tool_call_id: id, display_name: `${tool} · item${n}` });
  event({
    type: 'tool_result',
    tool,
    result: { ok, code: ok ? undefined : 'TOOL_EXECUTION_FAILED', detail: 'seat taken' },
    tool_call_id: id,
    is_error: !ok,
  });
  event({ type: 'step_complete', step_id: id, status: ok ? 'completed' : 'error', duration_ms: ms });
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
