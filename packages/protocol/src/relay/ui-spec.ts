import { z } from 'zod';

/** The booking stages, in order. After `confirm`, `next` submits the booking. */
export const STAGES = ['movie', 'theater', 'date', 'time', 'seat', 'ticket', 'confirm'] as const;
export const StageSchema = z.enum(STAGES);
export type Stage = z.infer<typeof StageSchema>;

/** A value a participant can see on an item: text, a number, a flag or a list of labels. */
export const ItemFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

/**
 * One option on a stage, with every attribute the participant sees (genre, rating, distance,
 * format, seat row and kind, price …) as flat fields, so `filter` and `sort` can name them.
 */
export const ItemSchema = z
  .object({
    id: z.string().min(1),
    value: z.string(),
    isDisabled: z.boolean().optional(),
  })
  .catchall(ItemFieldValueSchema);
export type Item = z.infer<typeof ItemSchema>;

export const FILTER_OPERATORS = ['eq', 'neq', 'contains', 'gt', 'lt', 'gte', 'lte', 'in'] as const;
export const FilterOperatorSchema = z.enum(FILTER_OPERATORS);

export const FilterSchema = z.strictObject({
  field: z.string().min(1),
  operator: FilterOperatorSchema,
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
});
export type Filter = z.infer<typeof FilterSchema>;

export const SortSchema = z.strictObject({ field: z.string().min(1), order: z.enum(['asc', 'desc']) });
export type Sort = z.infer<typeof SortSchema>;

export const HIGHLIGHT_STYLES = ['emphasis', 'recommended', 'warning', 'muted'] as const;
export const HighlightStyleSchema = z.enum(HIGHLIGHT_STYLES);

export const HighlightSchema = z.strictObject({ itemIds: z.array(z.string()), style: HighlightStyleSchema });
export const AugmentationSchema = z.strictObject({
  itemId: z.string().min(1).max(128),
  value: z.string().min(1).max(500),
});

/** What an agent (or participant) has done to the presentation of the current stage. */
export const ModificationSchema = z.strictObject({
  filter: z.array(FilterSchema).optional(),
  sort: SortSchema.optional(),
  highlight: HighlightSchema.optional(),
  augment: z.array(AugmentationSchema).optional(),
});
export type Modification = z.infer<typeof ModificationSchema>;

export const DISPLAY_COMPONENTS = ['buttonGroup', 'calendar', 'seatMap', 'counter', 'summary'] as const;
export const DisplaySchema = z.strictObject({
  component: z.enum(DISPLAY_COMPONENTS),
  valueField: z.string(),
});

/** The choices made so far, as the participant sees them (the breadcrumb and the summary). */
export const BookingSummarySchema = z.strictObject({
  movie: z.strictObject({ id: z.string(), title: z.string() }).optional(),
  theater: z.strictObject({ id: z.string(), name: z.string() }).optional(),
  date: z.string().optional(),
  showing: z.strictObject({ id: z.string(), time: z.string(), endTime: z.string(), format: z.string() }).optional(),
  seats: z.array(z.string()).optional(),
  tickets: z
    .array(z.strictObject({ typeId: z.string(), label: z.string(), quantity: z.number().int(), unitPrice: z.number() }))
    .optional(),
  total: z.number().optional(),
  currency: z.string().optional(),
});
export type BookingSummary = z.infer<typeof BookingSummarySchema>;

export const UiStateSchema = z.strictObject({
  selected: z.string().optional(),
  selectedList: z.array(z.string()).optional(),
  quantities: z.record(z.string(), z.number().int().min(0)).optional(),
  booking: BookingSummarySchema.optional(),
});

/**
 * The declarative description of what the host shows. `items` holds every option of the stage;
 * `visibleItems` is what remains after `modification.filter` and `modification.sort`.
 */
export const UiSpecSchema = z.strictObject({
  stage: StageSchema,
  title: z.string(),
  description: z.string().optional(),
  items: z.array(ItemSchema),
  visibleItems: z.array(ItemSchema),
  state: UiStateSchema,
  modification: ModificationSchema,
  display: DisplaySchema,
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type UiSpec = z.infer<typeof UiSpecSchema>;

export const MESSAGE_ROLES = ['participant', 'agent', 'system'] as const;

/** One entry of the host's chat timeline. */
export const ChatEntrySchema = z.strictObject({
  id: z.string(),
  role: z.enum(MESSAGE_ROLES),
  text: z.string(),
  timestamp: z.string(),
  stage: StageSchema.optional(),
});
export type ChatEntry = z.infer<typeof ChatEntrySchema>;

export const TOOL_CATEGORIES = ['modification', 'interaction'] as const;

/**
 * One tool an agent may call now. `parameters` is a JSON Schema; some hosts name it `params`,
 * which is accepted too (DESIGN.md), so agents read `parameters ?? params`.
 */
export const ToolDefinitionSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string(),
    category: z.enum(TOOL_CATEGORIES),
    parameters: z.record(z.string(), z.unknown()).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((tool) => tool.parameters !== undefined || tool.params !== undefined, {
    message: 'a tool needs its parameters schema (`parameters`, or `params`)',
  });
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

/**
 * The three read surfaces an agent may see (external-agent-protocol §1). The objects that carry
 * them are strict: a field the contract does not know (such as `backendData`) is refused, not
 * passed on.
 */
export const HostViewSchema = z.strictObject({
  uiSpec: UiSpecSchema.nullable(),
  messageHistory: z.array(ChatEntrySchema),
  toolSchema: z.array(ToolDefinitionSchema),
});
export type HostView = z.infer<typeof HostViewSchema>;
