import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Constraint, type HardConstraint, isPreference, parseScenario, type Scenario } from '@usher/booking';
import { parse } from 'yaml';
import { z } from 'zod';
import { parseConstraint } from './notation.ts';

/*
 * The extraction evaluation set (packages/agent/eval/*.yaml): participant messages as people type
 * them, each with the constraints a careful human reads from them, in the notation of
 * notation.ts. Every case is read against one world (its day, titles and genres).
 */

const CaseSchema = z.strictObject({
  id: z.string().min(1),
  tags: z.array(z.string()).default([]),
  say: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(6)]),
  hard: z.array(z.string()).default([]),
  soft: z.array(z.string()).default([]),
  /** A careful reader would ask before booking (a hard wish is unclear, or the party unknown). */
  ask: z.boolean().default(false),
  note: z.string().optional(),
});
const FileSchema = z.strictObject({ cases: z.array(CaseSchema).min(1) });

export interface EvalCase {
  id: string;
  file: string;
  tags: string[];
  messages: string[];
  hard: HardConstraint[];
  soft: Constraint[];
  ask: boolean;
  note?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
/** `packages/agent/eval/`: the case files. */
export const EVAL_DIR = resolve(here, '../../eval');
/** The world every case is read against: the default week (Saturday 21 Nov 2026). */
export const EVAL_WORLD = resolve(here, '../../../booking/scenarios/default.json');

export function loadWorld(path = EVAL_WORLD): Scenario {
  return parseScenario(JSON.parse(readFileSync(path, 'utf8')), path);
}

/** Every case of every `*.yaml` file in `dir`, in file then case order; throws naming the bad case. */
export function loadCases(world: Scenario, dir = EVAL_DIR): EvalCase[] {
  const genres = [...new Set(world.movies.flatMap((m) => m.genres))];
  const out: EvalCase[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const parsed = FileSchema.safeParse(parse(readFileSync(join(dir, file), 'utf8')));
    if (!parsed.success) throw new Error(`${file}: ${parsed.error.message}`);
    for (const c of parsed.data.cases) {
      const read = (list: string[]) => {
        try {
          return list.map((text) => parseConstraint(text, genres));
        } catch (error) {
          throw new Error(`${file} ${c.id}: ${(error as Error).message}`);
        }
      };
      out.push({
        id: c.id,
        file,
        tags: c.tags,
        messages: typeof c.say === 'string' ? [c.say] : c.say,
        hard: read(c.hard).map((h) => {
          if (isPreference(h)) throw new Error(`${file} ${c.id}: "${h.kind}" is soft only`);
          return h;
        }),
        soft: read(c.soft),
        ask: c.ask,
        ...(c.note ? { note: c.note } : {}),
      });
    }
  }
  const ids = out.map((c) => c.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new Error(`case id ${twice} is used twice`);
  return out;
}
