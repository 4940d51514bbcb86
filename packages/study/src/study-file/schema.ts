import { ConstraintSchema, HardConstraintSchema } from '@usher/booking';
import { z } from 'zod';
import { QuestionnairesSchema } from '../questionnaire/schema.ts';
import { Id, Text } from './fields.ts';
import { MAX_MISTAKES, MistakeSchema, mistakeId } from './mistakes.ts';

/**
 * What the agent beside the participant is in one condition (the page's side of it too):
 * - `none`: no agent; the participant books alone (the session is logged all the same);
 * - `assist`: the agent marks and explains options and selects only what was clearly asked for;
 * - `autopilot`: the agent books what the participant asks for;
 * - `wizard`: an experimenter acts as the agent from the console.
 */
export const AGENT_KINDS = ['none', 'assist', 'autopilot', 'wizard'] as const;

/**
 * How much the agent must ask before it acts (a condition's `guard`):
 * - `never`: it acts and books without asking;
 * - `before-submit`: it asks in the chat before submitting the booking and waits for a yes;
 * - `each-step`: it proposes each step (what and why, in one line) and waits for the
 *   participant's Approve or Reject; a rejection is a correction it plans again from.
 */
export const GUARDS = ['never', 'before-submit', 'each-step'] as const;
export type Guard = (typeof GUARDS)[number];

/** The participant's controls over the agent on the study page; each can be turned off. */
export const ControlsSchema = z.strictObject({
  /** Pause and resume: the agent holds still, keeping what it was doing, until resumed. */
  pause: z.boolean().optional(),
  /** Take over and hand back: the agent leaves the page to the participant until handed it back. */
  takeOver: z.boolean().optional(),
});

/** The agent kinds whose agent the server runs, and so the participant can pause and guard. */
const RUN_BY_SERVER = new Set(['assist', 'autopilot']);

export const ConditionSchema = z
  .strictObject({
    id: Id,
    /** What the researcher calls it in the console and the export; the participant never sees it. */
    label: Text(120).optional(),
    agent: z.enum(AGENT_KINDS),
    /** `rules`: the deterministic planner; `llm`: the configured language model (USHER_LLM_*), rules as fallback. */
    planner: z.enum(['rules', 'llm']).default('rules'),
    /** Pause between the agent's actions, so the participant can follow them. */
    paceMs: z.number().int().min(0).max(60_000).default(800),
    /** How much the agent asks ({@link GUARDS}); `before-submit` by default. */
    guard: z.enum(GUARDS).optional(),
    /**
     * The older spelling of the guard: `true` is `before-submit`, `false` is `never`. Still
     * accepted; once loaded it says whether the participant confirms the submit (true with
     * `before-submit` and `each-step`, whose approval of the submit is that confirmation).
     */
    confirmBeforeSubmit: z.boolean().optional(),
    /** The participant's controls (both on by default with an agent the server runs, off otherwise). */
    controls: ControlsSchema.optional(),
    /** Whether the page-tuning tools (filter, sort, highlight, augment) are offered to the agent. */
    pageTools: z.boolean().default(true),
    /** Whether the page shows the chat. */
    chat: z.boolean().default(true),
    /** Mistakes the agent makes on purpose, per task ({@link MistakeSchema}); none by default. */
    mistakes: z.array(MistakeSchema).max(MAX_MISTAKES).default([]),
  })
  .superRefine((condition, ctx) => {
    if (condition.agent === 'none' && condition.planner === 'llm') {
      ctx.addIssue({ code: 'custom', path: ['planner'], message: 'a condition without an agent has no planner' });
    }
    if ((condition.agent === 'assist' || condition.agent === 'autopilot') && !condition.chat) {
      ctx.addIssue({
        code: 'custom',
        path: ['chat'],
        message: `an ${condition.agent} agent hears what to book, and asks before submitting, in the chat: it cannot be off`,
      });
    }
    const { guard, confirmBeforeSubmit } = condition;
    if (guard !== undefined && confirmBeforeSubmit !== undefined && (guard === 'never') === confirmBeforeSubmit) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmBeforeSubmit'],
        message: `confirmBeforeSubmit: ${confirmBeforeSubmit} says the opposite of guard: ${guard}; keep guard alone`,
      });
    }
    if (guard === 'each-step' && !RUN_BY_SERVER.has(condition.agent)) {
      ctx.addIssue({
        code: 'custom',
        path: ['guard'],
        message: `each-step proposes the agent's steps for approval: it needs an assist or autopilot agent, not ${condition.agent}`,
      });
    }
    for (const key of ['pause', 'takeOver'] as const) {
      if (condition.controls?.[key] === true && !RUN_BY_SERVER.has(condition.agent)) {
        ctx.addIssue({
          code: 'custom',
          path: ['controls', key],
          message: `a condition with agent: ${condition.agent} has no agent of the server's to ${key === 'pause' ? 'pause' : 'take over from'}`,
        });
      }
    }
  })
  .transform((condition) => {
    const guard: Guard = condition.guard ?? (condition.confirmBeforeSubmit === false ? 'never' : 'before-submit');
    const runBy = RUN_BY_SERVER.has(condition.agent);
    return {
      ...condition,
      guard,
      confirmBeforeSubmit: guard !== 'never',
      controls: {
        pause: runBy && (condition.controls?.pause ?? true),
        takeOver: runBy && (condition.controls?.takeOver ?? true),
      },
    };
  });
export type Condition = z.infer<typeof ConditionSchema>;

/** A task's success: the story's checkable constraints (`@usher/booking`), checked on the submitted booking. */
export const SuccessSchema = z.strictObject({
  hard: z.array(HardConstraintSchema).min(1, 'a task needs at least one hard constraint to say whether it succeeded'),
  soft: z.array(ConstraintSchema).default([]),
});

export const TaskSchema = z.strictObject({
  id: Id,
  title: Text(120),
  /** A scenario file (JSON, packages/booking/SCENARIOS.md), relative to the study file. */
  scenario: Text(500),
  /** What the participant reads before the task, and beside the booking while doing it (Markdown). */
  briefing: Text(4000),
  /** Short points shown as a checklist beside the booking. */
  checklist: z.array(Text(200)).max(12).default([]),
  success: SuccessSchema,
  /** The task in a participant's own words: what simulated participants (tests, the bench) type. */
  goal: Text(1000).optional(),
});
export type Task = z.infer<typeof TaskSchema>;

export const AssignmentSchema = z.strictObject({
  /**
   * `between`: each participant is in one condition and does every task in it; `within`: each
   * participant does every condition once, one per task (as many tasks as conditions).
   */
  design: z.enum(['between', 'within']).default('between'),
  /** `balanced`: the condition with fewest participants so far (ties at random); `link`: the link names it (`condition=`). */
  conditions: z.enum(['balanced', 'link']).default('balanced'),
  /** `latin-square`: the order of tasks (and, within subjects, conditions) rotates across participants, balanced for carry-over. */
  order: z.enum(['fixed', 'latin-square']).default('fixed'),
});
export type Assignment = z.infer<typeof AssignmentSchema>;

export const CompletionSchema = z.strictObject({
  /** Shown on the end page, for the participant to paste into the recruitment platform. */
  code: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,64}$/, 'expected 4–64 letters, digits, "-" or "_"')
    .optional(),
  /** Where the end page sends the participant (e.g. the recruitment platform's completion URL). */
  redirect: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
    .max(2000)
    .optional(),
});

/** A study file (packages/study/README.md): what a researcher writes to run a study with Usher. */
export const StudyFileSchema = z
  .strictObject({
    id: Id,
    title: Text(200),
    /**
     * The title participants see (their pages' header, a link preview), when it should not be
     * `title`: participants of every condition see it, so it names none of them.
     */
    participantTitle: Text(200).optional(),
    /** Shown on the welcome page (Markdown); the participant agrees before anything else happens. */
    consent: Text(20_000),
    tasks: z.array(TaskSchema).min(1, 'a study needs at least one task').max(20),
    conditions: z.array(ConditionSchema).min(1, 'a study needs at least one condition').max(12),
    assignment: AssignmentSchema.default({ design: 'between', conditions: 'balanced', order: 'fixed' }),
    completion: CompletionSchema.default({}),
    /** Asked after each task (`perTask`) and before the end page (`postStudy`). */
    questionnaires: QuestionnairesSchema.default({}),
  })
  .superRefine(
    (study, ctx) => {
      const unique = (what: 'tasks' | 'conditions') => {
        const seen = new Map<string, number>();
        study[what].forEach((item, i) => {
          const first = seen.get(item.id);
          if (first !== undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [what, i, 'id'],
              message: `"${item.id}" is already the id of ${what}[${first}]`,
            });
          } else {
            seen.set(item.id, i);
          }
        });
      };
      unique('tasks');
      unique('conditions');
      // Scripted mistakes: made by an agent, in a task of this study, one id each (checked here so
      // that they are reported beside the mistakes' other problems).
      const taskIds = new Set(study.tasks.map((t) => t.id));
      study.conditions.forEach((condition, c) => {
        if (!Array.isArray(condition.mistakes)) return;
        const at = (...path: (string | number)[]) => ['conditions', c, 'mistakes', ...path];
        if ((condition.agent === 'none' || condition.agent === 'wizard') && condition.mistakes.length > 0) {
          const who =
            condition.agent === 'none' ? 'a condition without an agent' : 'a wizard condition (an experimenter acts)';
          ctx.addIssue({ code: 'custom', path: at(), message: `${who} has no agent to make mistakes` });
        }
        const seen = new Map<string, number>();
        condition.mistakes.forEach((mistake, i) => {
          if (typeof mistake !== 'object' || mistake === null) return;
          if (typeof mistake.task === 'string' && !taskIds.has(mistake.task)) {
            ctx.addIssue({ code: 'custom', path: at(i, 'task'), message: `no task "${mistake.task}" in this study` });
          }
          const id = mistakeId(mistake);
          const key = `${mistake.task}\u0000${id}`;
          const first = seen.get(key);
          if (first === undefined) seen.set(key, i);
          else
            ctx.addIssue({
              code: 'custom',
              path: at(i, 'id'),
              message: `mistakes[${first}] is already "${id}" in task "${mistake.task}": give each its own id`,
            });
        });
      });
      // A questionnaire shown only in some conditions must name conditions of this study.
      const conditionIds = new Set(study.conditions.map((c) => c.id));
      for (const which of ['perTask', 'postStudy'] as const) {
        study.questionnaires[which]?.forEach((section, i) => {
          const check = (ids: string[] | undefined, path: (string | number)[]) =>
            ids?.forEach((id, k) => {
              if (!conditionIds.has(id)) {
                ctx.addIssue({
                  code: 'custom',
                  path: ['questionnaires', which, i, ...path, 'conditions', k],
                  message: `no condition "${id}" in this study`,
                });
              }
            });
          check(section.conditions, []);
          section.items?.forEach((item, j) => {
            check(item.conditions, ['items', j]);
          });
        });
      }
      if (study.assignment?.design === 'within' && study.tasks.length !== study.conditions.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['assignment', 'design'],
          message: `a within-subjects study pairs each condition with one task: ${study.conditions.length} conditions need ${study.conditions.length} tasks, not ${study.tasks.length}`,
        });
      }
      // Run beside other fields' problems too (a file's every problem at once), whenever the lists
      // these checks read are lists.
    },
    { when: (payload) => isStudyShaped(payload.value) },
  );
export type StudyFile = z.infer<typeof StudyFileSchema>;

/** Whether the cross-field checks can read the value, whatever else is wrong with it. */
function isStudyShaped(value: unknown): boolean {
  const v = value as Record<string, unknown> | null;
  const listOf = (x: unknown) => Array.isArray(x) && x.every((e) => typeof e === 'object' && e !== null);
  const questionnaires = (v?.questionnaires ?? {}) as Record<string, unknown>;
  return (
    typeof v === 'object' &&
    v !== null &&
    listOf(v.tasks) &&
    listOf(v.conditions) &&
    [questionnaires.perTask, questionnaires.postStudy].every((q) => q === undefined || listOf(q))
  );
}
