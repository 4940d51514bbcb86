import {
  allToolDefinitions,
  MODIFICATION_TOOLS,
  type Stage,
  TOOL_NAMES,
  type ToolDefinition,
  type ToolName,
} from '@usher/protocol';

/*
 * Which tools the toolSchema offers (DESIGN.md, "Booking domain", stage filtering): the
 * modification tools whenever a spec is active; per stage the interaction tools below; `next`
 * only once the stage is complete; `select` only while some visible item is enabled;
 * `postMessage` always. Usher's `clearSelection` is offered where a stage's choice can be undone
 * (movie to seat), once there is one: that is when the stage is complete.
 */

const STAGE_TOOLS: Record<Stage, readonly ToolName[]> = {
  movie: ['select', 'clearSelection'],
  theater: ['select', 'clearSelection', 'prev'],
  date: ['select', 'clearSelection', 'prev'],
  time: ['select', 'clearSelection', 'prev'],
  seat: ['select', 'clearSelection', 'prev'],
  ticket: ['setQuantity', 'prev'],
  confirm: ['prev'],
};

/** What decides the offer on an active stage. */
export interface ToolContext {
  stage: Stage;
  complete: boolean;
  anyVisibleEnabled: boolean;
}

/** The tools available now, in the protocol's stable order; `null` means no spec is active. */
export function availableTools(context: ToolContext | null): ToolName[] {
  if (context === null) return ['postMessage'];
  const offered = new Set<ToolName>([...MODIFICATION_TOOLS, ...STAGE_TOOLS[context.stage], 'postMessage']);
  if (context.complete) offered.add('next');
  else offered.delete('clearSelection');
  if (!context.anyVisibleEnabled) offered.delete('select');
  return TOOL_NAMES.filter((name) => offered.has(name));
}

let definitions: ReadonlyMap<string, ToolDefinition> | undefined;

/** The toolSchema entries for `names`, as fresh copies (the definitions are computed once). */
export function toolSchemaFor(names: readonly ToolName[]): ToolDefinition[] {
  definitions ??= new Map(allToolDefinitions().map((d) => [d.name, d]));
  return names.flatMap((name) => {
    const definition = definitions?.get(name);
    return definition ? [structuredClone(definition)] : [];
  });
}
