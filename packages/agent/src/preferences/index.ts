import type { ConstraintKind, Story } from '@usher/booking';
import { describeModel } from './describe.ts';
import { readMessage } from './extract.ts';
import {
  firmCorrection,
  nextOfHeld,
  otherTheater,
  refusalGivesWay,
  refusedDays,
  supersedeFilm,
  titleOrKind,
  turnsDownFilm,
  turnsDownTheater,
  withPageChoices,
} from './held.ts';
import { KIND_ORDER } from './kinds.ts';
import { merge } from './merge.ts';
import { answeredCount, blankNumbers, openQuestions, speakerAlone, unreadWords } from './questions.ts';
import type { PreferenceContext, PreferenceModel, Understanding } from './types.ts';

/*
 * The preferences stage (specs/external-agent-runtime.md §2.1, "extract user intent signals"):
 * a deterministic, rule-based reading of what the participant writes into the booking domain's
 * constraint model (DESIGN.md, "Booking domain"; packages/booking/SCENARIOS.md, "Story").
 * The rules and decisions are listed in this folder's README.md.
 */

export { describeModel } from './describe.ts';
export type { PreferenceContext, PreferenceModel, Understanding } from './types.ts';

/** A model with no wishes yet. */
export const EMPTY_MODEL: PreferenceModel = { hard: [], soft: [] };

/** The model a scenario's story describes (its hard and soft lists), as the starting point. */
export function fromStory(story: Story): PreferenceModel {
  return { hard: structuredClone(story.hard), soft: structuredClone(story.soft) };
}

/**
 * Reads one participant message and returns the updated model. Later messages refine or
 * override earlier ones; `unparsed` is true (and the model unchanged) when nothing was recognized.
 */
export function updatePreferences(current: PreferenceModel, text: string, context: PreferenceContext): Understanding {
  const reading = readMessage(text, { ...context, party: partyOf(current), partySize: partySizeOf(current) });
  const { fixes } = reading;
  // A bare "3" right after "how many?" is the count; its words are read, not stray.
  const answer = answeredCount(current, reading.ops, reading.rest);
  const ops = answer ? [...reading.ops, answer] : reading.ops;
  const rest = answer ? blankNumbers(reading.rest) : reading.rest;
  const unread = unreadWords(rest);
  // "Something else, we saw it last week": the film turned down is the whole of the message.
  // What the page holds stands for a film or theater the participant did not name: "seen that one".
  const shown = withPageChoices(current, context.onPage, reading.text);
  if (ops.length === 0 && !turnsDownFilm(shown, reading.text) && !turnsDownTheater(shown, reading.text)) {
    return {
      model: current,
      changed: [],
      summary: "Sorry, I couldn't find a booking preference in that. Could you say it another way?",
      unparsed: true,
      fixes,
      unread,
    };
  }
  // What the new wishes mean beside the old, in turn: a film or a theater turned down, a polite
  // change of mind kept firm, "next sunday" for the Sunday held, days refused.
  const said = reading.text;
  const readings: Array<(model: PreferenceModel) => PreferenceModel> = [
    (model) => supersedeFilm(current, model, ops, said, context.knownFilms, shown),
    (model) => refusalGivesWay(current, model, ops, context.knownFilms),
    (model) => titleOrKind(model, ops, said, context.knownFilms),
    (model) => firmCorrection(current, model, said),
    (model) => otherTheater(shown, model, ops, said),
    (model) => nextOfHeld(current, model, said),
    (model) => refusedDays(model, ops, context.today),
  ];
  const read = readings.reduce((model, step) => step(model), merge(current, ops));

  // Someone who speaks only of themselves books one ticket, without being asked how many.
  const alone = speakerAlone(current, read, reading.text);
  const merged = alone ? merge(read, [alone]) : read;
  const titleRead = ops.some((op) => op.type === 'set' && op.constraint.kind === 'title');
  const questions = openQuestions(merged, reading.text, rest, current, titleRead);
  const model = questions.length > 0 ? { ...merged, questions } : merged;
  return {
    model,
    changed: changedKinds(current, model),
    summary: describeModel(model, context.today),
    unparsed: false,
    fixes,
    unread,
  };
}

/** The ticket mix the model holds, hard or soft, if any. */
function partyOf(model: PreferenceModel): PreferenceContext['party'] {
  const mix = [...model.hard, ...model.soft].find((c) => c.kind === 'ticketMix');
  return mix?.kind === 'ticketMix' ? { adult: mix.adult, child: mix.child, senior: mix.senior } : undefined;
}

/** How many seats the model holds the party to be, if it knows. */
function partySizeOf(model: PreferenceModel): number | undefined {
  const seats = [...model.hard, ...model.soft].find((c) => c.kind === 'seatCount');
  return seats?.kind === 'seatCount' ? seats.count : undefined;
}

/** Kinds whose constraints differ between two models, in `KIND_ORDER`. */
export function changedKinds(before: PreferenceModel, after: PreferenceModel): ConstraintKind[] {
  const of = (m: PreferenceModel, kind: ConstraintKind) =>
    JSON.stringify([m.hard.filter((c) => c.kind === kind), m.soft.filter((c) => c.kind === kind)]);
  return KIND_ORDER.filter((kind) => of(before, kind) !== of(after, kind));
}
