import {
  type ActionOutcome,
  Agent,
  type AgentObserver,
  type AgentOptions,
  EpisodicLog,
  type ExternalCallRecord,
  type InstructionResult,
  llmContextUse,
  type NavigationPlan,
  type ObservedCall,
  type PerceivedContext,
  planNext,
} from '@usher/agent';
import type { AgentEvent } from '@usher/protocol/stdio';
import type { RunEngine, RunOutcome, RunRequest } from './engine.ts';

export const DEFAULT_STALL_TIMEOUT_MS = 5 * 60_000;

export interface HostRunEngineOptions {
  /** The relay, `ws://127.0.0.1:8787`. */
  url: string;
  room: string;
  study: string;
  participant: string;
  /** The planner the agent uses; it may change between runs (`model.set`). */
  planner?: () => AgentOptions['planner'];
  /** Folder of the agent's episode logs (`null`: in memory). */
  episodesDir?: string | null;
  /** How many times a run may ask for a missing wish before it ends with the question. */
  maxPrompts?: number;
  /**
   * A run that emits nothing for this long (questions to its owner aside) is stopped with an
   * error: a relay or host that does not answer never leaves a run waiting for ever. 5 minutes.
   */
  stallTimeoutMs?: number;
  log?: (line: string) => void;
}

/**
 * Runs instructions with one agent on the host in a room, through the relay: the agent joins on
 * the first run and stays; runs are queued and carried out one at a time. What the agent does is
 * reported as AgentEvents; a booking made ends the study session, so its log is complete on disk
 * and the next instruction starts on a fresh host.
 */
export class HostRunEngine implements RunEngine {
  private agent: Agent | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: HostRunEngineOptions) {}

  run(request: RunRequest): Promise<RunOutcome> {
    const outcome = this.queue.then(() => this.carryOut(request));
    this.queue = outcome.catch(() => {});
    return outcome;
  }

  /**
   * The share of the current planner's context window that its last prompt left free. An LLM
   * planner that has sent a prompt reports that prompt's size (the service's token count, else
   * an estimate) against its window (`USHER_LLM_CONTEXT_TOKENS`); every prompt is built afresh
   * from the current state, so this is what the next one will roughly need. The deterministic
   * planner, and an LLM planner before its first prompt, read only the current state: 100.
   */
  contextLeftPercent(): number {
    const use = llmContextUse(this.options.planner?.());
    return use ? 100 - (100 * use.usedTokens) / use.windowTokens : 100;
  }

  async close(): Promise<void> {
    this.closed = true;
    const agent = this.agent;
    this.agent = null;
    agent?.stop();
    // Its episode log is flushed off this thread; the engine is closed once it is on disk.
    await Promise.all([agent?.close(), this.queue]);
  }

  private async carryOut(request: RunRequest): Promise<RunOutcome> {
    const limitMs = this.options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    const watchdog = new Watchdog(limitMs);
    // The run stops when its owner cancels it, or when it has made no progress for too long.
    const signal = AbortSignal.any([request.signal, watchdog.signal]);
    const report = new RunReporter(request, signal, () => watchdog.arm());
    const stopped = () =>
      request.signal.aborted
        ? report.cancelled()
        : report.failed(
            `the run made no progress for ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)} s` : `${limitMs} ms`} (no answer from the relay at ${this.options.url} or from a host in room "${this.options.room}"), so it was stopped`,
          );
    /** A question to whoever gave the instruction: the wait for their answer is no stall. */
    const asking = async <T>(question: () => Promise<T>): Promise<T> => {
      watchdog.pause();
      try {
        return await question();
      } finally {
        watchdog.arm();
      }
    };
    const questions = request.questions;
    watchdog.arm();
    try {
      if (signal.aborted) return stopped();
      if (this.closed) return report.failed('the runtime is shutting down');
      let agent: Agent;
      try {
        agent = await this.connectedAgent(signal);
      } catch (err) {
        if (signal.aborted) return stopped();
        return report.failed(`cannot reach the host through the relay at ${this.options.url}: ${messageOf(err)}`);
      }
      let text = request.text;
      let toolCalls = 0;
      for (let prompts = 0; ; prompts++) {
        let result: InstructionResult;
        try {
          result = await agent.instruct({
            text,
            signal,
            observer: report.observer,
            model: request.conversation.model,
            ...(questions?.pick && {
              // biome-ignore lint/style/noNonNullAssertion: checked in the spread's condition
              pick: (question) => asking(() => questions.pick!(question)),
            }),
            ...(questions?.confirm && {
              confirmSubmit: (summary: string) =>
                // biome-ignore lint/style/noNonNullAssertion: checked in the spread's condition
                asking(() => questions.confirm!({ title: 'Submit this booking?', message: summary })),
            }),
          });
        } catch (err) {
          if (signal.aborted) return stopped();
          return report.failed(messageOf(err));
        }
        request.conversation.model = result.model;
        toolCalls += result.toolCalls;
        if (signal.aborted || result.status === 'stopped') return stopped();
        const prompt = questions?.prompt;
        if (result.status !== 'blocked' || !prompt || prompts >= (this.options.maxPrompts ?? 3)) {
          return report.finished(result.message, result.status === 'done', toolCalls);
        }
        // A wish is missing: ask whoever gave the instruction, and go on with their answer.
        const answer = await asking(() => prompt({ title: 'The agent needs to know', message: result.message }));
        if (signal.aborted) return stopped();
        if (answer === null || answer.trim() === '') return report.finished(result.message, false, toolCalls);
        text = answer;
      }
    } finally {
      watchdog.pause();
    }
  }

  /** Closes an agent that never took a request; a flush that fails is logged, the caller's own error stays the answer. */
  private async closeQuietly(agent: Agent): Promise<void> {
    const log = this.options.log ?? ((line: string) => console.error(line));
    await agent.close().catch((err: Error) => log(`agent: ${err.message}`));
  }

  /** The agent, joined to the room with a study session running; joins on first use. */
  private async connectedAgent(signal: AbortSignal): Promise<Agent> {
    if (this.agent) return this.agent;
    const agent = new Agent({
      url: this.options.url,
      room: this.options.room,
      study: this.options.study,
      participant: this.options.participant,
      mode: 'autopilot',
      episodes: new EpisodicLog({ dir: this.options.episodesDir ?? null }),
      endSessionWhenDone: true,
      planner: (input, call) => (this.options.planner?.() ?? planNext)(input, call),
      ...(this.options.log && { log: this.options.log }),
    });
    const onAbort = () => agent.stop();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await agent.start();
    } catch (err) {
      await this.closeQuietly(agent);
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) {
      await this.closeQuietly(agent);
      throw new Error('cancelled');
    }
    this.agent = agent;
    return agent;
  }
}

/** Turns what the agent does during one run into that run's AgentEvents. */
class RunReporter {
  private steps = 0;
  private readonly started = new Map<string, number>();
  private settled = false;

  /** `signal`: once it aborts, nothing more is emitted; `progress` is told of every event. */
  constructor(
    private readonly request: RunRequest,
    private readonly signal: AbortSignal,
    private readonly progress: () => void,
  ) {}

  readonly observer: AgentObserver = {
    said: (text) => this.emit({ type: 'text', content: text, timestamp: Date.now() }),
    planned: (plan) => {
      // What an LLM planner consulted outside the host (MCP tools), and when it fell back.
      for (const line of consulted(plan)) this.emit({ type: 'reasoning', content: line, timestamp: Date.now() });
    },
    calling: (call) => {
      this.steps += 1;
      this.started.set(call.id, performance.now());
      this.emit({ type: 'step_start', step_id: call.id, title: call.reason, step_number: this.steps });
      this.emit({
        type: 'tool_call',
        tool: call.toolName,
        args: call.params,
        tool_call_id: call.id,
        display_name: displayName(call),
      });
    },
    called: (call, outcome, after) => {
      this.emit({
        type: 'tool_result',
        tool: call.toolName,
        result: resultOf(outcome, after),
        tool_call_id: call.id,
        is_error: !outcome.ok,
      });
      const began = this.started.get(call.id) ?? performance.now();
      this.started.delete(call.id);
      this.emit({
        type: 'step_complete',
        step_id: call.id,
        status: outcome.ok ? 'completed' : 'error',
        duration_ms: Math.round(performance.now() - began),
      });
    },
  };

  finished(message: string, booked: boolean, toolCalls: number): RunOutcome {
    this.emit({ type: 'final', content: message });
    return this.settle({ status: 'completed', message, booked, toolCalls });
  }

  failed(message: string): RunOutcome {
    return this.settle({ status: 'error', message, booked: false, toolCalls: this.steps });
  }

  cancelled(): RunOutcome {
    return this.settle({ status: 'cancelled', message: 'cancelled', booked: false, toolCalls: this.steps });
  }

  private settle(outcome: RunOutcome): RunOutcome {
    this.settled = true;
    return outcome;
  }

  /** Nothing is emitted once the run is settled or cancelled. */
  private emit(event: AgentEvent): void {
    if (this.settled || this.signal.aborted) return;
    this.progress();
    this.request.emit(event);
  }
}

/** Lines about an LLM plan: the outside tools it consulted, and a fallback after asking the model. */
function consulted(plan: NavigationPlan): string[] {
  if (!('externalCalls' in plan) || !Array.isArray(plan.externalCalls)) return [];
  const llm = plan as NavigationPlan & { externalCalls: ExternalCallRecord[]; attempts?: number; source?: string };
  const lines = llm.externalCalls.map((c) => `Consulted ${c.server}/${c.tool}: ${c.ok ? 'ok' : `failed (${c.error})`}`);
  if (llm.source === 'fallback' && (llm.attempts ?? 0) > 0 && 'fallbackReason' in plan) {
    lines.push(`The rules planned this step instead of the model: ${String(plan.fallbackReason)}`);
  }
  return lines;
}

/** `select · Orbital Drift`, for a UI to show instead of the raw call. */
function displayName(call: ObservedCall): string {
  if (call.itemLabel) return `${call.toolName} · ${call.itemLabel}`;
  const detail = Object.values(call.params)
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .join(' ');
  return detail ? `${call.toolName} · ${detail}` : call.toolName;
}

/** What a tool call's result says: whether it worked, and where the booking stands after it. */
function resultOf(outcome: ActionOutcome, after: PerceivedContext): Record<string, unknown> {
  return {
    ok: outcome.ok,
    stage: after.stage,
    ...(outcome.code && { code: outcome.code }),
    ...(outcome.detail && { detail: outcome.detail }),
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Aborts its signal when it has been armed for `limitMs` without being armed again or paused. */
class Watchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly limitMs: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(), this.limitMs);
  }

  pause(): void {
    clearTimeout(this.timer);
  }
}
