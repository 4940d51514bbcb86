import { ConstraintSchema, HardConstraintSchema } from '@usher/booking';
import { z } from 'zod';
import { changedKinds, describeModel, updatePreferences } from '../../preferences/index.ts';
import type { PreferenceContext, PreferenceModel, Understanding } from '../../preferences/types.ts';
import { chatCompletion, clip, LlmError } from './client.ts';
import type { LlmConfig } from './config.ts';

/*
 * The LLM reader: an OpenAI-compatible model reads a participant's message into the same
 * constraint model as the rules (`@usher/booking`'s schemas), answering in JSON that is validated
 * before use. Anything unusable (no answer, not JSON, a constraint the schema refuses, a date
 * before the study's day) falls back to the deterministic reader, which stays the default.
 */

/** What the model must answer: the whole model after the message, and at most three questions. */
export const ReadingSchema = z.strictObject({
  hard: z.array(HardConstraintSchema).max(40),
  soft: z.array(ConstraintSchema).max(40),
  questions: z.array(z.string().min(1).max(200)).max(3).optional(),
});

/** The longest message sent to the model; a longer one is cut (the rules read it whole). */
const MAX_MESSAGE = 2000;

export interface LlmUnderstanding extends Understanding {
  /** `llm` when the model's answer was used; `rules` when the deterministic reader was. */
  source: 'llm' | 'rules';
  /** Why the model's answer was not used. */
  fallbackReason?: string;
}

function prompt(context: PreferenceContext): string {
  return [
    'You read what a cinema-booking participant writes into booking constraints.',
    `Today is ${context.today} (dates are YYYY-MM-DD, never before today).`,
    `Films on screen: ${(context.knownTitles ?? []).join('; ') || 'not known yet'}.`,
    `Genres: ${(context.knownGenres ?? []).join('; ') || 'not known yet'}.`,
    'Answer with one JSON object only: {"hard": [...], "soft": [...], "questions": [...]}, the',
    'wishes after this message (start from the current ones; the latest word on a kind wins).',
    'Constraint kinds: date {dates}, startTime {after?, before? "HH:MM"}, endTime {after?, before?},',
    'genre {include?, exclude?}, title {is?, not?}, rating {min 0-10}, ageRating {allowed: G PG PG-13 R NC-17},',
    "runtime {maxMinutes?, minMinutes?} (the film's running time),",
    'distance {maxKm}, theater {is?, not?}, format {is?, not?: Standard IMAX 3D}, seatCount {count},',
    'adjacent {}, rows {allowed?, notFirst?, notLast?, last?}, rowMiddle {} (every seat in the middle half of its row, none at',
    'either end), seatKind {seatKind: standard premium wheelchair, count?},',
    'ticketMix {adult?, child?, senior?} (child under 12, senior 65+), price {maxTotal} (the whole booking;',
    'a limit per ticket is maxTotal = the limit times the seat count; without a count, ask how many);',
    'soft only: cheapest, closest, earliest, latest, centered, highestRated.',
    'Hedged wishes ("ideally", "if possible") are soft; plain ones hard. A start time is when the film',
    'begins; "out by", "home by" bound endTime. Ask a short question only about what could change the booking.',
  ].join('\n');
}

/** The JSON object in a reply, also when the model wrapped it in a code fence. */
function jsonOf(content: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  return JSON.parse((fenced?.[1] ?? content).trim());
}

/** Reads a message with the model, or with the rules when the model's answer cannot be used. */
export async function readWithLlm(
  config: LlmConfig,
  current: PreferenceModel,
  text: string,
  context: PreferenceContext,
  signal?: AbortSignal,
): Promise<LlmUnderstanding> {
  const fallback = (reason: string): LlmUnderstanding => ({
    ...updatePreferences(current, text, context),
    source: 'rules',
    fallbackReason: reason,
  });
  let content: string;
  try {
    const message = await chatCompletion(
      config,
      [
        { role: 'system', content: prompt(context) },
        {
          role: 'user',
          content: JSON.stringify({
            current: { hard: current.hard, soft: current.soft },
            message: clip(text, MAX_MESSAGE),
          }),
        },
      ],
      { signal },
    );
    content = message.content ?? '';
  } catch (error) {
    return fallback(error instanceof LlmError ? `${error.kind}: ${error.message}` : String(error));
  }
  let parsed: z.infer<typeof ReadingSchema>;
  try {
    const result = ReadingSchema.safeParse(jsonOf(content));
    if (!result.success)
      return fallback(`the answer does not fit the constraint model: ${result.error.issues[0]?.message}`);
    parsed = result.data;
  } catch {
    return fallback('the answer is not JSON');
  }
  const past = [...parsed.hard, ...parsed.soft].some(
    (c) => c.kind === 'date' && c.dates.some((d) => d < context.today),
  );
  if (past) return fallback('the answer names a day before the study day');
  const model: PreferenceModel = {
    hard: parsed.hard,
    soft: parsed.soft,
    ...(parsed.questions && parsed.questions.length > 0 ? { questions: parsed.questions } : {}),
  };
  return {
    model,
    changed: changedKinds(current, model),
    summary: describeModel(model, context.today),
    unparsed: false,
    fixes: [],
    unread: [],
    source: 'llm',
  };
}
