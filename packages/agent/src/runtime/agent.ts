import { STAGES, type Stage } from '@usher/protocol';
import { EpisodicLog } from '../memory/episodic.ts';
import { contextKeyOf, fingerprintOf } from '../memory/fingerprint.ts';
import { WorkingMemory } from '../memory/working.ts';
import { freshExploration, GREETING, planNext } from '../planning/deterministic.ts';
import { ScriptedMistakes } from '../planning/mistakes.ts';
import type { NavigationPlan } from '../planning/plan.ts';
import { type PreferenceModel, requiredSeats } from '../planning/solver/index.ts';
import { recoveryFor } from '../policies/retry.ts';
import { unsafeBecause } from '../policies/safety.ts';
import { fromStory } from '../preferences/index.ts';
import { Acting } from './acting.ts';
import type {
  AgentActivity,
  AgentOptions,
  AgentPhase,
  AgentResult,
  Instruction,
  InstructionResult,
} from './agent-options.ts';
import { ChatQuestion, goingBackLine, offerAlternatives, submitDeclined, submitRefused } from './asking.ts';
import { HostView } from './host-view.ts';
import { type Heard, Listening } from './listening.ts';
import { RelayClient, type RelayEvent } from './relay-client.ts';
import { CurrentRequest, callBudget } from './request.ts';
import { RoomSync } from './room-sync.ts';
import { StepApproval } from './step-approval.ts';

/**
 * The agent runtime (spec §5): joins the room, starts the study session, then perceives, plans,
 * acts one action at a time and verifies, until the booking is made or it cannot go on. A
 * participant may write or act at any moment: their messages refine the wishes, their choices stand.
 */
/** The same plan refused as unsafe this many times in a row, with the state read again between: the agent cannot act here. */
const UNSAFE_REPEATS = 3;

export class Agent {
  /** The participant's wishes, read from their words ({@link Listening}). */
  private readonly listening: Listening;
  /** What the agent sees of the host: the context, the participant's own choices, the changes, the wait on frames. */
  private readonly view: HostView;
  /** The connection's phase, and keeping in step with the room and its host. */
  private readonly sync: RoomSync;
  /** Sends the plan's actions and keeps their records and the count of tool calls. */
  private readonly acting: Acting;
  /** The question to the participant in the chat before submitting ({@link AgentOptions.confirmInChat}). */
  private readonly question: ChatQuestion;
  /** The session's working memory (spec §2.4): the active plan, recent states, failures, options tried. */
  readonly memory = new WorkingMemory();
  private exploration = freshExploration();
  /**
   * Options picked among equals by whoever gave an instruction (`offerAlternatives`), each with the
   * choices it was picked under (`contextKeyOf`): a theater picked for one film is no pick for another.
   */
  private readonly picked = new Map<string, string>();
  private readonly relay: RelayClient;
  private readonly episodes: EpisodicLog;
  private readonly log: (line: string) => void;
  /** What was understood of new wishes, said in the chat at the start of the next turn. */
  private pendingReplies: string[] = [];
  private stopped = false;
  /** What the agent could not read or do on the page, said once each (in the chat and the log). */
  private readonly saidOnce = new Set<string>();
  /** The last reason a planned action was not sent, and how many times in a row since. */
  private lastUnsafe: string | null = null;
  private unsafeRepeats = 0;
  /** Cancels a planner call in flight when the agent stops. */
  private readonly abort = new AbortController();
  /** The instruction being carried out ({@link instruct}), if any. */
  private current: Instruction | null = null;
  /** The request being carried out: the agent acts on the booking only while there is one ({@link CurrentRequest}). */
  private readonly request = new CurrentRequest();
  /** Greeted the participant, or has no need to (an agent before it in the room already spoke). */
  private greeted = false;
  /** The room refused a submit the participant had not confirmed: from then on the agent asks them in the chat. */
  private askInChat = false;
  /** The task's scripted mistakes around the planner ({@link AgentOptions.mistakes}), if any. */
  private readonly mistakes: ScriptedMistakes | null;
  /** Each step proposed for the participant's approval ({@link AgentOptions.proposeEachStep}). */
  private readonly steps: StepApproval;
  /** The participant paused the agent ({@link hold}): it acts again once {@link release}d. */
  private held = false;
  /** Aborts the wait before a tool call when the agent is held. */
  private holdAbort = new AbortController();
  /** Wakes the wait of a held agent. */
  private onRelease: (() => void) | null = null;
  /** The agent waits for the participant to write or act. */
  private waiting = false;

  constructor(private readonly options: AgentOptions) {
    if (options.story) this.request.open(0);
    this.episodes = options.episodes ?? new EpisodicLog({ dir: null });
    this.log = options.log ?? (() => {});
    this.mistakes = options.mistakes ? new ScriptedMistakes(options.mistakes, options.planner ?? planNext) : null;
    this.listening = new Listening(options.story ? fromStory(options.story) : { hard: [], soft: [] }, {
      clock: options.now ?? (() => new Date()),
      log: (line) => this.log(line),
      reader: options.reader,
    });
    this.relay = new RelayClient({
      url: options.url,
      room: options.room,
      ...(options.token && { token: options.token }),
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
      onEvent: (event) => this.onRelayEvent(event),
      log: (line) => this.log(line),
    });
    this.view = new HostView({
      pageTools: options.pageTools !== false,
      saw: (context) => {
        const reread = this.listening.saw(context);
        if (reread) this.wishesChanged(reread.summary);
        this.memory.noteState(context.uiSpec);
      },
      halted: () => this.halted(),
      needsResync: () => this.sync.needsResync,
    });
    this.sync = new RoomSync({
      relay: this.relay,
      study: options.study,
      participant: options.participant,
      sessionStarted: (sessionId) => {
        this.episodes.sessionId = sessionId;
      },
      perceive: (snapshot) => this.view.perceive(snapshot),
      wake: () => this.view.wake(),
      halted: () => this.halted(),
      log: (line) => this.log(line),
    });
    this.acting = new Acting({
      episodes: this.episodes,
      memory: this.memory,
      execution: {
        relay: this.relay,
        context: () => this.view.context,
        waitFor: (test, timeoutMs) => this.view.waitFor(test, timeoutMs),
        resync: (snapshot) => this.view.perceive(snapshot),
      },
      paceMs: options.paceMs,
      signal: this.abort.signal,
      held: () => this.held,
      holdSignal: () => this.holdAbort.signal,
      log: (line) => this.log(line),
      working: () => this.showStatus('working'),
      busyChanged: () => this.activityChanged(),
      sending: () => {
        this.sync.phase = 'WAITING_RESULT';
      },
      settled: () => {
        // The connection may have dropped meanwhile: that phase stands until the relay is back.
        if (this.sync.phase === 'WAITING_RESULT') this.sync.phase = 'SESSION_ACTIVE';
      },
      changes: () => this.view.changes,
    });
    this.question = new ChatQuestion({
      say: (text) => this.say(text),
      idle: () => this.showStatus('idle'),
      hear: (text) => this.hear(text),
      changed: () => this.activityChanged(),
    });
    this.steps = new StepApproval({
      propose: (payload) => this.relay.propose(payload),
      say: (text) => this.say(text),
      idle: () => this.showStatus('idle'),
      changed: () => this.activityChanged(),
    });
  }

  /** What the agent is doing now: acting on the page, asking (a question or a proposal open), waiting for the participant, or idle. */
  get activity(): AgentActivity {
    if (this.steps.asking || this.question.open) return 'asking';
    if (this.acting.busy) return 'acting';
    return this.waiting ? 'waiting' : 'idle';
  }

  /** The activity last told to {@link AgentOptions.onActivity}. */
  private toldActivity: AgentActivity = 'idle';

  /**
   * Every change to what {@link activity} derives from ends here: the value is computed again and
   * told when it differs from the last told, so each change is told once and in order.
   */
  private activityChanged(): void {
    const now = this.activity;
    if (now === this.toldActivity) return;
    this.toldActivity = now;
    this.options.onActivity?.(now);
  }

  /**
   * The participant paused the agent: the tool call waiting out its pace is not sent, a proposal
   * open is withdrawn, and nothing more is sent until {@link release}. The call already on its way
   * completes (the agent stops within one action).
   */
  hold(): void {
    if (this.held) return;
    this.held = true;
    this.holdAbort.abort();
    this.steps.withdraw();
    this.view.wake();
  }

  /** Resumed: the agent reads the page as it is now and goes on with the request. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    this.holdAbort = new AbortController();
    this.onRelease?.();
  }

  /** Whether the participant has paused the agent. */
  get isHeld(): boolean {
    return this.held;
  }

  /** The runtime's phase (spec §4), as the connection and the action in flight leave it. */
  get phase(): AgentPhase {
    return this.sync.phase;
  }

  /** Runs until the booking is done, the agent is blocked (with `returnWhenBlocked`), or {@link stop}. */
  async run(): Promise<AgentResult> {
    let result: AgentResult;
    try {
      await this.start();
      this.readEarlierMessages();
      if (this.options.goal) await this.hearFirst(this.options.goal);
      result = await this.loop();
    } catch (err) {
      // The run's own error is the answer; a flush that fails as well is said, not lost.
      await this.close().catch((flushError: Error) => this.log(`agent: ${flushError.message}`));
      throw err;
    }
    // Resolved only once the episode log is on disk; its flush failing fails the run.
    await this.close();
    return result;
  }

  /** Joins the room and starts the study session (waiting for a host when there is none yet). */
  start(): Promise<void> {
    return this.sync.join();
  }

  /**
   * Carries out one instruction on the host (after {@link start}): reads it into the wishes, then
   * acts until the booking is made, the agent is blocked (it says why and returns), or the
   * instruction's signal aborts. One instruction at a time; the caller queues them.
   */
  async instruct(instruction: Instruction): Promise<InstructionResult> {
    if (this.current) throw new Error('the agent is already carrying out an instruction');
    this.current = instruction;
    const onAbort = () => this.interrupt();
    instruction.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (instruction.model) this.listening.model = instruction.model;
      if (this.halted()) return { ...this.stoppedResult(), model: this.listening.model };
      // An instruction is a request even when it adds no wish ("go on").
      this.request.open(this.acting.toolCalls);
      const understood = await this.hearFirst(instruction.text);
      const noWishes = this.listening.model.hard.length === 0 && this.listening.model.soft.length === 0;
      if (!understood && noWishes) {
        // Nothing to act on: say so rather than guess. ("Go on" with wishes already known just goes on.)
        const text = `I could not tell what to book from "${instruction.text}". Tell me a film or genre, a day, a time or how many tickets.`;
        this.say(text);
        return { status: 'blocked', message: text, toolCalls: 0, model: this.listening.model };
      }
      const callsBefore = this.acting.toolCalls;
      const result = await this.loop();
      return { ...result, toolCalls: result.toolCalls - callsBefore, model: this.listening.model };
    } finally {
      instruction.signal?.removeEventListener('abort', onAbort);
      this.current = null;
    }
  }

  /**
   * Leaves the room and closes the episode log: later records throw at once, and the promise
   * resolves once the log is flushed and closed (off this thread, on libuv's pool). Idempotent.
   */
  close(): Promise<void> {
    this.sync.leave();
    return this.episodes.close();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.interrupt();
  }

  /** Wakes every wait so the loop sees it should end. */
  private interrupt(): void {
    this.question.reply(null);
    this.steps.withdraw();
    this.onRelease?.();
    this.view.wake();
    this.sync.interrupt();
  }

  /** Stopped for good, or the instruction being carried out was cancelled. */
  private halted(): boolean {
    return this.stopped || this.current?.signal?.aborted === true;
  }

  private stoppedResult(): AgentResult {
    return { status: 'stopped', message: 'stopped', toolCalls: this.acting.toolCalls };
  }

  /**
   * What the agent cannot read of the host's page (its stage, say), said once in the log and in
   * the chat; undefined when it can read it. The state is read again before the next turn.
   */
  private cannotRead(): string | undefined {
    const why = this.sync.unreadable;
    if (!why) return undefined;
    this.sync.needsResync = true;
    return this.sayOnce(
      `I cannot read this page: ${why}. Please go on on the page yourself, or tell me what to do.`,
      `agent: cannot read the host's page (${why}); said so in the chat`,
    );
  }

  /** Says `text` in the chat and `line` in the log, once per text; returns the text. */
  private sayOnce(text: string, line: string): string {
    if (this.saidOnce.has(text)) return text;
    this.saidOnce.add(text);
    this.log(line);
    this.say(text);
    return text;
  }

  /** Writes in the host's chat, and tells the observer. */
  private say(text: string): void {
    this.relay.say(text);
    this.current?.observer?.said?.(text);
  }

  private async loop(): Promise<AgentResult> {
    const stateTimeoutMs = this.options.stateTimeoutMs ?? 2000;
    // An instruction returns when blocked: the one who gave it answers with another.
    const returnWhenBlocked = this.options.returnWhenBlocked || this.current !== null;
    let retried = false;
    while (!this.halted()) {
      await this.sync.ensureSynced();
      if (this.halted()) break;
      if (this.held) {
        await this.whileHeld();
        continue;
      }
      const cannotRead = (this.request.active || this.current) && this.cannotRead();
      if (cannotRead) {
        if (returnWhenBlocked) return { status: 'blocked', message: cannotRead, toolCalls: this.acting.toolCalls };
        await this.participantSpeaks();
        continue;
      }
      for (const text of this.pendingReplies.splice(0)) this.say(text);
      if (!this.request.active && !this.current) {
        // Nobody has asked for anything (yet, or since the last booking): the participant's own clicks
        // are theirs. Greet once, then wait for words.
        await this.greetOnce(stateTimeoutMs);
        await this.participantSpeaks();
        continue;
      }
      const changesBefore = this.view.changes;
      const plan = await this.plan();
      if (this.halted()) break;
      this.current?.observer?.planned?.(plan);
      // A slow planner may have planned on a state that has changed since (the participant, a new host): plan again.
      if (this.view.changes !== changesBefore || this.pendingReplies.length > 0 || this.sync.needsResync) continue;
      if ('source' in plan && plan.source === 'fallback' && 'fallbackReason' in plan) {
        this.log(`agent: the LLM planner fell back to the deterministic one: ${String(plan.fallbackReason)}`);
      }
      if (plan.nextAction.type === 'wait') {
        await this.participantSpeaks();
        continue;
      }
      if (plan.stop) {
        await this.acting.act(plan, stateTimeoutMs, this.current?.observer);
        if (plan.stop === 'done') {
          this.request.close();
          if (this.options.endSessionWhenDone) {
            await this.relay.request('session.end', { reason: 'booking-complete' });
            // The host resets: the next instruction starts a new study session.
            this.sync.needsResync = true;
          }
          return this.result('done', plan);
        }
        if (plan.stop === 'blocked' && returnWhenBlocked) return this.result('blocked', plan);
        // An instruction's run never waits for the participant: it ends with the question asked.
        if (plan.stop === 'waiting' && this.current) return this.result('blocked', plan);
        await this.participantSpeaks();
        continue;
      }
      const unsafe = unsafeBecause(plan.nextAction, this.view.context, this.view.participantChoices);
      this.unsafeRepeats = unsafe && unsafe === this.lastUnsafe ? this.unsafeRepeats + 1 : 0;
      this.lastUnsafe = unsafe ?? null;
      if (unsafe && this.unsafeRepeats + 1 >= UNSAFE_REPEATS) {
        // The state read again gives the same plan the page does not allow (a tool it does not
        // offer under any name the agent knows): say so, once, rather than look again for ever.
        const offered = this.view.context.toolSchema.map((t) => t.name).join(', ') || 'none';
        const text = this.sayOnce(
          `I cannot act on this page: ${unsafe}. The tools it offers are ${offered}. Please go on on the page yourself, or tell me what to do.`,
          `agent: cannot act on the host's page (${unsafe}; it offers ${offered}); said so in the chat`,
        );
        this.unsafeRepeats = 0;
        this.lastUnsafe = null;
        if (returnWhenBlocked) return { status: 'blocked', message: text, toolCalls: this.acting.toolCalls };
        await this.participantSpeaks();
        continue;
      }
      if (unsafe) {
        this.log(`agent: not sending an unsafe action (${unsafe}); looking again`);
        this.memory.recordFailure(this.view.context.stage, 'DESYNC_DETECTED');
        this.sync.needsResync = true;
        continue;
      }
      // Whoever gave the instruction may pick among equal options, and may be asked before the submit.
      const picked = await offerAlternatives(plan, this.current?.pick, this.view.context, () => this.halted());
      const { stage: pickedOn, uiSpec } = this.view.context;
      if (picked && pickedOn) this.picked.set(picked, contextKeyOf(pickedOn, uiSpec?.state.booking));
      // Each step proposed for approval: the participant's approval of the submit is their confirmation too.
      const approving = this.options.proposeEachStep === true && plan.nextAction.type === 'tool.call' && !this.current;
      if (approving && plan.nextAction.type === 'tool.call') {
        const decision = await this.approval(plan.nextAction);
        if (this.halted()) break;
        if (!decision) continue;
      }
      const changesBeforeQuestion = this.view.changes;
      const declined = approving
        ? false
        : await submitDeclined(plan.nextAction, this.view.context, this.confirmation());
      // Cancelled while a question was open: nothing is sent, whatever the answer.
      if (this.halted()) break;
      // An answer in the chat is itself a change (the message, its echo): only other changes count.
      const answeredInChat =
        (this.options.confirmInChat || this.askInChat) && !this.current && this.view.changes !== changesBeforeQuestion;
      // A study's participant asked for a change instead: the agent goes on from the new wishes.
      if (declined && answeredInChat) continue;
      // The participant acted while a question was open: look again. (Acting while a step was
      // proposed withdrew it; an approved step goes ahead.)
      if (this.view.changes !== changesBefore && !answeredInChat && !approving) continue;
      if (declined) {
        const text = 'I have not submitted the booking: it was not confirmed. Tell me what to change.';
        this.say(text);
        return { status: 'declined', message: text, toolCalls: this.acting.toolCalls };
      }
      this.sayWhyGoingBack(plan);
      const outcome = await this.acting.act(plan, stateTimeoutMs, this.current?.observer);
      if (submitRefused(plan.nextAction, outcome, this.view.context)) {
        this.log(`agent: the submit was refused (${outcome.detail}); asking the participant in the chat`);
        this.askInChat = true;
      }
      const overrun = this.request.overrun(
        this.acting.toolCalls,
        this.view.context.uiSpec,
        requiredSeats(this.listening.model).count,
      );
      if (overrun) {
        const text = `I am stopping here: ${overrun}. Tell me what matters most, or choose on the page yourself.`;
        this.log(
          `agent: ${overrun}; the request ends after ${this.request.callsSince(this.acting.toolCalls)} tool calls`,
        );
        this.say(text);
        this.request.close();
        this.showStatus('idle');
        if (returnWhenBlocked) return { status: 'blocked', message: text, toolCalls: this.acting.toolCalls };
        continue;
      }
      if (outcome.ok) {
        retried = false;
        continue;
      }
      const failures = this.memory.recordFailure(this.view.context.stage, outcome.code ?? 'FAILED');
      const recovery = recoveryFor(outcome.code ?? 'FAILED', failures, retried);
      this.log(`agent: ${outcome.code} on the ${this.view.context.stage} stage (${outcome.detail}); ${recovery}`);
      if (recovery === 'stop') {
        const text = `I am stopping here: ${failures} attempts on the ${this.view.context.stage} stage failed (last: ${outcome.detail}). Please take over or tell me how to continue.`;
        this.say(text);
        if (returnWhenBlocked) {
          this.memory.clearFailures(this.view.context.stage);
          return { status: 'blocked', message: text, toolCalls: this.acting.toolCalls };
        }
        await this.participantSpeaks();
        this.memory.clearFailures(this.view.context.stage);
        continue;
      }
      retried = recovery === 'adjust-and-retry';
      if (recovery === 'resync') this.sync.needsResync = true;
    }
    return this.stoppedResult();
  }

  /**
   * Proposes the planned step and waits for the participant: true when approved. A rejection is a
   * correction: words with it are read as wishes; a rejected choice among options is set aside, so
   * the next plan takes the next best; a step rejected on this page is not proposed again, the
   * agent asks what to do instead.
   */
  private async approval(action: Extract<NavigationPlan['nextAction'], { type: 'tool.call' }>): Promise<boolean> {
    const context = this.view.context;
    const page = fingerprintOf(context.uiSpec);
    if (this.steps.rejectedHere(action, page)) {
      this.say('You rejected that step. Tell me what to do instead, or go on on the page yourself.');
      await this.participantSpeaks();
      // They answered: whatever they said (a new wish, or "go on"), the step may be proposed again.
      this.steps.forgetRejected();
      return false;
    }
    const decision = await this.steps.propose(action, context, page);
    if (decision.kind === 'approve') return !this.held;
    if (decision.kind === 'withdrawn') return false;
    this.log(`agent: the participant rejected ${action.toolName}${decision.comment ? ` ("${decision.comment}")` : ''}`);
    if (decision.comment && this.hear(decision.comment)) return false;
    const stage = context.uiSpec?.stage;
    const itemId = action.params.itemId;
    if (action.toolName === 'select' && stage && stage !== 'seat' && typeof itemId === 'string') {
      this.memory.markTried(stage, contextKeyOf(stage, context.uiSpec?.state.booking), itemId);
    }
    return false;
  }

  /** Waits while the participant has the agent paused (or until it stops). */
  private async whileHeld(): Promise<void> {
    this.showStatus('idle');
    while (this.held && !this.halted()) {
      await new Promise<void>((resolve) => {
        this.onRelease = resolve;
      });
      this.onRelease = null;
    }
    // The page may have moved meanwhile: the state is read again before the next plan.
    this.sync.needsResync = true;
  }

  /** Who is asked before the irreversible submit: whoever gave the instruction, else the participant in the chat. */
  private confirmation(): Instruction['confirmSubmit'] {
    const inChat = (summary: string) => this.question.ask(summary);
    if (this.askInChat) return inChat;
    return this.current?.confirmSubmit ?? (this.options.confirmInChat ? inChat : undefined);
  }

  private plan(): NavigationPlan | Promise<NavigationPlan> {
    const planner = this.mistakes?.plan ?? this.options.planner ?? planNext;
    return planner(
      {
        context: this.view.context,
        model: this.listening.model,
        memory: this.memory,
        exploration: this.exploration,
        mode: this.options.mode,
        participantChoices: this.view.participantChoices,
        placesToMatch: this.listening.placesToMatch,
        placesUnmatched: this.listening.placesUnmatched,
        placeMayBeFilm: this.listening.placeMayBeFilm,
        tieBreaks: this.listening.tieBreaks,
        callsLeft: this.request.active
          ? callBudget(requiredSeats(this.listening.model).count) - this.request.callsSince(this.acting.toolCalls)
          : undefined,
        picked: this.picked,
        goal: this.options.goal ?? this.options.story?.text ?? 'book what the participant asks for',
      },
      { signal: this.current?.signal ? AbortSignal.any([this.abort.signal, this.current.signal]) : this.abort.signal },
    );
  }

  /**
   * Follows the relay: the connection and the hosts coming and going ({@link RoomSync}), the host's
   * frames ({@link HostView}), and the participant's words.
   */
  private onRelayEvent(event: RelayEvent): void {
    this.sync.onRelayEvent(event);
    if (event.kind !== 'message') return;
    const message = event.message;
    this.view.receive(message);
    if (message.type === 'participant.proposal') {
      if (!this.steps.decided(message))
        this.log(`agent: a decision on proposal ${message.payload.proposalId}, which is not open; ignored`);
      return;
    }
    // The participant acted on the page while a step was proposed: the plan is made again from there.
    if (message.type === 'state.updated' && message.payload.source === 'user' && message.payload.action) {
      this.steps.withdraw();
    }
    if (message.type === 'user.message') this.mistakes?.participantSaid(message.payload.text);
    // The participant's words decide the step proposed, answer the question open in the chat, or else refine the wishes.
    if (message.type === 'user.message' && !this.steps.heard(message.payload.text)) {
      if (!this.question.reply(message.payload.text)) this.hear(message.payload.text);
    }
  }

  /** Reads a participant's words into the wishes and says what was understood; false when nothing in them was understood. */
  private hear(text: string): boolean {
    return this.take(this.listening.read(text, this.view.context));
  }

  /** Reads a goal or an instruction, with the LLM reader when one is configured. */
  private async hearFirst(text: string): Promise<boolean> {
    return this.take(await this.listening.readFirst(text, this.view.context, this.abort.signal));
  }

  private take(heard: Heard): boolean {
    this.episodes.note({ text: `participant: ${heard.text}`, data: { changed: heard.understanding.changed } });
    if (!this.listening.adopt(heard)) return false;
    // Words it understood are a request (a new one, or a change to the one open): its bounds start again.
    this.request.open(this.acting.toolCalls);
    // Words only the theater stage can match leave the wishes as they were: say those, and what happens next.
    this.wishesChanged(
      heard.understanding.unparsed
        ? `${this.listening.summary()} I will look for the cinema you mean among the theaters.`
        : heard.understanding.summary,
    );
    this.revisitChoices(heard.understanding.changed, this.listening.theaterWordsJustSaid);
    this.view.wake();
    return true;
  }

  /**
   * A wish said after the stage it decides was passed ("changed my mind, whatever's rated highest",
   * said on the confirm stage): the page goes back to that stage so the choice is made again with
   * it. Only the agent's own choice is made again; the participant's stands.
   */
  private revisitChoices(changed: readonly string[], theaterWords = false): void {
    const spec = this.view.context.uiSpec;
    if (!spec) return;
    const revisit = stageToRevisit(this.listening.model, changed, theaterWords);
    if (!revisit || STAGES.indexOf(spec.stage) <= STAGES.indexOf(revisit)) return;
    const chosen = this.view.context.chosen[revisit as 'movie'];
    if (chosen && this.view.participantChoices.has(chosen.id)) return;
    this.exploration.backtrackTo = revisit;
    this.exploration.why = `A wish you added decides the ${revisit === 'date' ? 'showing' : revisit}: choosing it again with it`;
  }

  /**
   * Joining a room where the booking is under way (an experimenter handed the room back, the agent
   * was started again, the page came back): the participant's messages in the chat since the last
   * booking are read as if just written, so the request they made goes on, and the participant is
   * told so. Without such messages the agent waits for one; it greets only if no agent spoke yet.
   */
  private readEarlierMessages(): void {
    const tail = this.view.context.messageHistoryTail;
    const lastBooking = tail.findLastIndex((m) => m.role === 'system' && /^Booking confirmed/.test(m.text));
    const since = tail.slice(lastBooking + 1);
    if (since.some((m) => m.role === 'agent')) this.greeted = true;
    const theirs = since.filter((m) => m.role === 'participant');
    if (theirs.length === 0) return this.backWithoutRequest();
    let summary: string | null = null;
    for (const message of theirs) {
      const heard = this.listening.read(message.text, this.view.context);
      if (this.listening.adopt(heard)) summary = heard.understanding.summary;
    }
    this.log(`agent: continuing in the room; ${theirs.length} earlier message(s) of the participant read`);
    if (summary === null) return this.backWithoutRequest();
    this.request.open(this.acting.toolCalls);
    this.exploration = freshExploration(true);
    this.pendingReplies.push(`I am back, and I will carry on with what you asked. ${summary}`);
  }

  /** Handed the booking back with no request to go on with: the agent says it is back and asks. */
  private backWithoutRequest(): void {
    if (!this.options.handedBack) return;
    this.greeted = true;
    this.pendingReplies.push(
      'Thanks, I have the booking again, as it is on the page now. What would you like me to do next?',
    );
  }

  /** The first time the page goes back for a request, one short line in the chat says why. */
  private sayWhyGoingBack(plan: NavigationPlan): void {
    const action = plan.nextAction;
    if (action.type !== 'tool.call' || action.toolName !== 'prev' || this.request.toldGoingBack) return;
    this.request.toldGoingBack = true;
    const goal = this.exploration.films?.goal ?? this.exploration.survey?.goal;
    const comparing =
      goal === undefined ? null : goal === 'window' ? 'showing at the time you prefer' : `${goal} showing`;
    this.say(goingBackLine(comparing, action.reason));
  }

  /** The greeting, said once when nothing has been asked yet, as a plan of its own (the episode log and the console show it). */
  private async greetOnce(stateTimeoutMs: number): Promise<void> {
    if (this.greeted) return;
    this.greeted = true;
    this.exploration.asked = true;
    const plan: NavigationPlan = {
      goal: this.options.goal ?? 'book what the participant asks for',
      currentStage: this.view.context.stage,
      remainingSteps: ['hear what the participant would like'],
      nextAction: { type: 'agent.message', text: GREETING, reason: 'nobody has asked for anything yet' },
      confidence: 0.5,
      stop: 'waiting',
    };
    await this.acting.act(plan, stateTimeoutMs, this.current?.observer);
  }

  /** New wishes: the search starts again, options that failed the old ones may fit, and the participant hears what was understood. */
  private wishesChanged(summary: string): void {
    this.greeted = true;
    this.steps.forgetRejected();
    // A pick among options that were equal under the old wishes may not be equal under the new ones.
    this.picked.clear();
    this.exploration = freshExploration(true);
    this.memory.forgetTried();
    this.pendingReplies.push(summary);
  }

  /** The status the page was last told ({@link showStatus}). */
  private shownStatus: 'working' | 'idle' = 'idle';

  /** Tells the page whether the agent is acting, once per change (`agent.status`). */
  private showStatus(state: 'working' | 'idle'): void {
    if (this.shownStatus === state || this.sync.phase === 'DISCONNECTED') return;
    this.shownStatus = state;
    this.relay.status(state);
  }

  /** Waits for the participant to write or act (after a question, or when blocked), or for the host to change. */
  private async participantSpeaks(): Promise<void> {
    this.showStatus('idle');
    this.waiting = true;
    this.activityChanged();
    try {
      // Replies waiting to be said end the wait too, and so does a pause: the loop says them, or holds.
      await this.view.untilParticipant(() => this.pendingReplies.length > 0 || this.held);
    } finally {
      this.waiting = false;
      this.activityChanged();
    }
  }

  private result(status: AgentResult['status'], plan: NavigationPlan): AgentResult {
    this.showStatus('idle');
    const message = plan.nextAction.type === 'agent.message' ? plan.nextAction.text : plan.nextAction.reason;
    return { status, message, toolCalls: this.acting.toolCalls };
  }
}

/** Wishes about the showing: a change to one can make another showing the best. */
const SHOWING_KINDS = ['format', 'startTime', 'endTime', 'date', 'theater', 'distance', 'genre', 'rating', 'ageRating'];

/**
 * The stage a wish just said decides, when the page may have passed it ({@link Agent} goes back
 * there), or null. `theaterWords`: the message named a place or an amenity only the theater stage
 * can match.
 */
function stageToRevisit(model: PreferenceModel, changed: readonly string[], theaterWords: boolean): Stage | null {
  const filmNamed = model.hard.some((c) => c.kind === 'title' && (c.is?.length ?? 0) > 0);
  const theaterNamed = model.hard.some((c) => c.kind === 'theater' && (c.is?.length ?? 0) > 0);
  const said = (kind: string) => changed.includes(kind) && model.soft.some((c) => c.kind === kind);
  // The showtime decides "earliest", "latest" and "cheapest" across theaters (and films, when none
  // is named). A wish about the showing changed while one of those stands ("actually forget IMAX …
  // still the earliest"): the best showing may be another now, so it is searched again.
  const goalStands = model.soft.some((c) => c.kind === 'earliest' || c.kind === 'latest' || c.kind === 'cheapest');
  const showingChanged = changed.some((kind) => SHOWING_KINDS.includes(kind));
  const showtimeWish = said('earliest') || said('latest') || said('cheapest') || (goalStands && showingChanged);
  // "At the closest place to us" said after the agent chose a film: the closest theater may show another film.
  if ((said('highestRated') || showtimeWish || (said('closest') && !theaterNamed)) && !filmNamed) return 'movie';
  // The theater decides "closest", and where a place or an amenity said since is.
  if ((showtimeWish || said('closest') || theaterWords) && !theaterNamed) return 'theater';
  return showtimeWish ? 'date' : null;
}
