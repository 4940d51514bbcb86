import type { AgentActivity, AgentResult, Episode, LlmConfig, MistakeRecord, ScriptedMistake } from '@usher/agent';
import { type Condition, mistakeId } from '@usher/study';
import { type AgentHandle, type AgentListener, type AgentSpec, runAgent } from './agent-spec.ts';
import type { AgentThreads } from './agent-threads.ts';

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
  /** Worker threads to run the agents in; without them the agents run in the server's own thread. */
  threads?: AgentThreads | null;
  /**
   * Writes a record of the server's own into the study log of `room` (the relay's `record`): the
   * `agent.mistake` of each scripted mistake, before the action that makes it. Without it, a
   * condition's scripted mistakes are not made (nothing would say they were).
   */
  record?: (room: string, type: string, payload: Record<string, unknown>) => boolean;
}

/** Whose task an agent works on: the participant, the condition and the task (its scripted mistakes are the task's). */
interface Staffed {
  participantId: string;
  condition: Condition;
  taskId?: string;
}

interface Running extends Staffed {
  /** The agent, in the server's thread or in an agent thread. */
  agent: AgentHandle;
  restarts: number;
}

function staffed({ participantId, condition, taskId }: Staffed): Staffed {
  return { participantId, condition, ...(taskId !== undefined && { taskId }) };
}

/** How many of an agent's latest episode records the supervisor keeps per room, for a console that opens mid-task. */
const KEPT_EPISODES = 400;

/** What the console hears of the agents: each episode record as it is written, and pauses and resumes. */
export type AgentFeedEvent =
  | { room: string; kind: 'episode'; episode: Episode }
  | { room: string; kind: 'paused' | 'resumed' | 'started' | 'stopped'; by?: string };

/**
 * Starts the condition's agent beside each participant for the length of each task (study mode):
 * in the participant's room, through the relay, as any agent would, with the condition's pace, its
 * question before submitting and its page tools. It stops the agent when the task ends, restarts
 * one that failed (up to `maxRestarts` times), and runs any number at once.
 */
export class AgentSupervisor {
  private readonly running = new Map<string, Running>();
  /** Rooms whose agent was stopped for someone to take over (an experimenter, or the participant), with what it needs to resume. */
  private readonly paused = new Map<string, Staffed & { by: string }>();
  /** Rooms whose participant paused the agent: it holds still, and so does one started there meanwhile. */
  private readonly held = new Set<string>();
  /** The scripted mistakes already made in each room's task, so an agent started again does not make them twice. */
  private readonly mistakesMade = new Map<string, Set<string>>();
  /** The latest episode records of each room's agent (bounded), across restarts and resumes. */
  private readonly recent = new Map<string, Episode[]>();
  private readonly listeners = new Set<(event: AgentFeedEvent) => void>();
  /**
   * Every agent's run not yet settled, running or stopped: a run settles once its episode log is
   * flushed and closed, so {@link stopAll} waits for these.
   */
  private readonly unsettled = new Set<Promise<unknown>>();

  constructor(private readonly options: SupervisorOptions) {}

  /** Listens to every room's agent; returns the function that stops listening. */
  subscribe(listener: (event: AgentFeedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The latest episode records of the agent in `room` (oldest first), what the console shows first. */
  episodes(room: string): readonly Episode[] {
    return this.recent.get(room) ?? [];
  }

  /** Whether an experimenter has paused the agent of `room`. */
  isPaused(room: string): boolean {
    return this.paused.has(room);
  }

  /** Who took the room over from its agent (`participant`, or the experimenter's name), or null. */
  pausedBy(room: string): string | null {
    return this.paused.get(room)?.by ?? null;
  }

  /** Whether the participant has paused the agent of `room` ({@link hold}). */
  isHeld(room: string): boolean {
    return this.held.has(room);
  }

  /** What the agent of `room` is doing now (`idle` when none works there). */
  activity(room: string): AgentActivity {
    return this.running.get(room)?.agent.activity ?? 'idle';
  }

  /**
   * The participant pauses the agent of `room`: it sends nothing more (the call already on its way
   * completes) until {@link release}, and keeps what it was doing. False when no agent works there.
   */
  hold(room: string): boolean {
    const entry = this.running.get(room);
    if (!entry) return false;
    this.held.add(room);
    entry.agent.hold();
    this.emit({ room, kind: 'paused', by: 'participant' });
    return true;
  }

  /** The participant resumes the agent of `room`: it reads the page as it is and goes on. */
  release(room: string): boolean {
    if (!this.held.delete(room)) return false;
    this.running.get(room)?.agent.release();
    this.emit({ room, kind: 'resumed', by: 'participant' });
    return true;
  }

  /** Whether an agent works in `room` now. */
  isRunning(room: string): boolean {
    return this.running.has(room);
  }

  /**
   * Pauses the agent in `room` so that an experimenter can act as the agent (Wizard of Oz): the
   * agent is stopped and is not started again for this task until {@link resume}. False when no
   * agent works there.
   */
  pause(room: string, by: string): boolean {
    const entry = this.running.get(room);
    if (!entry) return false;
    this.paused.set(room, { ...staffed(entry), by });
    this.held.delete(room);
    this.running.delete(room);
    entry.agent.stop();
    this.emit({ room, kind: 'paused', by });
    return true;
  }

  /** Hands `room` back to its condition's agent, which reads the page as it is now and goes on. */
  resume(room: string, by: string): boolean {
    const paused = this.paused.get(room);
    if (!paused) return false;
    this.paused.delete(room);
    this.emit({ room, kind: 'resumed', by });
    this.start(room, paused.participantId, paused.condition, paused.taskId, by === 'participant');
    return true;
  }

  /** The rooms with an agent at work. */
  rooms(): string[] {
    return [...this.running.keys()];
  }

  /**
   * Starts the agent of `condition` in `room` for the participant's task (`taskId`: its scripted
   * mistakes are made there); nothing for a condition without one. `handedBack`: the participant
   * took over and hands the room back.
   */
  start(room: string, participantId: string, condition: Condition, taskId?: string, handedBack = false): void {
    if (condition.agent === 'none' || condition.agent === 'wizard' || this.running.has(room)) return;
    // An experimenter has the room: a reload of the participant's page does not bring the agent back.
    if (this.paused.has(room)) return;
    const task: Staffed = { participantId, condition, ...(taskId !== undefined && { taskId }) };
    const entry: Running = { ...task, agent: this.agentFor(room, task, handedBack), restarts: 0 };
    // Paused by the participant: an agent started again meanwhile (the page came back) holds still
    // too (its spec says so, so it holds from its first step wherever it runs).
    this.running.set(room, entry);
    this.emit({ room, kind: 'started' });
    this.watch(room, entry);
  }

  /**
   * Stops the agent in `room` because its task's session closed while the participant's page was
   * away; the task goes on, and the agent comes back with the page ({@link start}). An agent an
   * experimenter paused stays paused: the page coming back does not hand the room back to it.
   */
  idle(room: string): void {
    const paused = this.paused.get(room);
    const held = this.held.has(room);
    this.stop(room);
    if (paused) this.paused.set(room, paused);
    if (held) this.held.add(room);
  }

  /** Stops the agent in `room` (the task ended), paused or not; idempotent. */
  stop(room: string): void {
    this.paused.delete(room);
    this.held.delete(room);
    this.recent.delete(room);
    this.mistakesMade.delete(room);
    const entry = this.running.get(room);
    if (!entry) return;
    this.running.delete(room);
    entry.agent.stop();
    this.emit({ room, kind: 'stopped' });
  }

  private emit(event: AgentFeedEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.options.log(`supervisor: a feed listener failed: ${(err as Error).message}`);
      }
    }
  }

  private remember(room: string, episode: Episode): void {
    let kept = this.recent.get(room);
    if (!kept) {
      kept = [];
      this.recent.set(room, kept);
    }
    kept.push(episode);
    if (kept.length > KEPT_EPISODES) kept.splice(0, kept.length - KEPT_EPISODES);
    this.emit({ room, kind: 'episode', episode });
  }

  /**
   * Stops every agent; resolves once every agent's run has ended, stopped ones included, and so
   * once every episode log is flushed to disk and closed (a run that failed is logged by
   * {@link watch}). The server awaits it before it ends the agent threads.
   */
  stopAll(): Promise<void> {
    for (const room of [...this.running.keys()]) this.stop(room);
    return Promise.allSettled([...this.unsettled]).then(() => {});
  }

  private watch(room: string, entry: Running): void {
    entry.agent.result.then(
      (result: AgentResult) => {
        this.options.log(`supervisor: agent in ${room} ${result.status} after ${result.toolCalls} tool calls`);
        // Its work for this task is over (booked, or stopped): the room keeps no agent.
        if (this.running.get(room) === entry) this.running.delete(room);
      },
      (err: unknown) => {
        const why = err instanceof Error ? err.message : String(err);
        if (this.running.get(room) !== entry) {
          // Stopped meanwhile: not started again, but what failed (its episode log's flush, say) is said.
          this.options.log(`supervisor: agent in ${room} failed after it was stopped: ${why}`);
          return;
        }
        if (entry.restarts >= (this.options.maxRestarts ?? 3)) {
          this.running.delete(room);
          this.options.log(`supervisor: agent in ${room} failed ${entry.restarts + 1} times, giving up: ${why}`);
          return;
        }
        this.options.log(`supervisor: agent in ${room} failed (${why}); starting it again`);
        entry.restarts += 1;
        entry.agent = this.agentFor(room, staffed(entry));
        setTimeout(() => {
          if (this.running.get(room) === entry) this.watch(room, entry);
        }, 500 * entry.restarts).unref();
      },
    );
  }

  private agentFor(room: string, { participantId, condition, taskId }: Staffed, handedBack = false): AgentHandle {
    const log = (line: string) => this.options.log(`${room}: ${line}`);
    const mistakes = this.mistakesFor(condition, taskId);
    const spec: AgentSpec = {
      relayUrl: this.options.relayUrl,
      ...(this.options.token && { token: this.options.token }),
      room,
      studyId: this.options.studyId,
      participantId,
      mode: condition.agent === 'assist' ? 'assist' : 'autopilot',
      paceMs: condition.paceMs,
      pageTools: condition.pageTools,
      confirmInChat: condition.guard === 'before-submit',
      proposeEachStep: condition.guard === 'each-step',
      handedBack,
      held: this.held.has(room),
      episodesDir: this.options.episodesDir,
      llm: condition.planner === 'llm' ? this.options.llm : null,
      mistakes: mistakes && { mistakes, made: [...(this.mistakesMade.get(room) ?? [])] },
    };
    const listener: AgentListener = {
      log,
      episode: (episode: Episode) => {
        // A stopped agent's last records (its stop note) belong to no room's feed any more.
        if (this.running.get(room)?.agent === handle) this.remember(room, episode);
      },
      mistake: (record: MistakeRecord) => this.noteMistake(room, record, log),
    };
    const threads = this.options.threads;
    const handle: AgentHandle = threads ? threads.run(spec, listener) : runAgent(spec, listener);
    const settled = handle.result.then(
      () => {},
      () => {},
    );
    this.unsettled.add(settled);
    void settled.then(() => this.unsettled.delete(settled));
    return handle;
  }

  /**
   * The condition's scripted mistakes in this task (null for none, or when no study log would say
   * they were made). Those already made are the supervisor's (`mistakesMade`), sent with the spec.
   */
  private mistakesFor(condition: Condition, taskId: string | undefined): ScriptedMistake[] | null {
    const declared = condition.mistakes.filter((m) => m.task === taskId);
    if (declared.length === 0 || !this.options.record) return null;
    return declared.map((m) => ({
      id: mistakeId(m),
      kind: m.kind,
      stage: m.stage,
      ...(m.minutes !== undefined && { minutes: m.minutes }),
    }));
  }

  /**
   * A scripted mistake the agent of `room` is about to make: remembered as made in this task and
   * recorded in the room's study log. Called in the server's thread wherever the agent runs, and
   * the agent sends the action that makes the mistake only after it returns.
   */
  private noteMistake(room: string, mistake: MistakeRecord, log: (line: string) => void): void {
    let made = this.mistakesMade.get(room);
    if (!made) {
      made = new Set();
      this.mistakesMade.set(room, made);
    }
    made.add(mistake.mistakeId);
    if (!this.options.record?.(room, 'agent.mistake', { ...mistake })) {
      log(`supervisor: the scripted mistake "${mistake.mistakeId}" could not be written to the study log`);
    }
  }
}
