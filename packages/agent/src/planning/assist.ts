import type { Stage, UiSpec } from '@usher/protocol';
import { choiceOn, contextKeyOf } from '../memory/fingerprint.ts';
import { judgedLater, probedFilms } from './assist-probe.ts';
import { BLAME, type PlannerInput } from './deterministic.ts';
import type { PlannedAction } from './plan.ts';
import type { RankedOption, StageDecision } from './solver/index.ts';
import { mayShowFormat } from './survey.ts';
import { quantityCall, selectParams } from './tool-shapes.ts';

/** How many fitting options assist mode marks on a stage. */
const SHOWN = 3;

const call = (toolName: string, params: Record<string, unknown>, reason: string): PlannedAction => ({
  type: 'tool.call',
  toolName,
  params,
  reason,
});

/** The key of "this stage, after these choices": each is presented once. */
const presentationKey = (spec: UiSpec) => `${spec.stage}@${contextKeyOf(spec.stage, spec.state.booking)}`;

/**
 * The option the participant clearly chose in words: a title they named on the movie stage, a
 * day they named on the date stage, and only when exactly one visible option is it.
 */
function clearlyChosen(stage: Stage, options: RankedOption[], input: PlannerInput): RankedOption | undefined {
  const judged = stage === 'movie' ? 'title' : stage === 'date' ? 'date' : null;
  if (!judged || !input.model.hard.some((c) => c.kind === judged)) return undefined;
  return options.length === 1 ? options[0] : undefined;
}

/**
 * Assist mode: the agent shows what fits instead of booking.
 * On each stage it highlights the options that meet the participant's wishes, notes why on each,
 * says so in the chat, and then waits; it selects only what the participant clearly chose and
 * never submits. Returns the next action, `wait` when the participant is to act.
 */
export function assistAction(input: PlannerInput, spec: UiSpec, decision: StageDecision): PlannedAction {
  const presented = input.exploration.presented;
  const key = presentationKey(spec);
  const offers = new Set(input.context.toolSchema.map((t) => t.name));
  const waitForParticipant: PlannedAction = { type: 'wait', reason: 'the participant chooses in assist mode' };

  if (decision.kind === 'dead-end') {
    // What this stage shows proves the choice behind it cannot work (the film does not play at the
    // theater or in the format asked for): that option is not marked again when the participant goes back.
    const target = decision.backTo ?? BLAME[spec.stage];
    const booking = spec.state.booking ?? {};
    const choice = target && choiceOn(booking, target);
    if (target && choice) input.memory.markTried(target, contextKeyOf(target, booking), choice);
    if (presented.has(key)) return waitForParticipant;
    presented.add(key);
    return {
      type: 'agent.message',
      text: `${decision.summary} You could go back and choose differently.`,
      reason: 'nothing on this stage fits',
    };
  }
  if (decision.kind === 'confirm') {
    if (presented.has(key)) return waitForParticipant;
    presented.add(key);
    return {
      type: 'agent.message',
      text: 'Everything matches what you asked for: check the summary and confirm when you are happy.',
      reason: 'the participant submits in assist mode',
    };
  }
  if (decision.kind === 'tickets') {
    const wanted = input.model.hard.some((c) => c.kind === 'ticketMix');
    const change = Object.entries(decision.quantities).find(
      ([typeId, n]) => (spec.state.quantities?.[typeId] ?? 0) !== n,
    );
    const set = change && quantityCall(input.context.toolSchema, change[0], change[1]);
    if (wanted && set) return call(set.toolName, set.params, decision.reason);
    if (presented.has(key)) return waitForParticipant;
    presented.add(key);
    return {
      type: 'agent.message',
      text: wanted ? 'I set the tickets you asked for; press Next when you are ready.' : decision.reason,
      reason: 'explain the tickets',
    };
  }

  if (decision.kind === 'options') {
    const dead = input.memory.tried(spec.stage, contextKeyOf(spec.stage, spec.state.booking));
    // A theater that lists its amenities without the format asked for is not marked on the theater stage.
    const fits = (id: string) => spec.stage !== 'theater' || mayShowFormat(spec, id, input.model);
    // After looking ahead, only the films found to have a showing that fits are marked.
    const probed = spec.stage === 'movie' ? probedFilms(input) : undefined;
    decision = {
      ...decision,
      options: decision.options.filter(
        (o) => !dead.has(o.itemId) && fits(o.itemId) && (!probed || probed.has(o.itemId)),
      ),
    };
    if (probed && decision.options.length === 0 && !presented.has(key)) {
      presented.add(key);
      return {
        type: 'agent.message',
        text: 'None of the films I looked at has a showing that fits what you asked for. Would you like to change a wish, or choose a film to look at yourself?',
        reason: 'no film fits the wishes',
      };
    }
  }
  const marks =
    decision.kind === 'seats'
      ? decision.options.slice(0, 1).flatMap((o) => o.seatIds)
      : decision.options.slice(0, SHOWN).map((o) => o.itemId);
  const reasons =
    decision.kind === 'seats'
      ? decision.options.slice(0, 1).map((o) => ({ itemId: o.seatIds[0] as string, value: o.reason }))
      : decision.options.slice(0, SHOWN).map((o) => ({ itemId: o.itemId, value: o.reason }));
  if (marks.length === 0) return waitForParticipant;
  const highlighted = spec.modification.highlight?.itemIds ?? [];
  if (offers.has('highlight') && marks.join() !== highlighted.join()) {
    return call(
      'highlight',
      { itemIds: marks, style: 'recommended' },
      `These fit what you asked for on the ${spec.stage} stage`,
    );
  }
  const noted = new Set((spec.modification.augment ?? []).map((a) => a.itemId));
  const note = reasons.find((r) => !noted.has(r.itemId));
  if (offers.has('augment') && note)
    return call(
      'augment',
      { items: [{ itemId: note.itemId, value: shorten(note.value) }] },
      'Say why this option fits',
    );

  if (decision.kind === 'options') {
    const chosen = clearlyChosen(spec.stage, decision.options, input);
    if (chosen && spec.state.selected !== chosen.itemId && offers.has('select'))
      return call(
        'select',
        selectParams(
          input.context.toolSchema.find((t) => t.name === 'select'),
          [chosen.itemId],
        ),
        `You asked for ${chosen.label}`,
      );
    if (chosen && spec.state.selected === chosen.itemId && offers.has('next'))
      return call('next', {}, `${chosen.label} is what you asked for; on to the next step`);
  }
  if (presented.has(key)) return waitForParticipant;
  presented.add(key);
  const labels =
    decision.kind === 'seats'
      ? marks.join(', ')
      : decision.options
          .slice(0, SHOWN)
          .map((o) => o.label)
          .join('; ');
  const unseen = spec.stage === 'movie' && !probedFilms(input) ? judgedLater(input.model, input.placesToMatch) : [];
  const text =
    unseen.length > 0
      ? `I marked the films that fit what this list shows: ${labels}. It does not show ${unseen.join(' or ')}, so once you choose a film I will mark what fits there.`
      : `I marked what fits your wishes: ${labels}. Choose the one you like.`;
  return { type: 'agent.message', text, reason: 'explain the marked options' };
}

function shorten(text: string, max = 90): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
