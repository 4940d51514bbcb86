import { AnswerValueSchema } from '@usher/protocol';
import { z } from 'zod';
import { Id, Text } from '../study-file/fields.ts';
import { checkValue } from './answers.ts';
import { INSTRUMENT_DEFINITIONS, INSTRUMENTS, type InstrumentName } from './instruments.ts';

/** The kinds of questionnaire item (packages/study/README.md, "Questionnaires"). */
export const ITEM_KINDS = ['likert', 'slider', 'single', 'multiple', 'text', 'longtext'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** Bounds of a questionnaire: what a screen, a participant and the 64 KiB request body can hold. */
export const QUESTIONNAIRE_LIMITS = {
  sections: 20,
  itemsPerSection: 40,
  items: 100,
  options: 20,
  /** All free-text answers of one questionnaire together, in characters. */
  freeText: 10_000,
} as const;

const Anchor = Text(80);
const common = {
  id: Id,
  /** The question or statement, as the participant reads it. */
  text: Text(1000),
  required: z.boolean().default(true),
  /** Shown only in these conditions (every condition when absent). */
  conditions: z.array(Id).min(1).max(12).optional(),
  /** An attention check: the answer an attentive participant gives, recorded beside theirs. */
  attention: z.strictObject({ expect: AnswerValueSchema }).optional(),
};

const OptionSchema = z
  .union([Text(200), z.strictObject({ value: Id, label: Text(200) })], {
    error: 'expected a text, or {value, label}',
  })
  .transform((o) => (typeof o === 'string' ? { value: o, label: o } : o));
const options = z.array(OptionSchema).min(2, 'expected at least 2 options').max(QUESTIONNAIRE_LIMITS.options);

const ItemSchema = z
  .discriminatedUnion(
    'kind',
    [
      z.strictObject({
        ...common,
        kind: z.literal('likert'),
        points: z.number().int().min(2).max(11),
        /** The first point's value: 1 (1…points) or 0 (0…points−1). */
        from: z.union([z.literal(0), z.literal(1)]).default(1),
        /** Two labels for the ends, or one per point. */
        anchors: z.array(Anchor).min(2).max(11),
      }),
      z.strictObject({
        ...common,
        kind: z.literal('slider'),
        /** The slider runs 0–100 in steps of this. */
        step: z
          .number()
          .int()
          .min(1)
          .max(50)
          .refine((s) => 100 % s === 0, 'expected a step that divides 100')
          .default(1),
        anchors: z.tuple([Anchor, Anchor]).optional(),
      }),
      z.strictObject({ ...common, kind: z.literal('single'), options }),
      z.strictObject({
        ...common,
        kind: z.literal('multiple'),
        options,
        min: z.number().int().min(0).max(QUESTIONNAIRE_LIMITS.options).optional(),
        max: z.number().int().min(1).max(QUESTIONNAIRE_LIMITS.options).optional(),
      }),
      z.strictObject({ ...common, kind: z.literal('text'), maxLength: z.number().int().min(1).max(500).default(200) }),
      z.strictObject({
        ...common,
        kind: z.literal('longtext'),
        maxLength: z.number().int().min(1).max(5000).default(2000),
      }),
    ],
    { error: `expected "kind" to be one of ${ITEM_KINDS.map((k) => `"${k}"`).join(', ')}` },
  )
  .superRefine((item, ctx) => {
    if (item.kind === 'likert' && item.anchors.length !== 2 && item.anchors.length !== item.points) {
      ctx.addIssue({
        code: 'custom',
        path: ['anchors'],
        message: `expected 2 anchors (the ends) or ${item.points} (one per point), not ${item.anchors.length}`,
      });
    }
    if (item.kind === 'single' || item.kind === 'multiple') {
      const values = item.options.map((o) => o.value);
      const twice = values.find((v, i) => values.indexOf(v) !== i);
      if (twice !== undefined)
        ctx.addIssue({ code: 'custom', path: ['options'], message: `"${twice}" is an option twice` });
    }
    if (item.kind === 'multiple' && (item.max ?? item.options.length) > item.options.length) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: `there are only ${item.options.length} options` });
    }
    if (item.kind === 'multiple' && (item.min ?? 0) > (item.max ?? item.options.length)) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'expected min ≤ max' });
    }
    if (item.attention) {
      if (item.kind === 'text' || item.kind === 'longtext') {
        ctx.addIssue({ code: 'custom', path: ['attention'], message: 'a free-text item cannot be an attention check' });
      } else {
        const wrong = checkValue(item, item.attention.expect);
        if (wrong) ctx.addIssue({ code: 'custom', path: ['attention', 'expect'], message: wrong.message });
      }
    }
  });
export type QuestionnaireItem = z.infer<typeof ItemSchema>;

/**
 * One screen of a questionnaire: the study's own `items`, or a standard `instrument` by name
 * (its items, title and introduction; `title` and `intro` may replace the last two).
 */
const SectionSchema = z
  .strictObject({
    id: Id.optional(),
    instrument: z.enum(INSTRUMENTS).optional(),
    title: Text(200).optional(),
    intro: Text(2000).optional(),
    /** The whole section is shown only in these conditions. */
    conditions: z.array(Id).min(1).max(12).optional(),
    items: z
      .array(ItemSchema)
      .min(1, 'a section needs at least one item')
      .max(QUESTIONNAIRE_LIMITS.itemsPerSection)
      .optional(),
  })
  .superRefine((section, ctx) => {
    if (section.instrument && section.items) {
      ctx.addIssue({
        code: 'custom',
        path: ['items'],
        message: `an instrument's section has its own items; add yours in a section of their own`,
      });
    } else if (!section.instrument && !section.items) {
      ctx.addIssue({ code: 'custom', path: [], message: 'a section needs "items", or an "instrument" by name' });
    } else if (!section.instrument && !section.id) {
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'missing (expected a section id)' });
    }
  })
  .transform((section) => {
    const instrument = section.instrument ? INSTRUMENT_DEFINITIONS[section.instrument] : null;
    return {
      id: section.id ?? (section.instrument as string),
      title: section.title ?? instrument?.title,
      intro: section.intro ?? instrument?.intro,
      conditions: section.conditions,
      instrument: (section.instrument ?? null) as InstrumentName | null,
      items: instrument?.items ?? section.items ?? [],
    };
  });
export type QuestionnaireSection = z.infer<typeof SectionSchema>;

const QuestionnaireSchema = z
  .array(SectionSchema)
  .min(1, 'a questionnaire needs at least one section')
  .max(QUESTIONNAIRE_LIMITS.sections)
  .superRefine((sections, ctx) => {
    const sectionIds = new Map<string, number>();
    const itemIds = new Map<string, string>();
    let items = 0;
    let freeText = 0;
    sections.forEach((section, i) => {
      const first = sectionIds.get(section.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'id'],
          message: `"${section.id}" is already the id of section ${first}`,
        });
      }
      sectionIds.set(section.id, i);
      section.items.forEach((item, j) => {
        const where = itemIds.get(item.id);
        if (where !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: section.instrument ? [i, 'instrument'] : [i, 'items', j, 'id'],
            message: `item "${item.id}" is already in section "${where}" (item ids are unique in a questionnaire)`,
          });
        }
        itemIds.set(item.id, section.id);
        items += 1;
        if (item.kind === 'text' || item.kind === 'longtext') freeText += item.maxLength;
      });
    });
    if (items > QUESTIONNAIRE_LIMITS.items) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `${items} items; a questionnaire holds at most ${QUESTIONNAIRE_LIMITS.items}`,
      });
    }
    if (freeText > QUESTIONNAIRE_LIMITS.freeText) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `its free-text answers may hold ${freeText} characters together; at most ${QUESTIONNAIRE_LIMITS.freeText} (lower some maxLength)`,
      });
    }
  });
export type Questionnaire = z.infer<typeof QuestionnaireSchema>;

/** The study's questionnaires: `perTask` after each task, `postStudy` before the end page. */
export const QuestionnairesSchema = z.strictObject({
  perTask: QuestionnaireSchema.optional(),
  postStudy: QuestionnaireSchema.optional(),
});
export type Questionnaires = z.infer<typeof QuestionnairesSchema>;

/** Which questionnaire: after each task, or at the end. */
export type QuestionnaireKind = 'per-task' | 'post-study';
