import type { z } from 'zod';

/** Wrappers that hold one schema inside (a default, an optional…), and what they hold. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  for (;;) {
    const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
    if (def.innerType) s = def.innerType as z.core.$ZodType;
    else if (def.type === 'pipe') s = def.in as z.core.$ZodType;
    else return s;
  }
}

/** The objects a schema may be at this point (a union's each option). */
function objects(schema: z.core.$ZodType): Record<string, z.core.$ZodType>[] {
  const s = unwrap(schema);
  const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'object') return [def.shape as Record<string, z.core.$ZodType>];
  if (def.type === 'union') return (def.options as z.core.$ZodType[]).flatMap(objects);
  return [];
}

/** The field names the schema knows at `path` (an object's keys, every option's for a union), for a "did you mean". */
export function fieldsAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let at: z.core.$ZodType[] = [schema];
  for (const key of path) {
    at = at.flatMap((s) => {
      const def = unwrap(s)._zod.def as unknown as Record<string, unknown> & { type: string };
      if (typeof key === 'number') return def.type === 'array' ? [def.element as z.core.$ZodType] : [];
      return objects(s).flatMap((shape) => (shape[key as string] ? [shape[key as string] as z.core.$ZodType] : []));
    });
  }
  return [...new Set(at.flatMap(objects).flatMap((shape) => Object.keys(shape)))];
}

/** The known field a mistyped one most likely meant: a few letters off (or in another order), else none. */
export function closest(typed: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3)) + 1;
  for (const name of known) {
    const d = distance(typed.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Edit distance with adjacent swaps counted as one (optimal string alignment). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i || j));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
