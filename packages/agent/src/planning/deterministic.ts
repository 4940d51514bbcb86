import type { Stage, UiSpec } from '@usher/protocol';
import { STAGES } from '@usher/protocol';
import { choiceOn, contextKeyOf } from '../memory/fingerprint.ts';
import type { WorkingMemory } from '../memory/working.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import { assistAction } from './assist.ts';
import { type AssistProbe, assistProbe } from './assist-probe.ts';
import { type FilmSurvey, filmSurveyStep } from './film-survey.ts';
import type { NavigationPlan, PlannedAction } from './plan.ts';
import { orList } from './solver/fields.ts';
import { decideStage, type PreferenceModel, type RankedOption, type StageDecision } from './solver/index.ts';
import type { Survey } from './survey.ts';
import { type SurveyMoves, surveyOnBooking, surveyStep } from './survey-step.ts';
import { listKeyOf, quantityCall, selectParams } from './tool-shapes.ts';

/** How far the agent explores dead ends before it stops and asks the participant to relax a wish. */
export const MAX_BACKTRACKS = 30;

/** What the agent says when nothing has been asked of it yet. */
export const GREETING =
  'Hi! What would you like to see? Tell me a movie or a genre, a day and time, how many tickets, and anything else that matters (IMAX, seats together, a price limit…).';

/** Where the planner is in its search: a stage it is going back to, and how often it went back. */
export interface Exploration {
  backtrackTo: Stage | null;
  why: string;
  backtracks: number;
  /** The agent asked what the participant wants (it asks once, then goes by its defaults). */
  asked: boolean;
  /** The reason of the first dead end: what the participant is told if the search runs out. */
  firstDeadEnd: string | null;
  /** On reaching the seat stage again, free the seats the agent chose before choosing anew. */
  reseat: boolean;
  /** Stages (with the choices before them) already explained to the participant in assist mode. */
  presented: Set<string>;
  /** The search across theaters for a wish the showtime decides (survey.ts); null when none runs. */
  survey: Survey | null;
  /** The search across films for such a wish when no film is named (film-survey.ts); null when none runs. */
  films: FilmSurvey | null;
  /** Assist mode's look at which films play where and when it was asked (assist-probe.ts); null when none ran. */
  probe: AssistProbe | null;
  /** Films the participant was asked about (rated for adults, with a child coming): asked once each. */
  warned: Set<string>;
}

export const freshExploration = (asked = false): Exploration => ({
  backtrackTo: null,
  why: '',
  backtracks: 0,
  asked,
  firstDeadEnd: null,
  reseat: false,
  presented: new Set(),
  survey: null,
  films: null,
  probe: null,
  warned: new Set(),
});

export interface PlannerInput {
  context: PerceivedContext;
  model: PreferenceModel;
  memory: WorkingMemory;
  exploration: Exploration;
  mode: 'autopilot' | 'assist';
  /** What the participant chose themselves in the UI: kept, never undone. */
  participantChoices: ReadonlySet<string>;
  /**
   * Places the participant named that no stage has shown yet (a theater named before the theater
   * stage: "whats on at the riverside"); they become a theater wish once one does.
   */
  placesToMatch?: readonly string[];
  /**
   * Places said the way a cinema is named ("at kingsway") that no theater stage has named: the
   * theaters seen are ruled out for not being them, and a decline asks about the place.
   */
  placesUnmatched?: readonly string[];
  /** The first of those only opened a clause before the day, as a film's name may ("barbie saturday"). */
  placeMayBeFilm?: boolean;
  /**
   * Tool calls this request may still make before its bound (runtime/request.ts); undefined when
   * no request bounds the work. A search starts nothing new it could not finish within them.
   */
  callsLeft?: number;
  /** Preferences said only to break a tie ("if a few cinemas tie, the nearest one"): never the first thing searched for. */
  tieBreaks?: readonly string[];
  /**
   * Options picked among equals by whoever gave the instruction, each with the choices before it
   * when picked (`contextKeyOf`): kept while they work out under those choices, changed on a dead end.
   */
  picked?: ReadonlyMap<string, string>;
  goal: string;
}

/** The stage whose choice to change when a stage is a dead end (the first stage that can fix it). */
export const BLAME: Partial<Record<Stage, Stage>> = {
  theater: 'movie',
  date: 'theater',
  time: 'date',
  seat: 'time',
  ticket: 'time',
  confirm: 'time',
};

const REMAINING: Record<Stage, string> = {
  movie: 'choose a movie',
  theater: 'choose a theater',
  date: 'choose a date',
  time: 'choose a showtime',
  seat: 'choose seats',
  ticket: 'choose tickets',
  confirm: 'confirm the booking',
};

function plan(
  input: PlannerInput,
  nextAction: PlannedAction,
  confidence: number,
  stop?: NavigationPlan['stop'],
): NavigationPlan {
  const stage = input.context.stage;
  const from = stage ? STAGES.indexOf(stage) : STAGES.length;
  return {
    goal: input.goal,
    currentStage: stage,
    remainingSteps: STAGES.slice(from).map((s) => REMAINING[s]),
    nextAction,
    confidence,
    ...(stop && { stop }),
  };
}

const call = (toolName: string, params: Record<string, unknown>, reason: string): PlannedAction => ({
  type: 'tool.call',
  toolName,
  params,
  reason,
});

/**
 * The deterministic planner (spec §6, phase 1): at each stage the best option the solver finds
 * under the participant's hard constraints, one reversible step at a time; on a dead end it goes
 * back to the stage that can fix it and tries the next option, within {@link MAX_BACKTRACKS}.
 */
export function planNext(input: PlannerInput): NavigationPlan {
  const { context, exploration } = input;
  const spec = context.uiSpec;
  if (!spec) {
    const confirmed = context.messageHistoryTail.findLast(
      (m) => m.role === 'system' && m.text.startsWith('Booking confirmed'),
    );
    if (confirmed)
      return plan(
        input,
        {
          type: 'agent.message',
          // The host's confirmation holds the reference, the film, the time, the seats and the total.
          text: `${confirmed.text.replace(/^Booking confirmed/, 'Your booking is confirmed')} Enjoy the film!`,
          reason: 'the booking was submitted',
        },
        1,
        'done',
      );
    if (context.submitted) {
      // Another host confirms in its own words: its last message, if it said one since.
      const last = context.messageHistoryTail.findLast((m) => m.role === 'system');
      const text = last ? `${last.text} Enjoy the film!` : 'Your booking is submitted. Enjoy the film!';
      return plan(input, { type: 'agent.message', text, reason: 'the booking was submitted' }, 1, 'done');
    }
    return plan(input, { type: 'snapshot.get', reason: 'no uiSpec is loaded; look again' }, 0.5);
  }
  if (context.submitted) {
    // A host that stays on its confirm page, marked complete: the booking is made; its reference, if it shows one.
    const meta = spec.meta ?? {};
    const ref = [meta.bookingId, meta.bookingReference, meta.reference].find((r) => typeof r === 'string' && r !== '');
    const text = `Your booking is confirmed${ref ? ` (reference ${String(ref)})` : ''}. Enjoy the film!`;
    return plan(input, { type: 'agent.message', text, reason: 'the booking was submitted' }, 1, 'done');
  }
  const stage = spec.stage;
  if (exploration.backtrackTo && STAGES.indexOf(stage) > STAGES.indexOf(exploration.backtrackTo)) {
    return plan(input, call('prev', {}, exploration.why), 0.8);
  }
  if (exploration.backtrackTo === stage) exploration.backtrackTo = null;
  const noWishes = input.model.hard.length === 0 && input.model.soft.length === 0;
  if (noWishes && !exploration.asked && stage === 'movie' && spec.state.selected === undefined) {
    // Nothing to go by yet: ask before acting (spec §6, high ambiguity).
    exploration.asked = true;
    return plan(
      input,
      { type: 'agent.message', text: GREETING, reason: 'the participant has not said what they want yet' },
      0.5,
      'waiting',
    );
  }
  const question = input.model.questions?.[0];
  if (question) {
    // A doubt that could change the booking: ask one short question, and book nothing until it is settled.
    return plan(
      input,
      {
        type: 'agent.message',
        text: `Before I go on: ${question}`,
        reason: 'a wish that could change the booking is unclear',
      },
      0.5,
      'waiting',
    );
  }
  return planStage(input, spec, decideStage(spec, input.model, input.context.chosen));
}

function planStage(input: PlannerInput, spec: UiSpec, decision: StageDecision): NavigationPlan {
  if (input.mode === 'assist') {
    const moves = surveyMoves(input, spec);
    const say = (text: string, reason: string) => plan(input, { type: 'agent.message', text, reason }, 0.8);
    const clear = (reason: string) =>
      input.context.toolSchema.some((t) => t.name === 'clearSelection')
        ? plan(input, call('clearSelection', {}, reason), 0.85)
        : undefined;
    const probing = assistProbe(input, spec, decision, { ...moves, say, clear }, (asAutopilot) =>
      planStage(asAutopilot, spec, decision),
    );
    if (probing) return probing;
    const action = assistAction(input, spec, decision);
    return plan(input, action, 0.8, action.type === 'wait' ? 'waiting' : undefined);
  }
  const stage = spec.stage;
  const booking = spec.state.booking;
  const searching = surveyOnBooking(input, spec, decision, surveyMoves(input, spec));
  if (searching) return searching;
  switch (decision.kind) {
    case 'options': {
      const dead = input.memory.tried(stage, contextKeyOf(stage, booking));
      const viable = decision.options.filter((o) => !dead.has(o.itemId));
      const selected = spec.state.selected;
      // The participant's own choice stands, even when it is not the one the agent would make.
      if (selected && input.participantChoices.has(selected) && !dead.has(selected)) {
        return plan(input, call('next', {}, `You chose ${labelOf(spec, selected)}; moving on`), 0.9);
      }
      const pickedHere = selected !== undefined && input.picked?.get(selected) === contextKeyOf(stage, booking);
      if (selected && pickedHere && viable.some((o) => o.itemId === selected)) {
        return plan(input, call('next', {}, `You picked ${labelOf(spec, selected)}; moving on`), 0.9);
      }
      const surveyed =
        filmSurveyStep(input, spec, viable, dead, surveyMoves(input, spec)) ??
        surveyStep(input, spec, viable, dead, surveyMoves(input, spec));
      if (surveyed) return surveyed;
      const best = viable[0];
      if (!best) return deadEnd(input, spec, `none of the ${stage} options I tried works out.`);
      const warning = adultFilmWithChild(input, spec, best);
      if (warning) return warning;
      if (selected !== best.itemId) {
        const chosen = plan(input, call('select', selectParams(selectTool(input), [best.itemId]), best.reason), 0.85);
        const ties = viable.filter((o) => o.score === best.score);
        if (ties.length < 2) return chosen;
        return { ...chosen, alternatives: ties.map(({ itemId, label, why }) => ({ itemId, label, why })) };
      }
      return plan(input, call('next', {}, `${best.label} is chosen; on to the next step`), 0.9);
    }
    case 'seats': {
      const chosen = spec.state.selectedList ?? [];
      const tool = selectTool(input);
      // A seat map whose select takes a list toggles several seats in one call.
      const many = listKeyOf(tool) !== undefined;
      if (input.exploration.reseat) {
        const mine = chosen.filter((id) => !input.participantChoices.has(id));
        const free = many ? mine : mine.slice(0, 1);
        if (free.length > 0)
          return plan(
            input,
            call(
              'select',
              selectParams(tool, free),
              `Freeing seat${free.length > 1 ? 's' : ''} ${free.join(', ')} to choose seats that fit`,
            ),
            0.8,
          );
        input.exploration.reseat = false;
      }
      const target = decision.options[0];
      if (!target) return deadEnd(input, spec, 'no seats fit');
      if (!input.exploration.reseat && betterAfresh(input, spec, chosen, target.score)) {
        input.exploration.reseat = true;
        return planStage(input, spec, decision);
      }
      // A host with a tool that sets the whole selection from a list (the prototype's `selectMultiple`): one call.
      const setAll = many ? undefined : selectionSetter(input);
      const setKey = setAll && listKeyOf(setAll);
      if (setAll && setKey && target.toSelect.length > 1)
        return plan(
          input,
          call(setAll.name, { [setKey]: [...target.seatIds] }, `Seats ${target.seatIds.join(', ')}: ${target.reason}`),
          0.85,
        );
      const missing = many ? target.toSelect : target.toSelect.slice(0, 1);
      if (missing.length > 0)
        return plan(
          input,
          call(
            'select',
            selectParams(tool, missing),
            `Seat${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: ${target.reason}`,
          ),
          0.85,
        );
      // Not "on to tickets": a host's flow may go from the seats straight to the summary.
      return plan(input, call('next', {}, `Seats ${chosen.join(', ')} are chosen; on to the next step`), 0.9);
    }
    case 'tickets': {
      const current = spec.state.quantities ?? {};
      // Lower counts first: the host refuses a total above the seat count at any moment.
      const types = Object.keys({ ...current, ...decision.quantities });
      const changes = types
        .map((typeId) => ({ typeId, quantity: decision.quantities[typeId] ?? 0, now: current[typeId] ?? 0 }))
        .filter((c) => c.quantity !== c.now)
        .sort((a, b) => a.quantity - a.now - (b.quantity - b.now));
      const change = changes[0];
      if (change) {
        // Usher's setQuantity, or the host's own tool of that shape; else setQuantity, which the safety check names as not offered.
        const set = quantityCall(input.context.toolSchema, change.typeId, change.quantity) ?? {
          toolName: 'setQuantity',
          params: { typeId: change.typeId, quantity: change.quantity },
        };
        return plan(input, call(set.toolName, set.params, decision.reason), 0.9);
      }
      return plan(
        input,
        call(
          'next',
          {},
          `Tickets match the ${spec.state.selectedList?.length ?? ''} seats; on to the summary`.replace('  ', ' '),
        ),
        0.9,
      );
    }
    case 'confirm':
      return plan(input, call('next', {}, decision.reason), 0.95);
    case 'dead-end':
      return deadEnd(input, spec, decision.summary, decision.backTo);
  }
}

/** Age ratings a child should not see without the participant saying so. */
const ADULT_RATINGS = new Set(['R', 'NC-17']);

/**
 * A film rated for adults, named by the participant while a child is coming ("Midnight Static for
 * me and my 9 year old"): the agent asks once before choosing it, since the two wishes disagree.
 */
function adultFilmWithChild(input: PlannerInput, spec: UiSpec, best: RankedOption): NavigationPlan | undefined {
  if (spec.stage !== 'movie' || input.exploration.warned.has(best.itemId)) return undefined;
  const mix = input.model.hard.find((c) => c.kind === 'ticketMix');
  if (mix?.kind !== 'ticketMix' || !(mix.child && mix.child > 0)) return undefined;
  const rating = spec.items.find((i) => i.id === best.itemId)?.ageRating;
  if (typeof rating !== 'string' || !ADULT_RATINGS.has(rating)) return undefined;
  input.exploration.warned.add(best.itemId);
  const text = `${best.label} is rated ${rating}, and a child is coming with you. Shall I book it anyway? Say yes, or name another film.`;
  return plan(
    input,
    { type: 'agent.message', text, reason: 'the film is rated for adults and a child is coming' },
    0.5,
    'waiting',
  );
}

/** The search's moves (survey-step.ts) as tool calls. */
function surveyMoves(input: PlannerInput, spec: UiSpec): SurveyMoves {
  const tool = () => selectTool(input);
  return {
    selectOrNext: (itemId, reason) =>
      plan(
        input,
        spec.state.selected === itemId
          ? call('next', {}, reason)
          : call('select', selectParams(tool(), [itemId]), reason),
        0.85,
      ),
    selectSeat: (seatId, reason) => plan(input, call('select', selectParams(tool(), [seatId]), reason), 0.85),
    next: (reason) => plan(input, call('next', {}, reason), 0.85),
    back: (stage, reason) => {
      input.exploration.backtrackTo = stage;
      input.exploration.why = reason;
      return plan(input, call('prev', {}, reason), 0.8);
    },
  };
}

/** Goes back to the stage that can fix a dead end, or stops and says which wish cannot be met. */
function deadEnd(input: PlannerInput, spec: UiSpec, summary: string, backTo?: Stage): NavigationPlan {
  const { exploration, memory } = input;
  exploration.firstDeadEnd ??= summary;
  const target = backTo ?? BLAME[spec.stage];
  const booking = spec.state.booking;
  if (target === 'seat') return reseat(input, spec, summary);
  // Going back from the seats would drop the ones the participant chose: ask them instead.
  const theirSeats =
    spec.stage === 'seat' ? (spec.state.selectedList ?? []).filter((id) => input.participantChoices.has(id)) : [];
  if (theirSeats.length > 0) {
    const text = `${summary} You chose ${theirSeats.join(', ')} yourself, so I have kept ${theirSeats.length === 1 ? 'it' : 'them'}: would you like other seats, or another showtime?`;
    return plan(
      input,
      { type: 'agent.message', text, reason: 'going back would drop the participant’s seats' },
      0.4,
      'waiting',
    );
  }
  const choice = target && choiceOn(booking ?? {}, target);
  if (choice && input.participantChoices.has(choice)) {
    const text = `${summary} You chose that ${target} yourself, so I have kept it: would you like to pick another?`;
    return plan(
      input,
      { type: 'agent.message', text, reason: 'the dead end follows from a choice of the participant' },
      0.4,
      'waiting',
    );
  }
  if (!target || !choice || exploration.backtracks >= MAX_BACKTRACKS) {
    const others = exploration.backtracks === 1 ? 'another option' : `${exploration.backtracks} other options`;
    const tried = exploration.backtracks > 0 ? ` I tried ${others}.` : '';
    const place = unmatchedPlace(input);
    // A name opening the message before the day, with no film asked for, may be a film's ("barbie
    // saturday evening"): both are asked about.
    const filmNamed = input.model.hard.some((c) => c.kind === 'title' && (c.is?.length ?? 0) > 0);
    const text = !place
      ? `I could not find a booking that fits: ${exploration.firstDeadEnd}${tried} Could you relax one of your wishes, or tell me what matters most?`
      : filmNamed || !input.placeMayBeFilm
        ? `None of the theaters showing what you asked for is called “${place.said}”: they are ${orList(place.seen, 'and')}. Which of them did you mean, or would any do?`
        : `I could not find a film or a theater called “${place.said}”: the theaters showing what you asked for are ${orList(place.seen, 'and')}. Which film or theater did you mean, or would any do?`;
    return plan(input, { type: 'agent.message', text, reason: 'no option meets the hard constraints' }, 0.3, 'blocked');
  }
  memory.markTried(target, contextKeyOf(target, booking), choice);
  exploration.backtracks += 1;
  exploration.backtrackTo = target;
  exploration.why = `${summary} Going back to try another ${target}.`;
  return plan(input, call('prev', {}, exploration.why), 0.7);
}

/**
 * A place said as one ("at kingsway") that no theater stage named, with the theaters ruled out for
 * not being it: the decline asks about the place instead of listing dead ends.
 */
function unmatchedPlace(input: PlannerInput): { said: string; seen: string[] } | null {
  const said = input.placesUnmatched?.[0];
  const theater = input.model.hard.find((c) => c.kind === 'theater');
  if (!said || theater?.kind !== 'theater' || (theater.is?.length ?? 0) > 0 || !theater.not?.length) return null;
  return { said, seen: theater.not };
}

/**
 * Seats the agent chose before a wish changed ("forget the recliners, the cheapest seats"): they
 * still fit, but seats chosen afresh would score better, so they are freed and chosen again. Never
 * the participant's own seats.
 */
function betterAfresh(input: PlannerInput, spec: UiSpec, chosen: readonly string[], score: number): boolean {
  if (chosen.length === 0 || chosen.some((id) => input.participantChoices.has(id))) return false;
  const afresh = decideStage({ ...spec, state: { ...spec.state, selectedList: [] } }, input.model);
  const best = afresh.kind === 'seats' ? afresh.options[0] : undefined;
  return best !== undefined && best.score > score + 1e-9 && best.seatIds.some((id) => !chosen.includes(id));
}

/** The seats are what fails: free the ones the agent chose (never the participant's) and choose again. */
function reseat(input: PlannerInput, spec: UiSpec, summary: string): NavigationPlan {
  const { exploration } = input;
  const agentSeats = (spec.state.selectedList ?? []).filter((id) => !input.participantChoices.has(id));
  if (spec.stage === 'seat' && agentSeats.length === 0) {
    const text = `${summary} The seats you chose stay as they are: would you like to change them?`;
    return plan(input, { type: 'agent.message', text, reason: 'the participant chose these seats' }, 0.4, 'waiting');
  }
  if (exploration.backtracks >= MAX_BACKTRACKS) {
    const text = `I could not find seats that fit: ${exploration.firstDeadEnd} Could you relax one of your wishes?`;
    return plan(input, { type: 'agent.message', text, reason: 'no seats meet the hard constraints' }, 0.3, 'blocked');
  }
  exploration.backtracks += 1;
  exploration.reseat = true;
  if (spec.stage === 'seat') return planStage(input, spec, { stage: 'seat', kind: 'seats', options: [] });
  exploration.backtrackTo = 'seat';
  exploration.why = `${summary} Going back to choose other seats.`;
  return plan(input, call('prev', {}, exploration.why), 0.7);
}

/**
 * A tool other than `select` that takes only a list of ids and names a selection (`selectMultiple`,
 * `selectSeats`): it sets the whole selection in one call.
 */
function selectionSetter(input: PlannerInput) {
  return input.context.toolSchema.find((t) => {
    if (t.name === 'select' || !/select/i.test(t.name) || listKeyOf(t) === undefined) return false;
    const props = (t.params as { properties?: Record<string, unknown> }).properties ?? {};
    return Object.keys(props).length === 1;
  });
}

/** The host's `select` as its toolSchema describes it. */
function selectTool(input: PlannerInput) {
  return input.context.toolSchema.find((t) => t.name === 'select');
}

function labelOf(spec: UiSpec, itemId: string): string {
  return spec.visibleItems.find((i) => i.id === itemId)?.value ?? itemId;
}
