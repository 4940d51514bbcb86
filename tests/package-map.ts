import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYERS } from './package-imports.ts';

/*
 * The package map of docs/architecture.md, generated from the imports by dependency-cruiser
 * (settings in .dependency-cruiser.cjs): `npm run map` writes it between the markers,
 * tests/package-map.test.ts fails when it is out of date.
 */

export const MAP_START =
  '<!-- generated package map: start. `npm run map` writes this section from the imports (dependency-cruiser); do not edit it by hand. -->';
export const MAP_END = '<!-- generated package map: end -->';

const root = fileURLToPath(new URL('..', import.meta.url));
export const ARCHITECTURE_DOC = join(root, 'docs/architecture.md');

/** A module and what it imports, as dependency-cruiser reports them (paths from the repository's root). */
export interface CruisedModule {
  source: string;
  dependencies: { resolved: string }[];
}

/** Every TypeScript module under `packages/` (tests included, built output not) with its imports, read by dependency-cruiser. */
export function cruisePackages(): CruisedModule[] {
  // The command's own file: the package's exports name neither it nor its manifest.
  const bin = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const json = execFileSync(
    process.execPath,
    [
      bin,
      'packages',
      '--config',
      '.dependency-cruiser.cjs',
      '--include-only',
      '^packages/',
      '--exclude',
      '(^|/)(node_modules|dist)/',
      '--output-type',
      'json',
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
  );
  return (JSON.parse(json) as { modules: CruisedModule[] }).modules;
}

const packageOf = (path: string) => /^packages\/([^/]+)\//.exec(path)?.[1] ?? null;
const isTest = (path: string) => /\.test\.tsx?$/.test(path);

/**
 * The map as Markdown: a Mermaid graph of which package imports which (a dotted arrow where only
 * tests do), the same as a list for reading without Mermaid, packages in the order of the layers.
 */
export function renderPackageMap(modules: CruisedModule[], layers: readonly string[] = LAYERS): string {
  // from → to → whether code (not only tests) imports it
  const edges = new Map<string, Map<string, boolean>>();
  for (const module of modules) {
    const from = packageOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = packageOf(dependency.resolved);
      if (!to || to === from) continue;
      const targets = edges.get(from) ?? new Map<string, boolean>();
      targets.set(to, (targets.get(to) ?? false) || !isTest(module.source));
      edges.set(from, targets);
    }
  }
  const rank = (name: string) => {
    const at = layers.indexOf(name);
    return at < 0 ? layers.length : at;
  };
  const byLayer = (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b);
  const packages = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((t) => [...t.keys()])])].sort(byLayer);
  const id = (name: string) => name.replace(/[^a-z0-9]/gi, '_');
  const lines = ['```mermaid', 'flowchart BT'];
  for (const name of packages) lines.push(`  ${id(name)}["${name}"]`);
  const list: string[] = [];
  for (const from of packages) {
    const targets = [...(edges.get(from) ?? new Map<string, boolean>())].sort(([a], [b]) => byLayer(a, b));
    for (const [to, code] of targets) lines.push(`  ${id(from)} ${code ? '-->' : '-.->'} ${id(to)}`);
    const code = targets.filter(([, c]) => c).map(([t]) => t);
    const tests = targets.filter(([, c]) => !c).map(([t]) => t);
    const parts = [code.length > 0 ? code.join(', ') : 'no other package'];
    if (tests.length > 0) parts.push(`its tests also ${tests.join(', ')}`);
    list.push(`- **${from}** imports ${parts.join('; ')}`);
  }
  lines.push('```');
  return [
    'Drawn by dependency-cruiser from every import under `packages/`, lowest layer at the bottom; a',
    'dotted arrow is an import made by tests only (a devDependency).',
    '',
    ...lines,
    '',
    ...list,
  ].join('\n');
}

/** `doc` with the section between the markers replaced by `map`; throws when the markers are missing. */
export function withPackageMap(doc: string, map: string): string {
  const start = doc.indexOf(MAP_START);
  const end = doc.indexOf(MAP_END);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md lacks the markers ${MAP_START} … ${MAP_END}`);
  return `${doc.slice(0, start + MAP_START.length)}\n\n${map}\n\n${doc.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
  const updated = withPackageMap(doc, renderPackageMap(cruisePackages()));
  if (updated === doc) process.stdout.write('docs/architecture.md: the package map is up to date\n');
  else {
    writeFileSync(ARCHITECTURE_DOC, updated);
    process.stdout.write('docs/architecture.md: the package map is written\n');
  }
}
