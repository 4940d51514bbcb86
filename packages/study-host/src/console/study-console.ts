import type { ConsoleConditionSummary, ConsoleStatus, ParticipantRow, SessionSummary } from '@usher/protocol';
import type { Relay } from '@usher/relay';
import type { Participant } from '@usher/study';
import type { StudyMode } from '../study/study-mode.ts';
import type { AgentSupervisor } from '../supervisor/supervisor.ts';
import { LiveMeasures } from './live-measures.ts';
import { StudyLogIndex } from './study-logs.ts';

/** What the console needs of the agents beside participants (the study's supervisor). */
export type AgentControl = Pick<
  AgentSupervisor,
  | 'subscribe'
  | 'episodes'
  | 'pause'
  | 'resume'
  | 'isPaused'
  | 'isRunning'
  | 'pausedBy'
  | 'hold'
  | 'release'
  | 'isHeld'
  | 'activity'
>;

/**
 * The experimenter's side of a running study (the console): every participant with where they are,
 * live; the agent beside each; stepping in as the agent (Wizard of Oz) and handing back; ending
 * or resetting a participant's task; the study logs to replay. Everything it changes in a room is
 * also written to that room's study log, saying who did it.
 */
export class StudyConsole {
  /** The agents beside participants, once the supervisor has started (it reaches the server over the relay). */
  agents: AgentControl | null = null;
  readonly logs: StudyLogIndex;
  private readonly measures: LiveMeasures;
  private readonly roomListeners = new Set<(room: string) => void>();

  constructor(
    readonly mode: StudyMode,
    private readonly relay: Relay,
    logsDir: string,
  ) {
    this.logs = new StudyLogIndex(logsDir, mode.study.id);
    this.measures = new LiveMeasures(mode.study, this.logs, logsDir);
  }

  /** The collaboration measures per condition, live: the export's `conditions` table as the logs stand now. */
  conditionSummary(): ConsoleConditionSummary[] {
    return this.measures.summary(this.mode.participants());
  }

  /** Listens for changes in the relay's rooms (a page comes or goes, a stage changes); returns the function that stops it. */
  onRoomChange(listener: (room: string) => void): () => void {
    this.roomListeners.add(listener);
    return () => this.roomListeners.delete(listener);
  }

  /** The relay's news of a room (RoomHooks.roomChanged, through StudyHost). */
  roomChanged(room: string): void {
    for (const listener of this.roomListeners) listener(room);
  }

  rows(): ParticipantRow[] {
    const rooms = new Map(this.relay.status().map((status) => [status.room, status]));
    const now = this.mode.clock().getTime();
    return this.mode.participants().map((participant) => {
      const room = rooms.get(participant.room);
      const planned = participant.plan.tasks[participant.taskIndex];
      const condition = this.mode.study.conditions.find((c) => c.id === planned?.conditionId);
      const task = this.mode.study.tasks.find((t) => t.id === planned?.taskId);
      const onTask = participant.status === 'task';
      return {
        id: participant.id,
        externalId: participant.externalId,
        room: participant.room,
        condition: condition
          ? { id: condition.id, label: condition.label ?? condition.id, agent: condition.agent }
          : null,
        status: consoleStatus(participant),
        taskIndex: participant.taskIndex,
        taskCount: participant.plan.tasks.length,
        task: task ? { id: task.id, title: task.title } : null,
        stage: room?.host ? (room.stage ?? (this.relay.lastState(participant.room) === null ? null : BOOKED)) : null,
        online: room?.host ?? false,
        agent: this.agents?.isPaused(participant.room)
          ? 'paused'
          : this.agents?.isRunning(participant.room)
            ? 'running'
            : 'none',
        agentsInRoom: room?.agents ?? 0,
        sessionId: room?.studySession?.sessionId ?? null,
        events: room?.studySession?.events ?? 0,
        timeOnTaskMs: onTask ? Math.max(0, now - Date.parse(participant.updatedAt)) : null,
        createdAt: participant.createdAt,
        updatedAt: participant.updatedAt,
      };
    });
  }

  /** The participant whose room this is, in this study. */
  byRoom(room: string): Participant | null {
    return this.mode.byRoom(room);
  }

  /** The last state the room's page sent (a `state.updated` payload), parsed; null before any. */
  lastState(room: string): unknown {
    const json = this.relay.lastState(room);
    return json === null ? null : JSON.parse(json);
  }

  /**
   * An experimenter takes the room over (Wizard of Oz): the condition's agent pauses, and the
   * study log says who took over and why. The experimenter then acts through the relay as an agent.
   */
  takeOver(participant: Participant, by: string, reason: string): { paused: boolean } {
    if (participant.status !== 'task') throw new ConsoleError('the participant is not on a task');
    if (this.mode.conditionOf(participant)?.agent === 'none') {
      throw new ConsoleError('this condition has no agent: stepping in as one would change the condition');
    }
    const paused = this.agents?.pause(participant.room, by) ?? false;
    this.relay.record(participant.room, 'console.take-over', { by, reason, agentPaused: paused });
    return { paused };
  }

  /** Hands the room back to the condition's agent, which reads the page as it is and goes on. */
  handBack(participant: Participant, by: string): { resumed: boolean } {
    const resumed = this.agents?.resume(participant.room, by) ?? false;
    this.relay.record(participant.room, 'console.hand-back', { by, agentResumed: resumed });
    return { resumed };
  }

  sessions(): SessionSummary[] {
    return this.logs.list();
  }
}

/** A console request that cannot be done now; its message is for the experimenter. */
export class ConsoleError extends Error {
  override readonly name = 'ConsoleError';
}

/**
 * The stage a connected page shows once its booking is made: its state then has no uiSpec (the
 * booking engine has none after the submission), where a page that has sent nothing yet has no state.
 */
export const BOOKED = 'booked';

function consoleStatus(participant: Participant): ConsoleStatus {
  switch (participant.status) {
    case 'task':
      return 'booking';
    case 'task-questionnaire':
    case 'post-study':
      return 'questionnaire';
    default:
      return participant.status;
  }
}
