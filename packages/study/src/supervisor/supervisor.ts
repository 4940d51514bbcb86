import { Agent, type AgentResult, createLlmPlanner, EpisodicLog, type LlmConfig } from '@usher/agent';
import type { Condition } from '../study-file/schema.ts';

export interface SupervisorOptions {
  /** The relay the agents join, like any agent (`ws://…`): the protocol boundary stays real. */
  relayUrl: string;
  /** An agent credential, for a relay with access control. */
  token?: string;
  studyId: string;
  /** Folder of the agents' episode logs; null keeps them in memory. */
  episodesDir: string | null;
  /** The language model for conditions with `planner: llm` (null when none is configured). */
  llm: LlmConfig | null;
  log: (line: string) => void;
  /** Restarts of one task's agent after it failed, before the supervisor gives up on it. */
  maxRestarts?: number;
}

interface Running {
  agent: Agent;
  restarts: number;
}

/**
 * Starts the condition's agent beside each participant for the length of each task (study mode):
 * in the participant's room, through the relay, as any agent would, with the condition's pace, its
 * question before submitting and its page tools. It stops the agent when the task ends, restarts
 * one that failed (up to `maxRestarts` times), and runs any number at once.
 */
export class AgentSupervisor {
  private readonly running = new Map<string, Running>();

  constructor(private readonly options: SupervisorOptions) {}

  /** The rooms with an agent at work. */
  rooms(): string[] {
    return [...this.running.keys()];
  }

  /** Starts the agent of `condition` in `room` for the participant's task; nothing for a condition without one. */
  start(room: string, participantId: string, condition: Condition): void {
    if (condition.agent === 'none' || condition.agent === 'wizard' || this.running.has(room)) return;
    const entry: Running = { agent: this.agentFor(room, participantId, condition), restarts: 0 };
    this.running.set(room, entry);
    this.watch(room, participantId, condition, entry);
  }

  /** Stops the agent in `room` (the task ended); idempotent. */
  stop(room: string): void {
    const entry = this.running.get(room);
    if (!entry) return;
    this.running.delete(room);
    entry.agent.stop();
  }

  stopAll(): void {
    for (const room of [...this.running.keys()]) this.stop(room);
  }

  private watch(room: string, participantId: string, condition: Condition, entry: Running): void {
    entry.agent.run().then(
      (result: AgentResult) => {
        this.options.log(`supervisor: agent in ${room} ${result.status} after ${result.toolCalls} tool calls`);
        // Its work for this task is over (booked, or stopped): the room keeps no agent.
        if (this.running.get(room) === entry) this.running.delete(room);
      },
      (err: unknown) => {
        if (this.running.get(room) !== entry) return; // stopped meanwhile
        const why = err instanceof Error ? err.message : String(err);
        if (entry.restarts >= (this.options.maxRestarts ?? 3)) {
          this.running.delete(room);
          this.options.log(`supervisor: agent in ${room} failed ${entry.restarts + 1} times, giving up: ${why}`);
          return;
        }
        this.options.log(`supervisor: agent in ${room} failed (${why}); starting it again`);
        entry.restarts += 1;
        entry.agent = this.agentFor(room, participantId, condition);
        setTimeout(() => {
          if (this.running.get(room) === entry) this.watch(room, participantId, condition, entry);
        }, 500 * entry.restarts).unref();
      },
    );
  }

  private agentFor(room: string, participantId: string, condition: Condition): Agent {
    const log = (line: string) => this.options.log(`${room}: ${line}`);
    const llm = condition.planner === 'llm' ? this.options.llm : null;
    return new Agent({
      url: this.options.relayUrl,
      room,
      study: this.options.studyId,
      participant: participantId,
      mode: condition.agent === 'assist' ? 'assist' : 'autopilot',
      ...(this.options.token && { token: this.options.token }),
      paceMs: condition.paceMs,
      pageTools: condition.pageTools,
      confirmInChat: condition.confirmBeforeSubmit,
      episodes: new EpisodicLog({ dir: this.options.episodesDir }),
      ...(llm && { planner: createLlmPlanner(llm, undefined, { log }) }),
      log,
    });
  }
}
