import type { QuestionnaireItemView, QuestionnaireView } from '@usher/protocol';
import type { Seeded } from './seeded.ts';

/** What a simulated participant writes in a free-text item (short, and within its length). */
const REMARKS = ['nothing', 'it was fine', 'the seat map took a moment', 'all clear', 'no problems'];

/**
 * A simulated participant's answers to the questionnaire their page shows, drawn from `rng`:
 * every required item answered within its bounds, an optional one half the time. The server
 * checks them as it checks anyone's.
 */
export function seededAnswers(
  questionnaire: QuestionnaireView,
  rng: Seeded,
): Record<string, number | string | string[]> {
  const answers: Record<string, number | string | string[]> = {};
  for (const section of questionnaire.sections) {
    for (const item of section.items) {
      if (!item.required && !rng.chance(0.5)) continue;
      answers[item.id] = answerTo(item, rng);
    }
  }
  return answers;
}

function answerTo(item: QuestionnaireItemView, rng: Seeded): number | string | string[] {
  switch (item.kind) {
    case 'likert':
      return item.from + rng.int(item.points);
    case 'slider':
      return rng.int(100 / item.step + 1) * item.step;
    case 'single':
      return rng.pick(item.options).value;
    case 'multiple': {
      const min = Math.max(1, item.min ?? 1);
      const max = Math.min(item.options.length, item.max ?? item.options.length);
      const count = min + rng.int(max - min + 1);
      const left = item.options.map((o) => o.value);
      const chosen: string[] = [];
      while (chosen.length < count && left.length > 0) chosen.push(...left.splice(rng.int(left.length), 1));
      return chosen;
    }
    case 'text':
    case 'longtext':
      return rng.pick(REMARKS).slice(0, item.maxLength);
  }
}
