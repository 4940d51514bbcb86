import type { StudyFile } from '../study-file/schema.ts';
import { balancedLatinSquare, latinOrder } from './latin-square.ts';

/** One step of a participant's plan: a task, done in a condition. */
export interface PlannedTask {
  taskId: string;
  conditionId: string;
}

/** What a participant is given: their condition(s) and the order of their tasks. */
export interface Plan {
  /** The between-subjects condition, or null in a within-subjects study (each task has its own). */
  conditionId: string | null;
  tasks: PlannedTask[];
}

/** Why a participant could not be assigned (a link naming no condition of the study). */
export class AssignmentError extends Error {
  override readonly name = 'AssignmentError';
}

/**
 * The index of the condition to give the next participant: one with the fewest participants so
 * far, ties broken by `random` (in [0, 1)), so conditions stay balanced as participants arrive.
 */
export function pickBalanced(counts: readonly number[], random: () => number): number {
  const fewest = Math.min(...counts);
  const tied = counts.flatMap((count, i) => (count === fewest ? [i] : []));
  return tied[Math.min(tied.length - 1, Math.floor(random() * tied.length))] as number;
}

/**
 * The plan of a study's next participant (StudyFile.assignment):
 * - `between`: one condition, balanced across participants (`counts`: participants per condition
 *   so far, in the study's order) or named by the link; every task in it, in the study's order or
 *   in the Latin-square order of this participant's rank within the condition;
 * - `within`: every condition once, each paired with one task. In the study's order (`fixed`), or
 *   (`latin-square`) with both orders counterbalanced: the conditions in the Latin-square order of
 *   the participant's rank in the study (`counts` summed), the tasks in the Latin-square order of
 *   the rank divided by the number of condition orders, so over each full cycle every task comes in
 *   every position and is paired with every condition equally often.
 */
export function planParticipant(
  study: Pick<StudyFile, 'tasks' | 'conditions' | 'assignment'>,
  counts: readonly number[],
  options: { random: () => number; linkCondition?: string | undefined },
): Plan {
  const { design, conditions: how, order } = study.assignment;
  const conditionIds = study.conditions.map((c) => c.id);
  const taskIds = study.tasks.map((t) => t.id);
  if (design === 'within') {
    const rank = counts.reduce((a, b) => a + b, 0);
    const n = conditionIds.length;
    const inOrder = conditionIds.map((_, i) => i);
    const conditionOrder = order === 'latin-square' ? latinOrder(n, rank) : inOrder;
    const cycle = balancedLatinSquare(n).length;
    const taskOrder = order === 'latin-square' ? latinOrder(n, Math.floor(rank / cycle)) : inOrder;
    return {
      conditionId: null,
      tasks: inOrder.map((p) => ({
        taskId: taskIds[taskOrder[p] as number] as string,
        conditionId: conditionIds[conditionOrder[p] as number] as string,
      })),
    };
  }
  let index: number;
  if (how === 'link') {
    index = options.linkCondition === undefined ? -1 : conditionIds.indexOf(options.linkCondition);
    if (index < 0) {
      throw new AssignmentError(
        `this study takes its condition from the link (condition=…), one of ${conditionIds.join(', ')}; the link named ${options.linkCondition === undefined ? 'none' : `"${options.linkCondition}"`}`,
      );
    }
  } else {
    index = pickBalanced(counts, options.random);
  }
  const conditionId = conditionIds[index] as string;
  const sequence = order === 'latin-square' ? latinOrder(taskIds.length, counts[index] ?? 0) : taskIds.map((_, i) => i);
  return { conditionId, tasks: sequence.map((t) => ({ taskId: taskIds[t] as string, conditionId })) };
}
