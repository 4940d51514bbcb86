import { mkdirSync, writeFileSync } from 'node:fs';
import { publishedSchemas } from '../src/json-schemas.ts';

const dir = new URL('../schemas/', import.meta.url);
for (const [file, schema] of Object.entries(publishedSchemas())) {
  const target = new URL(file, dir);
  mkdirSync(new URL('.', target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote packages/protocol/schemas/${file}`);
}
