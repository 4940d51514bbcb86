import { readFileSync } from 'node:fs';
import { parseScenario, type Scenario } from '@usher/booking';
import { StartupError } from './server.ts';

/** Reads and validates a scenario file; every failure says which file and what is wrong with it. */
export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message;
    throw new StartupError(`cannot read scenario ${path}: ${why}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new StartupError(`scenario ${path} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return parseScenario(json, path);
  } catch (err) {
    throw new StartupError(`scenario ${path} is invalid: ${(err as Error).message}`);
  }
}
