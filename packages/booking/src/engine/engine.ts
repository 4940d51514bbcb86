import {
  type ChatEntry,
  describeZodError,
  ExpectSchema,
  type HostView,
  isToolName,
  ProtocolError,
  TOOL_PARAMS,
  type ToolName,
  type ToolParams,
} from '@usher/protocol';
import { Catalog } from '../scenario/catalog.ts';
import type { Scenario } from '../scenario/schema.ts';
import { shortDateLabel } from '../time.ts';
import { backendData } from './backend-data.ts';
import { type SubmittedBooking, submitBooking } from './booking.ts';
import { clearSelection, select, setQuantity } from './interaction.ts';
import {
  copyModification,
  withAugment,
  withFilter,
  withHighlight,
  withoutModification,
  withSort,
} from './modification.ts';
import { isStageComplete, missingForNext, nextStage, previousStage } from './stages.ts';
import { type EngineSnapshot, EngineSnapshotSchema, type EngineState, initialState, SnapshotError } from './state.ts';
import { availableTools, toolSchemaFor } from './tool-rules.ts';
import { buildUiSpec, type StageSnapshot } from './ui-spec.ts';

/** Who applied a tool: the agent over the relay, or the participant in the host's UI. */
export type Actor = 'agent' | 'participant';

/** What an applied tool did. */
export interface ApplyResult {
  toolName: ToolName;
  /** The stage moved (`next`, `prev`, or the submit). */
  changedStage: boolean;
  /** `next` on the confirm stage submitted the booking. */
  submitted: boolean;
}

export interface BookingEngineOptions {
  /** The clock for chat timestamps; defaults to the system clock. */
  now?: () => Date;
}

/**
 * The booking host's state machine (DESIGN.md, "Booking domain"): stages movie → … → confirm,
 * the ten tools and Usher's clearSelection, with their stage filtering and error codes, and the chat timeline. Pure and
 * deterministic: the same scenario and calls give the same views, timestamps aside.
 */
export class BookingEngine {
  private readonly catalog: Catalog;
  private readonly now: () => Date;
  private state: EngineState = initialState();

  constructor(scenario: Scenario, options: BookingEngineOptions = {}) {
    this.catalog = new Catalog(scenario);
    this.now = options.now ?? (() => new Date());
  }

  /** The serializable view that may leave the host: never contains backendData. */
  view(): HostView {
    const current = this.current();
    return {
      uiSpec: current?.spec ?? null,
      messageHistory: this.state.messages.map((entry) => ({ ...entry })),
      toolSchema: toolSchemaFor(this.tools(current)),
    };
  }

  /** Raw records behind the current stage (catalog records, internal ids, prices): developer panel only. */
  backendData(): Record<string, unknown> | null {
    return backendData(this.catalog, this.state);
  }

  /**
   * Applies a tool for `actor`. Throws a ProtocolError, changing nothing, when the tool is unknown
   * or not offered now (`UNKNOWN_TOOL`), no spec is active (`NO_ACTIVE_SPEC`), the params or item
   * ids are wrong (`INVALID_PARAMS`), the call was planned on a stage or revision the page has
   * left (its `expect`; `TOOL_EXECUTION_FAILED`), or the host cannot do it (`TOOL_EXECUTION_FAILED`).
   */
  apply(toolName: string, params: unknown, actor: Actor): ApplyResult {
    const current = this.current();
    const offered = this.tools(current);
    if (!isToolName(toolName)) {
      throw new ProtocolError('UNKNOWN_TOOL', `unknown tool "${toolName}"; available now: ${offered.join(', ')}`);
    }
    if (current === null && toolName !== 'postMessage') {
      throw new ProtocolError(
        'NO_ACTIVE_SPEC',
        `no booking stage is active (the booking was submitted); only postMessage works until the host resets`,
      );
    }
    // Before the offer: a `next` planned for the ticket stage must not act on the confirm stage.
    if (toolName !== 'postMessage') this.checkExpect(toolName, params);
    if (!offered.includes(toolName)) {
      throw new ProtocolError('UNKNOWN_TOOL', `${this.whyNotOffered(toolName)}; available now: ${offered.join(', ')}`);
    }
    const next = this.transition(toolName, params ?? {}, actor, current);
    const changedStage = next.stage !== this.state.stage;
    const submitted = next.submitted !== this.state.submitted;
    this.state = toolName === 'postMessage' ? next : { ...next, revision: this.state.revision + 1 };
    return { toolName, changedStage, submitted };
  }

  /** Appends to the chat timeline, stamped with the current stage. */
  addMessage(role: ChatEntry['role'], text: string): ChatEntry {
    this.state = this.withMessage(this.state, role, text);
    return { ...(this.state.messages.at(-1) as ChatEntry) };
  }

  /** Back to the start: movie stage, no choices or modifications, an empty chat. */
  reset(): void {
    this.state = initialState(this.state.bookingCounter);
  }

  /** The booking submitted by `next` on confirm, or null. */
  submitted(): SubmittedBooking | null {
    return this.state.submitted === null ? null : structuredClone(this.state.submitted);
  }

  /** The full state as JSON, to restore after a page reload. */
  toJSON(): EngineSnapshot {
    return structuredClone({ version: 1, scenarioId: this.catalog.scenario.id, ...this.state });
  }

  /** An engine in the state a snapshot recorded. Throws SnapshotError when it does not fit the scenario. */
  static restore(scenario: Scenario, snapshot: unknown, options: BookingEngineOptions = {}): BookingEngine {
    const parsed = EngineSnapshotSchema.safeParse(snapshot);
    if (!parsed.success) throw new SnapshotError(`invalid snapshot: ${describeZodError(parsed.error, 'snapshot')}`);
    const { version: _v, scenarioId, ...state } = parsed.data;
    if (scenarioId !== scenario.id) {
      throw new SnapshotError(`the snapshot is of scenario "${scenarioId}", not "${scenario.id}"`);
    }
    const engine = new BookingEngine(scenario, options);
    const sel = state.selections;
    const c = engine.catalog;
    const showing = c.showing(sel.showingId);
    const seatIds = new Set(showing ? c.seatsOf(showing).map((seat) => seat.id) : []);
    const dangling =
      (sel.movieId !== undefined && !c.movie(sel.movieId)) ||
      (sel.theaterId !== undefined && !c.theater(sel.theaterId)) ||
      (sel.showingId !== undefined && !showing) ||
      sel.seats.some((id) => !seatIds.has(id));
    if (dangling) throw new SnapshotError('the snapshot refers to records the scenario does not have');
    engine.state = state;
    return engine;
  }

  private current(): StageSnapshot | null {
    return buildUiSpec(this.catalog, this.state);
  }

  private tools(current: StageSnapshot | null): ToolName[] {
    const { stage } = this.state;
    if (current === null || stage === null) return availableTools(null);
    return availableTools({
      stage,
      complete: isStageComplete(stage, this.state.selections),
      anyVisibleEnabled: current.visible.some((item) => item.isDisabled !== true),
    });
  }

  /**
   * Refuses a call planned on another stage, or on an earlier state of the page, than the one
   * shown now (its params' `expect`, external-agent-protocol §4 as Usher extends it).
   */
  private checkExpect(tool: ToolName, params: unknown): void {
    const raw = (params as { expect?: unknown } | null)?.expect;
    if (raw === undefined) return;
    const parsed = ExpectSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ProtocolError('INVALID_PARAMS', `${tool}: ${describeZodError(parsed.error, 'params.expect')}`);
    }
    const { stage, revision } = parsed.data;
    const now = this.state.stage;
    if (stage !== now) {
      throw new ProtocolError(
        'TOOL_EXECUTION_FAILED',
        `${tool} was planned for the ${stage} stage, but the page is on the ${now} stage now; nothing was done. Read the new state and plan again`,
      );
    }
    if (revision !== undefined && revision !== this.state.revision) {
      throw new ProtocolError(
        'TOOL_EXECUTION_FAILED',
        `${tool} was planned on revision ${revision} of the ${stage} stage, but the page has changed since (revision ${this.state.revision}); nothing was done. Read the new state and plan again`,
      );
    }
  }

  private whyNotOffered(tool: ToolName): string {
    const { stage, selections } = this.state;
    if (tool === 'next' && stage !== null && !isStageComplete(stage, selections)) {
      return `"next" is not available yet on the ${stage} stage: ${missingForNext(stage, selections)}`;
    }
    if (
      tool === 'select' &&
      (stage === 'movie' || stage === 'theater' || stage === 'date' || stage === 'time' || stage === 'seat')
    ) {
      return `"select" is not available: no visible item on the ${stage} stage is enabled (clear or change the filter)`;
    }
    return `"${tool}" is not available on the ${stage} stage`;
  }

  /** The state after a (validated) tool call; throws, without side effects, when it cannot apply. */
  private transition(tool: ToolName, raw: unknown, actor: Actor, current: StageSnapshot | null): EngineState {
    const state = this.state;
    const args = <N extends ToolName>(name: N): ToolParams<N> => {
      const parsed = TOOL_PARAMS[name].safeParse(raw);
      if (parsed.success) return parsed.data as ToolParams<N>;
      throw new ProtocolError('INVALID_PARAMS', `${name}: ${describeZodError(parsed.error, 'params')}`);
    };
    if (tool === 'postMessage') return this.withMessage(state, actor, args('postMessage').text);
    if (current === null || state.stage === null)
      throw new ProtocolError('NO_ACTIVE_SPEC', 'no booking stage is active');
    const { stage, selections: sel, modification: mod } = state;
    const { items, visible } = current;
    switch (tool) {
      case 'filter':
        return { ...state, modification: withFilter(items, mod, args('filter')) };
      case 'sort':
        return { ...state, modification: withSort(items, mod, args('sort')) };
      case 'highlight':
        return { ...state, modification: withHighlight(visible, mod, args('highlight')) };
      case 'augment':
        return { ...state, modification: withAugment(visible, mod, args('augment')) };
      case 'clearModification':
        return { ...state, modification: withoutModification(copyModification(mod), args('clearModification')) };
      case 'select':
        return { ...state, selections: select(this.catalog, stage, sel, visible, args('select')) };
      case 'clearSelection':
        args('clearSelection');
        return { ...state, selections: clearSelection(stage, sel) };
      case 'setQuantity':
        return { ...state, selections: setQuantity(sel, visible, args('setQuantity')) };
      case 'prev':
        args('prev');
        return { ...state, stage: previousStage(stage) ?? stage, modification: {} };
      case 'next': {
        args('next');
        const following = nextStage(stage);
        if (following !== null) return { ...state, stage: following, modification: {} };
        return this.submit(state);
      }
    }
  }

  private submit(state: EngineState): EngineState {
    const booking = submitBooking(this.catalog, state.selections, state.bookingCounter + 1);
    const seats = booking.seats.map((seat) => seat.id).join(', ');
    const tickets = booking.tickets.reduce((sum, t) => sum + t.quantity, 0);
    const text =
      `Booking confirmed: ${booking.reference}. ${tickets} ticket${tickets === 1 ? '' : 's'} for ${booking.movieTitle} ` +
      `at ${booking.theaterName} on ${shortDateLabel(booking.date)} at ${booking.time} (${booking.format}), seats ${seats}. ` +
      `Total ${booking.currency} ${booking.total.toFixed(2)}.`;
    const confirmed = this.withMessage(state, 'system', text);
    return {
      ...confirmed,
      stage: null,
      modification: {},
      submitted: booking,
      bookingCounter: state.bookingCounter + 1,
    };
  }

  private withMessage(state: EngineState, role: ChatEntry['role'], text: string): EngineState {
    const counter = state.messageCounter + 1;
    const entry: ChatEntry = { id: `msg-${counter}`, role, text, timestamp: this.now().toISOString() };
    if (state.stage !== null) entry.stage = state.stage;
    return { ...state, messages: [...state.messages, entry], messageCounter: counter };
  }
}
