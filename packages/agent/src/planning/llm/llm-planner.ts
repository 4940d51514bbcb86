import { type PlannerInput, planNext } from '../deterministic.ts';
import type { NavigationPlan } from '../plan.ts';
import {
  type AssistantMessage,
  type ChatCompletion,
  type ChatMessage,
  chatCompletionWithUsage,
  LlmError,
  type ToolSpec,
} from './client.ts';
import type { LlmConfig } from './config.ts';
import {
  type ExternalCallRecord,
  type ExternalFunctions,
  type ExternalTools,
  externalFunctions,
  runExternalCalls,
} from './external.ts';
import { type PromptOptions, promptMessages, toolSpecs } from './prompt.ts';
import { validateProposal } from './validate.ts';

/** A plan, and who made it: the LLM, or the deterministic planner (and then why). */
export interface LlmPlan extends NavigationPlan {
  source: 'llm' | 'fallback';
  /** Set when `source` is `fallback`: why the LLM's proposal was not used (or not asked for). */
  fallbackReason?: string;
  /**
   * Requests made to the LLM for this plan: the proposal, its retry and one more after each
   * reply that called external tools (0 when it was not asked).
   */
  attempts: number;
  /** The validation errors of rejected proposals, in order. */
  rejected: string[];
  /** The external tools the model called while planning, in order (they are never the action). */
  externalCalls: ExternalCallRecord[];
}

/** How much of the model's context the last prompt took. */
export interface LlmContextUse {
  /** The last prompt's size: the service's `usage.prompt_tokens`, else its characters / 4. */
  usedTokens: number;
  /** The context window (`USHER_LLM_CONTEXT_TOKENS`). */
  windowTokens: number;
  source: 'usage' | 'estimate';
}

/** Plans one step; {@link LlmPlanner.contextUse} says what the last prompt took (null before the first). */
export interface LlmPlanner {
  (input: PlannerInput, call?: { signal?: AbortSignal }): Promise<LlmPlan>;
  contextUse(): LlmContextUse | null;
}

export interface LlmPlannerOptions extends PromptOptions {
  /** Per request; defaults to the config's `timeoutMs`. */
  timeoutMs?: number;
  /** The confidence given to an accepted LLM proposal (default 0.7). */
  confidence?: number;
  /** Tools outside the page offered beside the host's (e.g. a runtime's MCP servers). */
  externalTools?: ExternalTools;
  log?: (line: string) => void;
}

/** Invalid proposals per plan: the first and one retry with the validation error. */
const MAX_ATTEMPTS = 2;
/** Replies per plan that may call external tools; one more such reply ends in the deterministic plan. */
export const MAX_EXTERNAL_ROUNDS = 3;

const planners = new WeakSet<object>();

/**
 * What the last prompt of `planner` took of its context, when it is an LLM planner that has sent
 * one; null for any other planner (the deterministic one reads only the current state).
 */
export function llmContextUse(planner: unknown): LlmContextUse | null {
  return typeof planner === 'function' && planners.has(planner) ? (planner as LlmPlanner).contextUse() : null;
}

/**
 * The LLM planner (spec §9, phase 3). The deterministic planner (`fallback`) runs first and keeps
 * the stop decisions: when it says done, blocked or waiting, or its next step is not a tool call
 * (a resync, a question), or in assist mode, its plan is returned as is. Otherwise the LLM is
 * asked for the next action; its proposal is validated strictly, retried once with the error,
 * and on a second invalid proposal or any request failure the deterministic plan is used. When
 * external tools are given, the model may call them first (at most {@link MAX_EXTERNAL_ROUNDS}
 * replies); each result goes back to it and it is asked again.
 */
export function createLlmPlanner(
  config: LlmConfig,
  fallback: (input: PlannerInput) => NavigationPlan = planNext,
  options: LlmPlannerOptions = {},
): LlmPlanner {
  const log = options.log ?? (() => {});
  let lastUse: LlmContextUse | null = null;

  /** Sends one request, noting the prompt's size: first estimated, then as the service counts it. */
  const ask = async (messages: ChatMessage[], tools: ToolSpec[], signal?: AbortSignal): Promise<ChatCompletion> => {
    const chars = JSON.stringify(messages).length + JSON.stringify(tools).length;
    lastUse = { usedTokens: Math.ceil(chars / 4), windowTokens: config.contextTokens, source: 'estimate' };
    const reply = await chatCompletionWithUsage(config, messages, {
      tools,
      toolChoice: 'required',
      ...(signal && { signal }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    });
    if (reply.promptTokens !== undefined) {
      lastUse = { usedTokens: reply.promptTokens, windowTokens: config.contextTokens, source: 'usage' };
    }
    return reply;
  };

  const plan = async (input: PlannerInput, call: { signal?: AbortSignal } = {}): Promise<LlmPlan> => {
    const base = fallback(input);
    let attempts = 0;
    const rejected: string[] = [];
    const externalCalls: ExternalCallRecord[] = [];
    const fallbackPlan = (reason: string): LlmPlan => {
      if (attempts > 0) log(`llm planner: using the deterministic plan: ${reason}`);
      return { ...base, source: 'fallback', fallbackReason: reason, attempts, rejected, externalCalls };
    };
    const skip = skipReason(base, input);
    if (skip) return fallbackPlan(skip);

    const external = listExternal(options.externalTools, log);
    const messages = promptMessages(input, base, options, external.specs.length > 0 ? MAX_EXTERNAL_ROUNDS : 0);
    const tools = [...toolSpecs(input.context.toolSchema), ...external.specs];
    let rounds = 0;
    for (;;) {
      if (call.signal?.aborted) return fallbackPlan('the plan was cancelled');
      let reply: AssistantMessage;
      attempts += 1;
      try {
        reply = (await ask(messages, tools, call.signal)).message;
      } catch (err) {
        const why = err instanceof LlmError ? err.message : `unexpected error: ${String(err)}`;
        return fallbackPlan(`the LLM request failed: ${why}`);
      }
      const calls = reply.tool_calls ?? [];
      if (options.externalTools && calls.some((c) => external.byName.has(c.function.name))) {
        if (rounds >= MAX_EXTERNAL_ROUNDS) {
          return fallbackPlan(`the LLM still called external tools after ${MAX_EXTERNAL_ROUNDS} rounds`);
        }
        rounds += 1;
        const round = await runExternalCalls(
          calls,
          reply.content ?? null,
          external,
          options.externalTools,
          call.signal,
        );
        externalCalls.push(...round.records);
        for (const r of round.records) {
          log(`llm planner: called ${r.function}: ${r.ok ? 'ok' : `failed: ${r.error}`}`);
        }
        if (call.signal?.aborted) return fallbackPlan('the plan was cancelled');
        messages.push(...round.messages);
        continue;
      }
      const validation = validateProposal(reply, input.context, input.participantChoices);
      if (validation.ok) {
        const action = validation.action;
        return {
          goal: base.goal,
          currentStage: base.currentStage,
          remainingSteps: base.remainingSteps,
          nextAction: action,
          confidence: options.confidence ?? 0.7,
          // A message from the LLM is a question: wait for the answer instead of planning again at once.
          ...(action.type === 'agent.message' && { stop: 'waiting' as const }),
          source: 'llm',
          attempts,
          rejected,
          externalCalls,
        };
      }
      rejected.push(validation.error);
      log(`llm planner: proposal ${rejected.length} rejected: ${validation.error}`);
      if (rejected.length >= MAX_ATTEMPTS) {
        return fallbackPlan(`the LLM proposed an invalid action ${rejected.length} times (last: ${rejected.at(-1)})`);
      }
      messages.push(...feedback(reply, validation.error));
    }
  };
  const planner = Object.assign(plan, { contextUse: () => lastUse });
  planners.add(planner);
  return planner;
}

/** The external tools available now as functions; none when there are none or they cannot be listed. */
function listExternal(tools: ExternalTools | undefined, log: (line: string) => void): ExternalFunctions {
  if (!tools) return { specs: [], byName: new Map() };
  try {
    return externalFunctions(tools.list());
  } catch (err) {
    log(`llm planner: cannot list the external tools, planning without them: ${String(err)}`);
    return { specs: [], byName: new Map() };
  }
}

/** Why the LLM is not asked for this step, or null when it is. */
function skipReason(base: NavigationPlan, input: PlannerInput): string | null {
  if (base.stop) return `the deterministic planner decides to stop here (${base.stop})`;
  if (input.mode !== 'autopilot') return 'assist mode is planned deterministically';
  if (base.nextAction.type !== 'tool.call') {
    return `the deterministic planner's next step is ${base.nextAction.type}, not a tool call`;
  }
  return null;
}

/** The rejected proposal and why, appended to the conversation for the retry. */
function feedback(reply: AssistantMessage, error: string): ChatMessage[] {
  const calls = reply.tool_calls ?? [];
  const retry: ChatMessage = {
    role: 'user',
    content: `Your proposal was rejected: ${error} Call exactly one valid function now.`,
  };
  if (calls.length === 0) return [{ role: 'assistant', content: reply.content ?? '' }, retry];
  return [
    {
      role: 'assistant',
      content: reply.content ?? null,
      tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: c.function })),
    },
    ...calls.map((c): ChatMessage => ({ role: 'tool', tool_call_id: c.id, content: `Rejected: ${error}` })),
    retry,
  ];
}
