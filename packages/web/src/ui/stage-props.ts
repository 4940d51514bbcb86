import type { UiSpec } from '@usher/protocol';

export type HighlightStyle = 'emphasis' | 'recommended' | 'warning' | 'muted';

/** What the agent's highlight and augment did to the items of the current stage. */
export interface Decor {
  highlight: ReadonlyMap<string, HighlightStyle>;
  notes: ReadonlyMap<string, string>;
}

/** What every stage renderer gets: the spec, the participant's tools, and the agent's marks. */
export interface StageProps {
  spec: UiSpec;
  /** Whether the toolSchema offers this tool now (the participant follows the agent's rules). */
  can: (tool: string) => boolean;
  act: (tool: string, params?: Record<string, unknown>) => void;
  decor: Decor;
}

export function decorOf(spec: UiSpec): Decor {
  const { highlight, augment } = spec.modification;
  return {
    highlight: new Map((highlight?.itemIds ?? []).map((id) => [id, highlight?.style ?? 'emphasis'])),
    notes: new Map((augment ?? []).map((a) => [a.itemId, a.value])),
  };
}
