import type { PerceivedContext } from '../perception/perceive.ts';

/**
 * A tool call's params with what it was planned on (`expect`: the stage, and the page's
 * `uiSpec.meta.revision` when it shows one), for a host whose toolSchema declares `expect` for
 * that tool (Usher's): such a host refuses the call when the page has moved on, rather than apply
 * it to another stage. Another host's params go as planned.
 */
export function withExpect(
  toolName: string,
  params: Record<string, unknown>,
  planned: PerceivedContext,
): Record<string, unknown> {
  const tool = planned.toolSchema.find((t) => t.name === toolName);
  const declared = (tool?.params as { properties?: Record<string, unknown> } | undefined)?.properties;
  const spec = planned.uiSpec;
  if (!declared || !('expect' in declared) || !spec || 'expect' in params) return params;
  const revision = spec.meta?.revision;
  return {
    ...params,
    expect: { stage: spec.stage, ...(typeof revision === 'number' && Number.isInteger(revision) && { revision }) },
  };
}

/** The host's refusal of a call planned on a page that has moved on (the engine's words). */
export function refusedAsStale(detail: string): boolean {
  return /was planned (for|on) /.test(detail);
}
