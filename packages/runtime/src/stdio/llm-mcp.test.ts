import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type RecordedRequest,
  type ScriptedReply,
  startFakeLlm,
  toolCallReply,
  withUsage,
} from '@usher/agent/llm-testing';
import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import { checkBooking, defaultScenario } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { stdioFixtureCommand } from '../mcp/testing/fixture-server.ts';
import { eventOf, type Line, type RuntimeProcess, spawnRuntime, tempDir } from './testing/runtime-process.ts';

/*
 * The LLM planner of `usher runtime --stdio` with the runtime's MCP servers: a real MCP server
 * (the SDK fixture, spawned over stdio from `.usher/mcp.json`), the fake OpenAI-compatible
 * service configured by USHER_LLM_*, a real relay with a headless host. The scripted model looks
 * something up with the MCP tool first, then picks the film; the run books, and `run.context`
 * reports what the model's prompt took of its window.
 */

const ORBITAL = 'm-orbital-drift';
const REASON = 'Orbital Drift is the film the participant asked for, as their notes confirm';
/** What the model asks the fixture's `echo` tool to say back: only the real tool can return it. */
const NOTE = 'note-7f3a: the participant likes IMAX';

let runtimes: RuntimeProcess[] = [];
afterEach(() => {
  for (const runtime of runtimes) expect(runtime.impure, 'stdout lines that are not JSON-RPC').toEqual([]);
  runtimes = [];
});

/**
 * The model: on the movie stage, before the film is chosen, it looks the participant's note up
 * with `echo` once, then picks the film (also when asked again there); it is unavailable for every other step.
 */
function scriptedModel() {
  let looked = false;
  return (request: RecordedRequest): ScriptedReply => {
    const messages = request.body.messages;
    const offered = request.body.tools?.map((t) => t.function.name) ?? [];
    const state = String(messages[1]?.content);
    const onMovieStage = state.includes(`- ${ORBITAL}:`) && !state.includes(`selected item: ${ORBITAL}`);
    if (onMovieStage && !looked && offered.includes('mcp__fixture__echo')) {
      looked = true;
      return withUsage(toolCallReply('mcp__fixture__echo', { text: NOTE }, 'call_mcp'), 1_000);
    }
    const result = messages.at(-1);
    const answered = result?.role === 'tool' && result.tool_call_id === 'call_mcp' && result.content === NOTE;
    if (answered || (onMovieStage && looked)) {
      return withUsage(toolCallReply('select', { itemId: ORBITAL, reason: REASON }), 16_000);
    }
    return { status: 503, body: { error: { message: 'the scripted model plans only the first step' } } };
  };
}

async function readyServers(runtime: RuntimeProcess): Promise<{ id: string; state: string; tools?: number }[]> {
  for (;;) {
    const response = await runtime.request('mcp.list', {});
    const servers = (response.result?.servers ?? []) as { id: string; state: string; tools?: number }[];
    if (!servers.some((s) => s.state === 'connecting')) return servers;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the LLM planner with the MCP servers of the stdio runtime', () => {
  it('lets the model call an MCP tool before it acts, books, and reports the context used', async () => {
    const llm = await startFakeLlm();
    onTestFinished(() => llm.close());
    llm.otherwise(scriptedModel());
    const scenario = defaultScenario();
    const server = await startTestRelay({ headlessHost: true, scenario });
    onTestFinished(() => server.close());
    const cwd = tempDir();
    mkdirSync(join(cwd, '.usher'));
    writeFileSync(join(cwd, '.usher/mcp.json'), JSON.stringify({ mcpServers: { fixture: stdioFixtureCommand() } }));
    const runtime = spawnRuntime(['--url', server.url], {
      cwd,
      env: { USHER_LLM_BASE_URL: llm.baseUrl, USHER_LLM_MODEL: 'fake-model', USHER_LLM_CONTEXT_TOKENS: '64000' },
    });
    runtimes.push(runtime);

    expect(await readyServers(runtime)).toMatchObject([{ id: 'fixture', state: 'ready', tools: 2 }]);
    expect((await runtime.request('model.set', { name: 'fake-model' })).result).toEqual({
      provider: 'openai',
      name: 'fake-model',
    });
    const started = await runtime.request('run.start', { input: { type: 'text', text: ORBITAL_IMAX_PAIR.text } });
    const runId = String(started.result?.run_id);
    const end = await runtime.runEnd(runId);
    expect(end.params?.status).toBe('completed');

    // The run booked what was asked (the deterministic planner took over after the first step).
    const bookings = server.headlessHost?.bookings ?? [];
    expect(bookings).toHaveLength(1);
    const check = checkBooking(scenario, bookings[0] as never, ORBITAL_IMAX_PAIR);
    expect(check.hard.filter((h) => !h.ok)).toEqual([]);

    // The model was offered the ready server's tools beside the page's, and got the real tool's answer.
    const first = llm.requests[0];
    expect(first?.body.tools?.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['select', 'say', 'mcp__fixture__echo', 'mcp__fixture__add']),
    );
    expect(llm.requests[1]?.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_mcp', content: NOTE });
    expect(runtime.stderr).toMatch(/llm planner: called mcp__fixture__echo: ok/);
    // One look-up and one proposal: the echo of the agent's own chat message does not make it plan again.
    const onMovieStage = llm.requests.filter((r) => {
      const state = String(r.body.messages[1]?.content);
      return state.includes(`- ${ORBITAL}:`) && !state.includes(`selected item: ${ORBITAL}`);
    });
    expect(onMovieStage).toHaveLength(2);

    // The MCP call never reached the host: the run's first step is the model's selection.
    const notes = runtime.notificationsOf(runId);
    const events = notes.filter((l) => l.method === 'agent.event');
    const calls = events.filter((l) => eventOf(l).type === 'tool_call').map((l) => l.params?.event as Line['params']);
    expect(calls[0]).toMatchObject({ tool: 'select', args: { itemId: ORBITAL } });
    expect(calls.map((c) => c?.tool)).not.toContain('mcp__fixture__echo');
    // The operator sees what the model consulted, and where the rules took over.
    const reasoning = events.filter((l) => eventOf(l).type === 'reasoning').map((l) => String(eventOf(l).content));
    expect(reasoning).toContain('Consulted fixture/echo: ok');
    expect(reasoning.some((line) => line.startsWith('The rules planned this step instead of the model:'))).toBe(true);
    const firstStep = events.find((l) => eventOf(l).type === 'step_start');
    expect(firstStep?.params?.event).toMatchObject({ title: REASON });

    // run.context: 100 before any prompt, then what the last prompt took of the 64000-token window.
    const contexts = notes.filter((l) => l.method === 'run.context').map((l) => l.params?.context_left_percent);
    expect(contexts[0]).toBe(100);
    expect(contexts[1]).toBe(75);
    for (const left of contexts.slice(1)) expect(left).toBeLessThan(100);
  }, 90_000);
});
