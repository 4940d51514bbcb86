import { type PlannerInput, planNext } from '../deterministic.ts';
import type { NavigationPlan } from '../plan.ts';
import { type AssistantMessage, type ChatMessage, chatCompletion, LlmError } from './client.ts';
import type { LlmConfig } from './config.ts';
import { type PromptOptions, promptMessages, toolSpecs } from './prompt.ts';
import { validateProposal } from './validate.ts';

/** A plan, and who made it: the LLM, or the deterministic planner (and then why). */
export interface LlmPlan extends NavigationPlan {
  source: 'llm' | 'fallback';
  /** Set when `source` is `fallback`: why the LLM's proposal was not used (or not asked for). */
  fallbackReason?: string;
  /** Requests made to the LLM for this plan (0, 1 or 2). */
  attempts: number;
  /** The validation errors of rejected proposals, in order. */
  rejected: string[];
}

export type LlmPlanner = (input: PlannerInput, call?: { signal?: AbortSignal }) => Promise<LlmPlan>;

export interface LlmPlannerOptions extends PromptOptions {
  /** Per request; defaults to the config's `timeoutMs`. */
  timeoutMs?: number;
  /** The confidence given to an accepted LLM proposal (default 0.7). */
  confidence?: number;
  log?: (line: string) => void;
}

/** Requests per plan: the first proposal and one retry with the validation error. */
const MAX_ATTEMPTS = 2;

/**
 * The LLM planner (spec §9, phase 3). The deterministic planner (`fallback`) runs first and keeps
 * the stop decisions: when it says done, blocked or waiting, or its next step is not a tool call
 * (a resync, a question), or in assist mode, its plan is returned as is. Otherwise the LLM is
 * asked for the next action; its proposal is validated strictly, retried once with the error,
 * and on a second invalid proposal or any request failure the deterministic plan is used.
 */
export function createLlmPlanner(
  config: LlmConfig,
  fallback: (input: PlannerInput) => NavigationPlan = planNext,
  options: LlmPlannerOptions = {},
): LlmPlanner {
  const log = options.log ?? (() => {});
  return async (input, call = {}) => {
    const base = fallback(input);
    const fallbackPlan = (reason: string, attempts: number, rejected: string[]): LlmPlan => {
      if (attempts > 0) log(`llm planner: using the deterministic plan: ${reason}`);
      return { ...base, source: 'fallback', fallbackReason: reason, attempts, rejected };
    };
    const skip = skipReason(base, input);
    if (skip) return fallbackPlan(skip, 0, []);

    const messages = promptMessages(input, base, options);
    const tools = toolSpecs(input.context.toolSchema);
    const rejected: string[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      let reply: AssistantMessage;
      try {
        reply = await chatCompletion(config, messages, {
          tools,
          toolChoice: 'required',
          ...(call.signal && { signal: call.signal }),
          ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
        });
      } catch (err) {
        const why = err instanceof LlmError ? err.message : `unexpected error: ${String(err)}`;
        return fallbackPlan(`the LLM request failed: ${why}`, attempt, rejected);
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
          attempts: attempt,
          rejected,
        };
      }
      rejected.push(validation.error);
      log(`llm planner: proposal ${attempt} rejected: ${validation.error}`);
      messages.push(...feedback(reply, validation.error));
    }
    return fallbackPlan(
      `the LLM proposed an invalid action ${rejected.length} times (last: ${rejected.at(-1)})`,
      MAX_ATTEMPTS,
      rejected,
    );
  };
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
