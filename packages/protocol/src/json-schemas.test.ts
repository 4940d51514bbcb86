import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { publishedSchemas } from './json-schemas.ts';

it.each(Object.entries(publishedSchemas()))('schemas/%s is up to date (run `npm run schemas`)', (file, schema) => {
  const committed = JSON.parse(readFileSync(new URL(`../schemas/${file}`, import.meta.url), 'utf8'));
  expect(committed).toEqual(JSON.parse(JSON.stringify(schema)));
});
