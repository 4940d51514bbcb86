import { BookingEngine, defaultScenario } from '@usher/booking';
import { createMessage } from '@usher/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkingMemory } from '../../memory/working.ts';
import { EMPTY_CONTEXT, perceive } from '../../perception/perceive.ts';
import { read } from '../../preferences/testing.ts';
import { freshExploration, type PlannerInput, planNext } from '../deterministic.ts';
import {
  type ExternalTool,
  type ExternalTools,
  externalFunctions,
  externalName,
  MAX_RESULT_CHARS,
} from './external.ts';
import { createLlmPlanner, llmContextUse, MAX_EXTERNAL_ROUNDS } from './llm-planner.ts';
import { type FakeLlm, startFakeLlm, toolCallReply, toolCallsReply, withUsage } from './testing.ts';

/*
 * External tools (a runtime's MCP servers) offered to the LLM planner beside the host's tools:
 * the model may look something up first, gets the result as a `tool` message, and must still end
 * with one valid host action. Also the planner's context figure.
 */

const GOAL = 'Two adult tickets for Orbital Drift tomorrow evening in IMAX';
const ORBITAL = 'm-orbital-drift';
const reason = 'Orbital Drift is the film the participant named';

function movieStage(): PlannerInput {
  const engine = new BookingEngine(defaultScenario(), { now: () => new Date('2026-11-21T18:00:00Z') });
  engine.addMessage('participant', GOAL);
  return {
    context: perceive(EMPTY_CONTEXT, createMessage('snapshot.state', { sessionId: 's-1', ...engine.view() })),
    model: read(GOAL).model,
    memory: new WorkingMemory(),
    exploration: freshExploration(true),
    mode: 'autopilot',
    participantChoices: new Set(),
    goal: GOAL,
  };
}

const NOTES: ExternalTool = {
  server: 'notes',
  name: 'lookup',
  description: 'Looks up what the participant noted',
  inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
};

/** External tools served from memory: `answer` decides each call's result; every call is kept. */
function toolbox(
  answer: (tool: ExternalTool, args: Record<string, unknown>, signal?: AbortSignal) => Promise<string>,
  tools: ExternalTool[] = [NOTES],
) {
  const calls: { tool: ExternalTool; args: Record<string, unknown> }[] = [];
  const external: ExternalTools = {
    list: () => tools,
    call: (tool, args, signal) => {
      calls.push({ tool, args });
      return answer(tool, args, signal);
    },
  };
  return { external, calls };
}

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
});

describe('external tools in the LLM planner', () => {
  it('runs the tool the model calls, gives it the result, and uses the host action it then proposes', async () => {
    const { external, calls } = toolbox(async () => 'The participant prefers the back rows.');
    fake.enqueue(
      toolCallReply('mcp__notes__lookup', { topic: 'seats' }, 'call_ext'),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const input = movieStage();
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(input);

    expect(plan).toMatchObject({
      source: 'llm',
      attempts: 2,
      rejected: [],
      nextAction: { type: 'tool.call', toolName: 'select', params: { itemId: ORBITAL }, reason },
      externalCalls: [{ function: 'mcp__notes__lookup', server: 'notes', tool: 'lookup', ok: true }],
    });
    expect(calls).toEqual([{ tool: NOTES, args: { topic: 'seats' } }]);
    const [first, second] = fake.requests;
    expect(first?.body.tools?.map((t) => t.function.name)).toEqual([
      ...input.context.toolSchema.map((t) => t.name),
      'say',
      'mcp__notes__lookup',
    ]);
    const offered = first?.body.tools?.find((t) => t.function.name === 'mcp__notes__lookup');
    expect(offered?.function.description).toMatch(/"lookup" of the server "notes".*Looks up what the participant/);
    expect(offered?.function.parameters).toEqual(NOTES.inputSchema);
    expect(first?.body.messages[0]?.content).toMatch(/"mcp__" are tools outside the page/);
    expect(second?.body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_ext',
            type: 'function',
            function: { name: 'mcp__notes__lookup', arguments: '{"topic":"seats"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_ext', content: 'The participant prefers the back rows.' },
    ]);
  });

  it('tells the model when a tool fails, records it, and still plans', async () => {
    const { external } = toolbox(async () => {
      throw new Error('the notes file is locked');
    });
    fake.enqueue(
      toolCallReply('mcp__notes__lookup', { topic: 'seats' }, 'call_ext'),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage());
    expect(plan).toMatchObject({ source: 'llm', nextAction: { toolName: 'select' } });
    expect(plan.externalCalls).toEqual([
      { function: 'mcp__notes__lookup', server: 'notes', tool: 'lookup', ok: false, error: 'the notes file is locked' },
    ]);
    expect(fake.requests[1]?.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_ext',
      content: 'Error: the tool "lookup" of "notes" failed: the notes file is locked',
    });
  });

  it('answers arguments that are not an object without calling the tool', async () => {
    const { external, calls } = toolbox(async () => 'unused');
    fake.enqueue(
      toolCallReply('mcp__notes__lookup', '["seats"]', 'call_ext'),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage());
    expect(calls).toEqual([]);
    expect(plan.externalCalls).toMatchObject([{ ok: false, error: 'the arguments must be a JSON object' }]);
    expect(fake.requests[1]?.body.messages.at(-1)).toMatchObject({ role: 'tool', content: /^Error: the arguments/ });
  });

  it(`falls back to the deterministic plan when the model still calls tools after ${MAX_EXTERNAL_ROUNDS} rounds`, async () => {
    const { external, calls } = toolbox(async (_tool, args) => `nothing about ${String(args.topic)}`);
    for (let i = 0; i <= MAX_EXTERNAL_ROUNDS; i++) {
      fake.enqueue(toolCallReply('mcp__notes__lookup', { topic: `t${i}` }, `call_${i}`));
    }
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage());
    expect(plan).toMatchObject({
      source: 'fallback',
      attempts: MAX_EXTERNAL_ROUNDS + 1,
      nextAction: planNext(movieStage()).nextAction,
    });
    expect(plan.fallbackReason).toBe(`the LLM still called external tools after ${MAX_EXTERNAL_ROUNDS} rounds`);
    expect(calls.map((c) => c.args.topic)).toEqual(['t0', 't1', 't2']);
    expect(plan.externalCalls).toHaveLength(MAX_EXTERNAL_ROUNDS);
    expect(fake.requests).toHaveLength(MAX_EXTERNAL_ROUNDS + 1);
  });

  it('does not carry out a page tool called beside an external one, and asks again', async () => {
    const { external, calls } = toolbox(async () => 'back rows');
    fake.enqueue(
      toolCallsReply([
        { name: 'mcp__notes__lookup', args: { topic: 'seats' }, id: 'call_ext' },
        { name: 'select', args: { itemId: ORBITAL, reason }, id: 'call_page' },
      ]),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage());
    expect(plan).toMatchObject({ source: 'llm', attempts: 2, nextAction: { toolName: 'select' } });
    expect(calls).toHaveLength(1);
    expect(fake.requests[1]?.body.messages.slice(3)).toEqual([
      { role: 'tool', tool_call_id: 'call_ext', content: 'back rows' },
      { role: 'tool', tool_call_id: 'call_page', content: expect.stringMatching(/^Not carried out: "select"/) },
    ]);
  });

  it('rejects a made-up external name as an unavailable function', async () => {
    const { external, calls } = toolbox(async () => 'unused');
    fake.enqueue(
      toolCallReply('mcp__notes__delete', { topic: 'x' }),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage());
    expect(calls).toEqual([]);
    expect(plan).toMatchObject({ source: 'llm', attempts: 2, externalCalls: [] });
    expect(plan.rejected).toEqual([expect.stringMatching(/"mcp__notes__delete" is not available now/)]);
  });

  it('stops the rounds when the plan is cancelled during a tool call', async () => {
    const controller = new AbortController();
    const { external } = toolbox(() => {
      controller.abort();
      // A tool that ignores the signal: the planner must not wait for it.
      return new Promise<string>(() => {});
    });
    fake.enqueue(toolCallReply('mcp__notes__lookup', { topic: 'seats' }));
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage(), {
      signal: controller.signal,
    });
    expect(plan).toMatchObject({ source: 'fallback', fallbackReason: 'the plan was cancelled', attempts: 1 });
    expect(fake.requests).toHaveLength(1);
  });

  it('clips a long result', async () => {
    const { external } = toolbox(async () => 'x'.repeat(MAX_RESULT_CHARS + 10));
    fake.enqueue(
      toolCallReply('mcp__notes__lookup', { topic: 'seats' }),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage());
    const content = String(fake.requests[1]?.body.messages.at(-1)?.content);
    expect(content.startsWith('x'.repeat(MAX_RESULT_CHARS))).toBe(true);
    expect(content).toMatch(/\(10 more characters left out\)$/);
  });
});

describe('external function names', () => {
  it('maps server and tool into the API charset, unique and at most 64 characters, and back', async () => {
    const tools: ExternalTool[] = [
      { server: 'my files', name: 'read.file', inputSchema: {} },
      { server: 'my_files', name: 'read_file', inputSchema: { type: 'object' } },
      { server: 'archive', name: 'a'.repeat(80), inputSchema: { type: 'object' } },
      { server: 'archive', name: `${'a'.repeat(80)}b`, inputSchema: { type: 'object' } },
    ];
    const { specs, byName } = externalFunctions(tools);
    const names = specs.map((s) => s.function.name);
    expect(names).toEqual([
      'mcp__my_files__read_file',
      'mcp__my_files__read_file_2',
      `mcp__archive__${'a'.repeat(64 - 'mcp__archive__'.length)}`,
      `mcp__archive__${'a'.repeat(64 - 'mcp__archive__'.length - 2)}_2`,
    ]);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names.map((n) => byName.get(n))).toEqual(tools);
    // A schema without a type is still offered as an object.
    expect(specs[0]?.function.parameters).toEqual({ type: 'object' });
    expect(externalName({ server: 'é', name: 'ü' }, new Set())).toBe('mcp______');
  });

  it('calls the tool a sanitized name stands for', async () => {
    const tool: ExternalTool = { server: 'my files', name: 'read.file', inputSchema: { type: 'object' } };
    const { external, calls } = toolbox(async () => 'contents', [tool]);
    fake.enqueue(
      toolCallReply('mcp__my_files__read_file', { path: 'notes.txt' }),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const plan = await createLlmPlanner(fake.config(), planNext, { externalTools: external })(movieStage());
    expect(calls).toEqual([{ tool, args: { path: 'notes.txt' } }]);
    expect(plan.externalCalls).toEqual([
      { function: 'mcp__my_files__read_file', server: 'my files', tool: 'read.file', ok: true },
    ]);
  });
});

describe('the context figure', () => {
  it('is the prompt tokens the service reports, against the configured window', async () => {
    const planner = createLlmPlanner(fake.config({ contextTokens: 64_000 }));
    expect(planner.contextUse()).toBeNull();
    expect(llmContextUse(planner)).toBeNull();
    fake.enqueue(withUsage(toolCallReply('select', { itemId: ORBITAL, reason }), 16_000));
    await planner(movieStage());
    expect(planner.contextUse()).toEqual({ usedTokens: 16_000, windowTokens: 64_000, source: 'usage' });
    expect(llmContextUse(planner)).toEqual(planner.contextUse());
  });

  it('is estimated as characters / 4 of the last prompt sent when the service does not say', async () => {
    const { external } = toolbox(async () => 'r'.repeat(2_000));
    const planner = createLlmPlanner(fake.config(), planNext, { externalTools: external });
    fake.enqueue(
      withUsage(toolCallReply('mcp__notes__lookup', { topic: 'seats' }), 900),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    await planner(movieStage());
    const last = fake.requests[1]?.body;
    const chars = JSON.stringify(last?.messages).length + JSON.stringify(last?.tools).length;
    expect(planner.contextUse()).toEqual({
      usedTokens: Math.ceil(chars / 4),
      windowTokens: 128_000,
      source: 'estimate',
    });
    // The second prompt carries the tool's result, so it is larger than the first.
    expect(planner.contextUse()?.usedTokens).toBeGreaterThan(900);
  });

  it('stays unknown while the LLM is not asked, and is null for other planners', async () => {
    const planner = createLlmPlanner(fake.config());
    await planner({ ...movieStage(), mode: 'assist' });
    expect(planner.contextUse()).toBeNull();
    expect(llmContextUse(planNext)).toBeNull();
    expect(llmContextUse(Object.assign(() => {}, { contextUse: () => ({ usedTokens: 1 }) }))).toBeNull();
  });
});
