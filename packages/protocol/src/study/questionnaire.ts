import { z } from 'zod';

/**
 * A questionnaire as the participant's page shows it (packages/study/README.md, "Questionnaires"):
 * the sections and items of the participant's condition, without attention checks' expected
 * answers. The server checks every submitted answer against its own copy.
 */
const ItemBase = {
  id: z.string(),
  text: z.string(),
  required: z.boolean(),
};
const Option = z.object({ value: z.string(), label: z.string() });

export const QuestionnaireItemViewSchema = z.discriminatedUnion('kind', [
  z.object({
    ...ItemBase,
    kind: z.literal('likert'),
    points: z.number().int().min(2).max(11),
    from: z.number().int().min(0).max(1),
    /** The ends' labels (two), or one per point. */
    anchors: z.array(z.string()),
  }),
  z.object({
    ...ItemBase,
    kind: z.literal('slider'),
    step: z.number().int().min(1).max(50),
    anchors: z.tuple([z.string(), z.string()]).optional(),
  }),
  z.object({ ...ItemBase, kind: z.literal('single'), options: z.array(Option) }),
  z.object({
    ...ItemBase,
    kind: z.literal('multiple'),
    options: z.array(Option),
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(1).optional(),
  }),
  z.object({ ...ItemBase, kind: z.literal('text'), maxLength: z.number().int().min(1) }),
  z.object({ ...ItemBase, kind: z.literal('longtext'), maxLength: z.number().int().min(1) }),
]);
export type QuestionnaireItemView = z.infer<typeof QuestionnaireItemViewSchema>;

export const QUESTIONNAIRE_KINDS = ['per-task', 'post-study'] as const;

export const QuestionnaireViewSchema = z.object({
  /** `per-task`: about the task just done (`taskId`); `post-study`: about the whole study. */
  kind: z.enum(QUESTIONNAIRE_KINDS),
  taskId: z.string().optional(),
  sections: z.array(
    z.object({
      id: z.string(),
      title: z.string().optional(),
      intro: z.string().optional(),
      items: z.array(QuestionnaireItemViewSchema),
    }),
  ),
});
export type QuestionnaireView = z.infer<typeof QuestionnaireViewSchema>;

/** An answer: a number (likert, slider), a text (single choice, free text) or texts (multiple choice). */
export const AnswerValueSchema = z.union([z.number(), z.string().max(5000), z.array(z.string().max(200)).max(20)]);

/** At most this many answers in one submission (a questionnaire holds at most 100 items). */
export const MAX_ANSWERS = 100;

/**
 * `POST /api/participant/questionnaire`: the participant's answers to the questionnaire they are
 * on, by item id (optional items left out). Checked against the questionnaire by the server.
 */
export const QuestionnaireSubmissionSchema = z.strictObject({
  questionnaire: z.enum(QUESTIONNAIRE_KINDS),
  answers: z
    .record(z.string().max(64), AnswerValueSchema)
    .refine((answers) => Object.keys(answers).length <= MAX_ANSWERS, `at most ${MAX_ANSWERS} answers`),
  /** When the page submitted them, by its own clock (ISO 8601), logged beside the server's. */
  at: z.iso.datetime({ offset: true }).optional(),
});
export type QuestionnaireSubmission = z.infer<typeof QuestionnaireSubmissionSchema>;
