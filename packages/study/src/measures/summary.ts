import type { TaskMeasures } from './collaboration.ts';

/** One participant task as the per-condition summary reads it. */
export interface SummaryInput {
  participantId: string;
  conditionId: string;
  agent: string;
  /** A row of `usher pilot` (its study tasks said `pilot: true`). */
  pilot: boolean;
  /** Its measures, or null when the task was never started. */
  measures: TaskMeasures | null;
  /** A booking was submitted, and whether it met the task (null when it could not be judged). */
  booked: boolean;
  success: boolean | null;
  /** Seconds on the task (as `participant_tasks.time_on_task_s`), null when not started. */
  timeOnTaskS: number | null;
}

/** One condition's summary (docs/data-dictionary.md, "conditions"): the export's table and the console's panel. */
export interface ConditionSummary {
  conditionId: string;
  agent: string;
  pilot: boolean;
  participants: number;
  tasksStarted: number;
  booked: number;
  successes: number;
  /** `successes / tasksStarted`; null before any task started. */
  successRate: number | null;
  meanTimeOnTaskS: number | null;
  meanTimeToBookingS: number | null;
  meanAgentShare: number | null;
  meanParticipantShare: number | null;
  meanTimeToAgentFirstActionS: number | null;
  meanInterventions: number | null;
  /** Started tasks with at least one intervention, of those where interventions apply. */
  tasksWithIntervention: number | null;
  meanTimeToFirstInterventionS: number | null;
  pauses: number | null;
  takeOvers: number | null;
  rejectedProposals: number | null;
  chatCorrections: number | null;
  undoneAgentSelections: number | null;
  agentQuestions: number | null;
  mistakesCaught: number | null;
  mistakesMissed: number | null;
  /** `mistakesMissed / (mistakesCaught + mistakesMissed)`: how often a scripted mistake went through. */
  overReliance: number | null;
  overriddenCorrect: number | null;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The mean of the values that are not null; null when none is. */
function mean(values: ReadonlyArray<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : round3(present.reduce((a, b) => a + b, 0) / present.length);
}

/** The sum of the values that are not null; null when none is (the measure applies to none of them). */
function sum(values: ReadonlyArray<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}

/**
 * The per-condition summary of participant tasks, one row per condition (and per pilot or not),
 * in the order of `conditionOrder`: counts over every task, means and sums over the started tasks
 * where each measure applies (an empty measure is left out, not taken as 0).
 */
export function summariseConditions(
  rows: readonly SummaryInput[],
  conditionOrder: readonly string[] = [],
): ConditionSummary[] {
  const groups = new Map<string, SummaryInput[]>();
  for (const row of rows) {
    const key = `${row.pilot ? 1 : 0}\u0000${row.conditionId}`;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  const rank = (id: string) => {
    const i = conditionOrder.indexOf(id);
    return i < 0 ? conditionOrder.length : i;
  };
  return [...groups.values()]
    .map((list): ConditionSummary => {
      const first = list[0] as SummaryInput;
      const started = list.filter((r) => r.measures !== null);
      const m = started.map((r) => r.measures as TaskMeasures);
      const pick = (f: (x: TaskMeasures) => number | null) => m.map(f);
      const caught = sum(pick((x) => x.mistakesCaught));
      const missed = sum(pick((x) => x.mistakesMissed));
      const judged = (caught ?? 0) + (missed ?? 0);
      const interventions = pick((x) => x.interventions);
      const successes = list.filter((r) => r.success === true).length;
      return {
        conditionId: first.conditionId,
        agent: first.agent,
        pilot: first.pilot,
        participants: new Set(list.map((r) => r.participantId)).size,
        tasksStarted: started.length,
        booked: list.filter((r) => r.booked).length,
        successes,
        successRate: started.length === 0 ? null : round3(successes / started.length),
        meanTimeOnTaskS: mean(started.map((r) => r.timeOnTaskS)),
        meanTimeToBookingS: mean(pick((x) => x.timeToBookingS)),
        meanAgentShare: first.agent === 'none' ? null : mean(pick((x) => x.agentShare)),
        meanParticipantShare: mean(pick((x) => x.participantShare)),
        meanTimeToAgentFirstActionS: mean(pick((x) => x.timeToAgentFirstActionS)),
        meanInterventions: mean(interventions),
        tasksWithIntervention: sum(interventions.map((n) => (n === null ? null : n > 0 ? 1 : 0))),
        meanTimeToFirstInterventionS: mean(pick((x) => x.timeToFirstInterventionS)),
        pauses: sum(pick((x) => x.pauses)),
        takeOvers: sum(pick((x) => x.takeOvers)),
        rejectedProposals: sum(pick((x) => x.rejectedProposals)),
        chatCorrections: sum(pick((x) => x.chatCorrections)),
        undoneAgentSelections: sum(pick((x) => x.undoneAgentSelections)),
        agentQuestions: sum(pick((x) => x.agentQuestions)),
        mistakesCaught: caught,
        mistakesMissed: missed,
        overReliance: judged === 0 ? null : round3((missed ?? 0) / judged),
        overriddenCorrect: sum(pick((x) => x.overriddenCorrect)),
      };
    })
    .sort((a, b) => Number(a.pilot) - Number(b.pilot) || rank(a.conditionId) - rank(b.conditionId));
}
