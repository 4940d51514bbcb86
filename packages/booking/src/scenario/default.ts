import defaultScenarioJson from '../../scenarios/default.json';
import { parseScenario } from './parse.ts';
import type { Scenario } from './schema.ts';

let cached: Scenario | undefined;

/**
 * The scenario that ships with Usher: a week (from Saturday 2026-11-21) of showings at five
 * theaters. Each call returns a fresh copy, so a caller may change it freely.
 */
export function defaultScenario(): Scenario {
  cached ??= parseScenario(defaultScenarioJson, 'default.json');
  return structuredClone(cached);
}
