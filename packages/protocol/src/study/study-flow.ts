import { z } from 'zod';
import { QuestionnaireViewSchema } from './questionnaire.ts';

/**
 * The participant's API in study mode (packages/study-host/README.md, "Study mode"): what the
 * server says of where a participant is, and the steps the page asks for. The page and the
 * server both check these shapes.
 */
export const PARTICIPANT_STATUSES = [
  'consent',
  'briefing',
  'task',
  /** Answering the per-task questionnaire about the task just done (`taskIndex` is still that task's). */
  'task-questionnaire',
  /** Answering the post-study questionnaire, before the end page. */
  'post-study',
  'done',
  'gave-up',
  'dropped',
] as const;

/** The participant's controls (packages/study-host/README.md, "The participant's controls"): one press each. */
export const PARTICIPANT_CONTROLS = ['pause', 'resume', 'take-over', 'hand-back'] as const;
export type ParticipantControl = (typeof PARTICIPANT_CONTROLS)[number];

/** `POST /api/participant/control`'s body. */
export const ControlPressSchema = z.strictObject({ control: z.enum(PARTICIPANT_CONTROLS) });

/** Where the participant's controls stand: what the page shows, and what the control route answers. */
export const AgentControlStateSchema = z.object({ paused: z.boolean(), takenOver: z.boolean() });
export type AgentControlState = z.infer<typeof AgentControlStateSchema>;

export const ParticipantViewSchema = z.object({
  participantId: z.string(),
  study: z.object({ id: z.string(), title: z.string() }),
  status: z.enum(PARTICIPANT_STATUSES),
  taskIndex: z.number().int().min(0),
  taskCount: z.number().int().min(1),
  consent: z.string().optional(),
  task: z
    .object({
      id: z.string(),
      title: z.string(),
      briefing: z.string(),
      checklist: z.array(z.string()),
      /** The task's scenario without its story (parsed by `@usher/booking`'s parseScenario). */
      world: z.record(z.string(), z.unknown()),
    })
    .optional(),
  page: z.object({
    chat: z.boolean(),
    /** The participant's controls over the agent the condition shows (pause and resume; take over and hand back). */
    controls: z.object({ pause: z.boolean(), takeOver: z.boolean() }).optional(),
  }),
  /** Where the participant's controls stand on the current task: they paused the agent, or took over from it. */
  agentControl: AgentControlStateSchema.optional(),
  completion: z.object({ code: z.string().optional(), redirect: z.string().optional() }).optional(),
  /** The questionnaire to answer, in `task-questionnaire` and `post-study`. */
  questionnaire: QuestionnaireViewSchema.optional(),
});
export type ParticipantView = z.infer<typeof ParticipantViewSchema>;

/** A moment by the page's own clock (ISO 8601), logged beside the server's. */
const PageTime = z.iso.datetime({ offset: true });

export const FlowStepSchema = z.discriminatedUnion('step', [
  z.strictObject({ step: z.literal('consent'), at: PageTime.optional() }),
  z.strictObject({
    step: z.literal('start-task'),
    at: PageTime.optional(),
    /** When the page showed the task's briefing: with `at`, how long the participant read it. */
    briefingShownAt: PageTime.optional(),
  }),
  z.strictObject({
    step: z.literal('end-task'),
    outcome: z.enum(['submitted', 'done', 'gave-up']),
    at: PageTime.optional(),
    /** The task the page ends (its `taskIndex`): a stale tab cannot end the task that followed. */
    taskIndex: z.number().int().min(0).max(10_000).optional(),
  }),
]);
export type FlowStep = z.infer<typeof FlowStepSchema>;
