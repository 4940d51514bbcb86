import { z } from 'zod';
import {
  AugmentationSchema,
  FilterOperatorSchema,
  HighlightStyleSchema,
  StageSchema,
  type TOOL_CATEGORIES,
  type ToolDefinition,
} from './ui-spec.ts';

const itemId = z.string().min(1).max(128).describe('The id of an item in uiSpec.visibleItems');

/** The most items one call may name (a stage shows far fewer): bounds what a host stores and sends back. */
export const MAX_ITEMS_PER_CALL = 500;
/** The longest chat message, the same for agents and participants. */
export const MAX_CHAT_TEXT = 4000;

/**
 * What a call was planned on (Usher's hosts declare it; an agent sends it only to a host whose
 * toolSchema declares it): the stage, and the `uiSpec.meta.revision` the page showed. A host
 * refuses a call whose stage or revision is no longer the page's (`TOOL_EXECUTION_FAILED`) rather
 * than apply it to a page that moved on. See docs/protocols.md, "Calls planned on a stage".
 */
export const ExpectSchema = z
  .strictObject({
    stage: StageSchema,
    revision: z.number().int().min(0).optional(),
  })
  .describe(
    'What the call was planned on: the stage and uiSpec.meta.revision shown. Refused, with nothing done, when the page has moved on.',
  );
export type Expect = z.infer<typeof ExpectSchema>;

const expect = ExpectSchema.optional();

/**
 * The host tools: the ten of DESIGN.md, "Booking domain" (five that change how the current stage
 * is presented and five that act in it), and Usher's `clearSelection`, which undoes a stage's
 * choice (docs/protocols.md, "Clearing a choice"). Their params are strict: an unknown key is an error. Every tool
 * of a stage takes the optional {@link ExpectSchema} `expect`; the chat's `postMessage` does not.
 */
export const TOOL_PARAMS = {
  filter: z
    .strictObject({
      field: z.string().min(1).max(64).describe('An item field, e.g. genre, rating, distanceKm, format'),
      operator: FilterOperatorSchema,
      value: z.union([
        z.string().max(200),
        z.number(),
        z.boolean(),
        z.array(z.union([z.string().max(200), z.number()])).max(MAX_ITEMS_PER_CALL),
      ]),
      expect,
    })
    .describe('Hide the items that do not match. A new filter on the same field replaces the old one.'),
  sort: z
    .strictObject({ field: z.string().min(1).max(64), order: z.enum(['asc', 'desc']), expect })
    .describe('Order the visible items by a field.'),
  highlight: z
    .strictObject({
      itemIds: z.array(itemId).min(1).max(MAX_ITEMS_PER_CALL),
      style: HighlightStyleSchema.optional(),
      expect,
    })
    .describe('Mark items for the participant; style defaults to emphasis.'),
  augment: z
    .strictObject({ items: z.array(AugmentationSchema).min(1).max(MAX_ITEMS_PER_CALL), expect })
    .describe("Attach the agent's annotation to items, shown apart from the catalog's own text."),
  clearModification: z
    .strictObject({ type: z.enum(['filter', 'sort', 'highlight', 'augment', 'all']).optional(), expect })
    .describe('Remove one kind of modification, or all of them (the default).'),
  select: z
    .strictObject({ itemId, expect })
    .describe('Choose an item. On the seat stage it toggles the seat in the selection.'),
  clearSelection: z
    .strictObject({ expect })
    .describe(
      'Undo the choice on this stage, and every later one, so nothing is chosen here. On the seat stage it clears every seat.',
    ),
  setQuantity: z
    .strictObject({
      typeId: z.string().min(1).max(128).describe('A ticket type id from visibleItems'),
      quantity: z.number().int().min(0).max(100),
      expect,
    })
    .describe('Set how many tickets of one type to buy.'),
  next: z.strictObject({ expect }).describe('Go to the next stage; on confirm, submit the booking.'),
  prev: z.strictObject({ expect }).describe('Go back to the previous stage.'),
  postMessage: z
    .strictObject({ text: z.string().min(1).max(MAX_CHAT_TEXT) })
    .describe("Post a message into the host's chat as the agent."),
} as const;

export type ToolName = keyof typeof TOOL_PARAMS;
export type ToolParams<N extends ToolName> = z.infer<(typeof TOOL_PARAMS)[N]>;

export const MODIFICATION_TOOLS = ['filter', 'sort', 'highlight', 'augment', 'clearModification'] as const;
export const INTERACTION_TOOLS = ['select', 'clearSelection', 'setQuantity', 'next', 'prev', 'postMessage'] as const;
export const TOOL_NAMES = [...MODIFICATION_TOOLS, ...INTERACTION_TOOLS] as const satisfies readonly ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOL_PARAMS, name);
}

export function toolCategory(name: ToolName): (typeof TOOL_CATEGORIES)[number] {
  return (MODIFICATION_TOOLS as readonly string[]).includes(name) ? 'modification' : 'interaction';
}

/** The JSON Schema of one tool's params, generated from its zod schema. */
export function toolParametersJsonSchema(name: ToolName): Record<string, unknown> {
  // The tool's description and the `$schema` dialect line are said once, not in every toolSchema.
  const { description: _d, $schema: _s, ...schema } = z.toJSONSchema(TOOL_PARAMS[name], { io: 'input' });
  return schema;
}

/** Every tool as it appears in a toolSchema, in a stable order. */
export function allToolDefinitions(): ToolDefinition[] {
  return TOOL_NAMES.map((name) => ({
    name,
    description: TOOL_PARAMS[name].description ?? name,
    category: toolCategory(name),
    parameters: toolParametersJsonSchema(name),
  }));
}
