import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenario, type Scenario, StorySchema } from '@usher/booking';
import { z } from 'zod';

/** `packages/agent/suite/`: the scenario files and the worlds they run in. */
export const SUITE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../suite');

/** One suite scenario: a world, what the participant says, what a checker judges, and the expected end. */
export const SuiteScenarioSchema = z.strictObject({
  name: z.string().min(1),
  /** The world file, relative to `packages/agent/suite/` (e.g. `worlds/small-town.json`). */
  world: z.string().min(1),
  /** `text` is what the agent reads; `hard`/`soft` are the truth the booking is judged against. */
  story: StorySchema,
  expect: z.enum(['book', 'blocked']),
  /** For `blocked`: a word the agent's message must contain (the wish that cannot be met). */
  why: z.string().min(1).optional(),
  /**
   * A known agent bug that makes this scenario fail today: the test expects the failure (so a fix
   * is noticed) and the report shows the scenario as it is. Never used to hide a wrong booking.
   */
  knownBug: z.string().min(1).optional(),
});
export type SuiteScenario = z.infer<typeof SuiteScenarioSchema>;

export interface SuiteEntry {
  /** The scenario file's name, e.g. `title-imax-tomorrow.json`. */
  file: string;
  scenario: SuiteScenario;
  world: Scenario;
}

/** Loads every `*.json` in `scenarios/` (sorted by file name) with its world; throws naming a bad file. */
export function loadSuite(dir = SUITE_DIR): SuiteEntry[] {
  const worlds = new Map<string, Scenario>();
  const worldOf = (file: string): Scenario => {
    const path = join(dir, file);
    let world = worlds.get(path);
    if (!world) {
      world = parseScenario(JSON.parse(readFileSync(path, 'utf8')), file);
      worlds.set(path, world);
    }
    return world;
  };
  const files = readdirSync(join(dir, 'scenarios'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  return files.map((file) => {
    const parsed = SuiteScenarioSchema.safeParse(JSON.parse(readFileSync(join(dir, 'scenarios', file), 'utf8')));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
      throw new Error(`scenarios/${file}: ${issues.join('; ')}`);
    }
    const scenario = parsed.data;
    if (scenario.expect === 'blocked' && !scenario.why)
      throw new Error(`scenarios/${file}: a blocked scenario needs "why"`);
    return { file, scenario, world: structuredClone(worldOf(scenario.world)) };
  });
}
