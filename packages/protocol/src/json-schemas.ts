import { relayJsonSchemas } from './relay/json-schemas.ts';
import { stdioJsonSchemas } from './stdio/json-schemas.ts';
import { syncJsonSchemas } from './sync/json-schemas.ts';

/**
 * Every JSON Schema published beside the contracts, by its path under `schemas/`. The files are
 * this function's output, committed; a test fails when they are stale (regenerate with
 * `npm run schemas`).
 */
export function publishedSchemas(): Record<string, unknown> {
  const contracts = { relay: relayJsonSchemas(), stdio: stdioJsonSchemas(), sync: syncJsonSchemas() };
  return Object.fromEntries(
    Object.entries(contracts).flatMap(([dir, files]) =>
      Object.entries(files).map(([file, schema]) => [`${dir}/${file}`, schema]),
    ),
  );
}
