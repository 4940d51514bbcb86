import type { FlowStep, ParticipantView, QuestionnaireSubmission } from '@usher/protocol';
import type { Relay } from '@usher/relay';
import {
  type Condition,
  type LoadedTask,
  type Participant,
  recruitmentFrom,
  type Study,
  type StudyRegistry,
} from '@usher/study';
import type { AnswersLog } from './answers-log.ts';
import { nextStep, questionnaireView, recordAnswers, shownQuestionnaire } from './questionnaires.ts';

/** Told when a participant's task starts and ends (the agent supervisor staffs it). */
export interface TaskHooks {
  taskStarted?(participant: Participant, condition: Condition): void;
  taskEnded?(participant: Participant): void;
  /** The task's session in `room` closed because the participant's page was gone too long. */
  roomIdle?(room: string): void;
}

/** Why a step was refused; its message is for the page to show. */
export class FlowError extends Error {
  override readonly name = 'FlowError';
}

/**
 * A task cannot start now: the server holds its maximum of rooms (`maxRooms`), which a task's
 * session would pass, or the address the request came from started its maximum of running tasks
 * (`maxTasksPerAddress`; `perAddress`). Nothing changed; the participant may try again once rooms
 * are freed.
 */
export class StudyFullError extends Error {
  override readonly name = 'StudyFullError';
  constructor(
    message: string,
    readonly perAddress = false,
  ) {
    super(message);
  }
}

/** The relay's limits a study counts when it opens rooms (relay/limits.ts). */
export interface StudyRoomLimits {
  maxRooms: number;
  maxTasksPerAddress: number;
  /** A page gone this long has its task's session closed; a restart reopens none gone longer. */
  idleSessionMs?: number;
}

/**
 * A pilot run of a study (`usher pilot`): its participants are simulated, so its randomness is
 * seeded (the same seed, the same assignments, ids and rooms) and its records say `pilot: true`.
 */
export interface PilotRun {
  random: () => number;
  bytes: (n: number) => Buffer;
}

/**
 * A study run by the server (`usher serve --study`): participants come in through the study
 * link, are admitted by the registry (their assignment and an unguessable room of their own), and
 * move through consent → briefing → task (a study session opened by the server in their room,
 * whatever the condition) → its questionnaire → next task, or the post-study questionnaire and the
 * end (a questionnaire their condition shows nothing of is skipped). Every step is stored before it is answered, so a
 * reload or a restart continues where the participant was.
 */
export class StudyMode {
  private readonly listeners = new Set<(participantId: string) => void>();
  /** Each task's world without its story, as views carry it (see {@link shownWorld}). */
  private readonly shownWorlds = new WeakMap<object, Record<string, unknown>>();

  constructor(
    readonly study: Study,
    private readonly registry: StudyRegistry,
    private readonly relay: Relay,
    private readonly now: () => Date,
    private readonly hooks: TaskHooks = {},
    /** Where submitted questionnaires are logged, beside the registry. */
    private readonly answersLog: AnswersLog,
    /**
     * A task's study session opens a room (and its log file, and its agent), and anyone may open
     * the study link and start tasks, so starting one counts against `maxRooms`, and against
     * `maxTasksPerAddress` for the address that asked.
     */
    private readonly limits: StudyRoomLimits = {
      maxRooms: Number.POSITIVE_INFINITY,
      maxTasksPerAddress: Number.POSITIVE_INFINITY,
    },
    /**
     * How long the page of a participant's current task had been gone when the server stopped
     * (page-presence.ts; 0: it was there), so a restart reopens only tasks whose page may still be there.
     */
    private readonly pageAway: (participant: Participant) => number = () => 0,
    /**
     * The `agent.manifest` record that opens a study log of `conditionId` (supervisor/manifest.ts),
     * or null for none.
     */
    private readonly manifestOf: (conditionId: string) => Record<string, unknown> | null = () => null,
    /** A pilot's run (`usher pilot`): its seeded randomness, and every task's `study.task` says `pilot: true`. */
    private readonly pilot: PilotRun | null = null,
  ) {}

  /**
   * Refuses to open a session for `participant`'s task when that would pass `maxRooms`, or, for a
   * request from `from` (a limit key), `maxTasksPerAddress`. A session already open is theirs, and
   * a room already open (their page is there) holds the session without taking another, nor one
   * more of the address's when it counts toward it already.
   */
  private roomAvailable(participant: Participant, from: string | undefined): void {
    if (this.relay.hasStudySession(participant.room)) return;
    const { maxRooms } = this.limits;
    if (from !== undefined && this.relay.roomHolder(participant.room) !== from) this.addressAvailable(from);
    if (this.relay.load().rooms < maxRooms || this.relay.hasRoom(participant.room)) return;
    throw new StudyFullError(
      `the server holds its maximum of ${maxRooms} rooms (maxRooms); try again in a few minutes`,
    );
  }

  /** Refuses one more room counted toward `from` (a limit key) past `maxTasksPerAddress`. */
  private addressAvailable(from: string): void {
    const { maxTasksPerAddress } = this.limits;
    if (this.relay.roomsHeldBy(from) < maxTasksPerAddress) return;
    throw new StudyFullError(
      `tasks and pages from this address hold their maximum of ${maxTasksPerAddress} rooms (maxTasksPerAddress); try again in a few minutes`,
      true,
    );
  }

  /**
   * A page is about to join `room` as its host from `address` (a limit key; the relay asks, see
   * `RoomHooks.hostJoining`): when it is the room of a participant mid-task whose session is
   * closed (the page came after `pageJoinMs`, or back after `idleSessionMs`), the session opens
   * again first, so nothing the page does goes unlogged. A session open that no request started (a
   * restart reopened it, {@link resumeAll}; `uncounted`) is counted by the relay toward the
   * address of the first page to join it unless this refuses, else whoever joined would hold it
   * uncounted; so is a room with no session (no task runs there: a participant not started, or
   * between tasks), which the page holds all the same. Returns why the join is refused (the
   * address holds its maximum of rooms; the log cannot be opened), or null.
   */
  hostJoining(room: string, address: string, uncounted: boolean): string | null {
    const participant = this.byRoom(room);
    try {
      if (this.relay.hasStudySession(room)) {
        // Unless refused here, the relay counts an uncounted session toward `address`.
        if (uncounted && this.relay.roomHolder(room) !== address) this.addressAvailable(address);
        return null;
      }
      if (participant?.status !== 'task') {
        if (this.relay.roomHolder(room) !== address) this.addressAvailable(address);
        return null;
      }
      this.roomAvailable(participant, address);
      this.resume(participant, undefined, address);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** Listens for participants who arrive or move on (the console's live list); returns the function that stops it. */
  onChange(listener: (participantId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(participantId: string): void {
    for (const listener of this.listeners) listener(participantId);
  }

  /** The registry's record of every participant of the study, oldest first. */
  participants(): Participant[] {
    return this.registry.participants(this.study.id);
  }

  get(participantId: string): Participant | null {
    const participant = this.registry.get(participantId);
    return participant?.studyId === this.study.id ? participant : null;
  }

  /** The study's clock (what "time on task" is measured with). */
  clock(): Date {
    return this.now();
  }

  /**
   * An experimenter ends a participant's study (from the console): a running task's session
   * closes with the reason, the agent stops, and the participant's page shows that the study has
   * ended. Refused for a participant who is already done, gave up or was ended.
   */
  endByExperimenter(participant: Participant, reason: string): ParticipantView {
    if (participant.status === 'done' || participant.status === 'gave-up' || participant.status === 'dropped') {
      throw new FlowError(`this participant's study is already over (${participant.status})`);
    }
    const from = { status: participant.status, taskIndex: participant.taskIndex };
    if (!this.registry.progress(participant.id, { status: 'dropped' }, this.now(), from)) {
      throw new FlowError('the participant moved on meanwhile; look again');
    }
    if (participant.status === 'task') {
      this.hooks.taskEnded?.(participant);
      this.relay.closeStudySession(participant.room, `ended by the experimenter: ${reason}`);
    }
    this.changed(participant.id);
    return this.view(this.registry.get(participant.id) as Participant);
  }

  /**
   * An experimenter resets a participant's current task (from the console): its session closes
   * with the reason, the agent stops, and the participant starts the task again from its briefing
   * (a new session, so the reset one stays as it was, whole).
   */
  resetByExperimenter(participant: Participant, reason: string): ParticipantView {
    if (participant.status !== 'task' && participant.status !== 'briefing') {
      throw new FlowError(`only a task, or its briefing, can be reset (the participant is at ${participant.status})`);
    }
    const from = { status: participant.status, taskIndex: participant.taskIndex };
    if (!this.registry.progress(participant.id, { status: 'briefing' }, this.now(), from)) {
      throw new FlowError('the participant moved on meanwhile; look again');
    }
    if (participant.status === 'task') {
      this.hooks.taskEnded?.(participant);
      this.relay.closeStudySession(participant.room, `reset by the experimenter: ${reason}`);
    }
    this.changed(participant.id);
    return this.view(this.registry.get(participant.id) as Participant);
  }

  /** The condition of a participant's current task. */
  conditionOf(participant: Participant): Condition | null {
    const planned = participant.plan.tasks[participant.taskIndex];
    return this.study.conditions.find((c) => c.id === planned?.conditionId) ?? null;
  }

  /** A participant opening the study link, with its query (recruitment parameters, `condition=`). */
  admit(query: URLSearchParams): { participant: Participant; returning: boolean; returnKey?: string } {
    const condition = query.get('condition');
    const admitted = this.registry.admit(this.study, {
      recruitment: recruitmentFrom(query),
      ...(condition !== null && { linkCondition: condition }),
      now: this.now(),
      ...(this.pilot && { random: this.pilot.random, bytes: this.pilot.bytes }),
    });
    if (!admitted.returning) this.changed(admitted.participant.id);
    return admitted;
  }

  /** Whether a returning participant's browser holds their return key (null: recorded before keys). */
  returnKeyMatches(participant: Participant, key: string | undefined): boolean | null {
    return this.registry.returnKeyMatches(participant.id, key);
  }

  /** The registry's record of `participant` now; a flow error when it is gone (an arrival removed for never consenting). */
  private current(participant: Participant): Participant {
    const now = this.get(participant.id);
    if (!now) throw new FlowError('this participant is no longer in the study; open the study link again');
    return now;
  }

  /** The participant whose room this is, if any. */
  byRoom(room: string): Participant | null {
    const participant = this.registry.byRoom(room);
    return participant?.studyId === this.study.id ? participant : null;
  }

  view(participant: Participant): ParticipantView {
    const planned = participant.plan.tasks[participant.taskIndex];
    const task = planned && this.study.tasks.find((t) => t.id === planned.taskId);
    const condition = planned && this.study.conditions.find((c) => c.id === planned.conditionId);
    const over = participant.status === 'done' || participant.status === 'gave-up';
    const view: ParticipantView = {
      participantId: participant.id,
      study: { id: this.study.id, title: this.study.participantTitle ?? this.study.title },
      status: participant.status,
      taskIndex: participant.taskIndex,
      taskCount: participant.plan.tasks.length,
      page: {
        chat: condition?.chat ?? true,
        // The participant's controls, for a condition whose agent the server runs, or where each step is approved.
        ...(condition && (condition.controls.pause || condition.controls.takeOver || condition.guard === 'each-step')
          ? { controls: condition.controls }
          : {}),
      },
    };
    if (participant.status === 'consent') view.consent = this.study.consent;
    if (task && !over && participant.status !== 'consent' && participant.status !== 'post-study') {
      view.task = {
        id: task.id,
        title: task.title,
        briefing: task.briefing,
        checklist: task.checklist,
        world: this.shownWorld(task.world),
      };
    }
    const questionnaire = shownQuestionnaire(this.study, participant);
    if (questionnaire) view.questionnaire = questionnaireView(questionnaire);
    if (over) {
      const { code, redirect } = this.study.completion;
      view.completion = { ...(code && { code }), ...(redirect && { redirect }) };
    }
    return view;
  }

  /**
   * The world as the room's page gets it (it is the host), never with its story: one object per
   * task, so the answers that carry it turn it into JSON and compress it once (http/view-body.ts).
   */
  private shownWorld(world: LoadedTask['world']): Record<string, unknown> {
    let shown = this.shownWorlds.get(world);
    if (!shown) {
      const { story: _hidden, ...rest } = world;
      shown = rest;
      this.shownWorlds.set(world, shown);
    }
    return shown;
  }

  /**
   * A participant mid-task whose study session is not open (the server restarted, or their page
   * was gone long enough for the session to close): it is opened again, its first record
   * saying so, and the task's agent comes back. Nothing happens when the session is open.
   */
  resume(participant: Participant, page?: { at?: string }, from?: string): void {
    const condition = this.conditionOf(participant);
    if (participant.status !== 'task' || !condition) return;
    if (!this.relay.hasStudySession(participant.room)) {
      this.openTaskSession(participant, { resumed: true, ...(page?.at && { page }) }, from);
    }
    this.hooks.taskStarted?.(participant, condition);
  }

  /**
   * Opens the study session of `participant`'s current task in their room, its first record
   * (`study.task`) naming study, participant, condition and task, with `extra` (resumed, the
   * page's moments); `from` is the limit key of the address it counts toward.
   */
  private openTaskSession(participant: Participant, extra: { resumed?: boolean; page?: object }, from?: string): void {
    const planned = participant.plan.tasks[participant.taskIndex];
    if (!planned) return;
    const manifest = this.manifestOf(planned.conditionId);
    this.relay.openStudySession(
      participant.room,
      {
        studyId: this.study.id,
        participantId: participant.id,
        conditionId: planned.conditionId,
        taskId: planned.taskId,
        ...extra,
        ...(this.pilot && { pilot: true }),
      },
      from,
      manifest ? [{ type: 'agent.manifest', payload: manifest }] : [],
    );
  }

  /**
   * After a restart: the study sessions of participants the registry holds mid-task are opened
   * again (see {@link resume}), the most recently moved first, as long as rooms are free
   * (`maxRooms`), when their page may still be there: one gone `idleSessionMs` or more before the
   * stop (its session had closed, or would have) is not (`gone`), nor is its agent started. Tasks
   * that strangers started and left stay mid-task in the registry, so without these a restart
   * would open a room, a log file and an agent for every one of them at once. The rest reopen when
   * their page comes back (it joins its room, or starts its task again on load). A session that
   * cannot be opened (the logs folder unwritable) is said through `warn` and the others go on.
   */
  resumeAll(warn: (line: string) => void = () => {}): { resumed: number; waiting: number; gone: number } {
    const idleMs = this.limits.idleSessionMs ?? Number.POSITIVE_INFINITY;
    const midTask = this.registry
      .participants(this.study.id)
      .filter((p) => p.status === 'task')
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
    let resumed = 0;
    let waiting = 0;
    let gone = 0;
    for (const participant of midTask) {
      try {
        if (!(this.pageAway(participant) < idleMs)) {
          gone += 1;
          continue;
        }
        this.roomAvailable(participant, undefined);
        this.resume(participant);
        resumed += 1;
      } catch (err) {
        waiting += 1;
        if (!(err instanceof StudyFullError)) {
          warn(`study: the task of participant ${participant.id} could not be resumed: ${(err as Error).message}`);
        }
      }
    }
    return { resumed, waiting, gone };
  }

  /**
   * Moves the participant on; the step must fit where they are (a stale page's step is refused,
   * changing nothing). `address` is the limit key of the address that asked, when a request asked.
   */
  step(stale: Participant, change: FlowStep, address?: string): ParticipantView {
    // Read again: the request that named them may have waited for its body while the console
    // ended or reset their task, and a resumed task takes no step that would notice.
    const participant = this.current(stale);
    const now = this.now();
    const planned = participant.plan.tasks[participant.taskIndex];
    const from = { status: participant.status, taskIndex: participant.taskIndex };
    const moved = (status: Participant['status'], taskIndex?: number) => {
      const to = taskIndex === undefined ? { status } : { status, taskIndex };
      if (!this.registry.progress(participant.id, to, now, from)) {
        throw new FlowError('another step moved this participant on meanwhile; reload the page');
      }
    };
    switch (change.step) {
      case 'consent':
        if (participant.status !== 'consent') throw new FlowError(`already past consent (${participant.status})`);
        moved('briefing');
        break;
      case 'start-task': {
        // A reload or a return mid-task: the task goes on, its session and agent too.
        if (participant.status === 'task') {
          this.roomAvailable(participant, address);
          this.resume(participant, change.at ? { at: change.at } : undefined, address);
          break;
        }
        if (participant.status !== 'briefing' || !planned)
          throw new FlowError(`no task to start (${participant.status})`);
        this.roomAvailable(participant, address);
        moved('task');
        // The page's own moments go beside the server's: when it showed the briefing, when the task started.
        const page = {
          ...(change.briefingShownAt && { briefingShownAt: change.briefingShownAt }),
          ...(change.at && { at: change.at }),
        };
        this.openTaskSession(participant, Object.keys(page).length > 0 ? { page } : {}, address);
        const condition = this.conditionOf(participant);
        if (condition) this.hooks.taskStarted?.(participant, condition);
        break;
      }
      case 'end-task': {
        if (participant.status !== 'task') throw new FlowError(`no task is running (${participant.status})`);
        if (change.taskIndex !== undefined && change.taskIndex !== participant.taskIndex) {
          throw new FlowError(
            `this page ends task ${change.taskIndex + 1}, but task ${participant.taskIndex + 1} is running; reload the page`,
          );
        }
        // Giving up ends the task, not the study: the outcome is in the task's log record.
        const next = nextStep(this.study, participant, participant.taskIndex, false);
        moved(next.status, next.taskIndex);
        this.hooks.taskEnded?.(participant);
        this.relay.closeStudySession(
          participant.room,
          `task ${planned?.taskId ?? '?'} ended: ${change.outcome}`,
          change.at ? { at: change.at } : undefined,
        );
        break;
      }
    }
    this.changed(participant.id);
    return this.view(this.registry.get(participant.id) as Participant);
  }

  /**
   * The participant's answers to the questionnaire they are on: checked against it (refused
   * whole with `AnswersRefused`, changing nothing), stored in the registry and the questionnaire
   * log with its instruments' scores, and the participant moved on.
   */
  answer(stale: Participant, submission: QuestionnaireSubmission): ParticipantView {
    const participant = this.current(stale);
    const questionnaire = shownQuestionnaire(this.study, participant);
    if (questionnaire?.kind !== submission.questionnaire) {
      throw new FlowError(`no ${submission.questionnaire} questionnaire to answer now (${participant.status})`);
    }
    const deps = { study: this.study, registry: this.registry, log: this.answersLog, now: this.now() };
    if (!recordAnswers(deps, participant, questionnaire, submission)) {
      throw new FlowError('another step moved this participant on meanwhile; reload the page');
    }
    // The participant moved on (to the next briefing, or to the end): the console hears it.
    this.changed(participant.id);
    return this.view(this.registry.get(participant.id) as Participant);
  }
}
