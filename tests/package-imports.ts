import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layers of Usher's packages, lowest first, by folder under `packages/`: a package may import
 * only packages of lower layers (and declare only those in its `package.json`). This list is the
 * one place the order is written; docs/architecture.md explains it, and a new package must be
 * placed here before the architecture test passes.
 */
export const LAYERS = [
  'protocol',
  'booking',
  'relay',
  'agent',
  'study',
  'export',
  'study-host',
  'runtime',
  'orchestrator',
  'tui',
  'server',
  'web',
  'harness',
  'cli',
] as const;

export interface Violation {
  /** The importing file (or `package.json`), relative to the root checked. */
  file: string;
  /** What it imports (or declares). */
  specifier: string;
  kind: 'undeclared' | 'upward' | 'outside-package' | 'unplaced';
  message: string;
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readManifest = (path: string): Manifest => JSON.parse(readFileSync(path, 'utf8')) as Manifest;
const declared = (m: Manifest) => Object.keys({ ...m.dependencies, ...m.devDependencies });
const NODE_BUILTINS = new Set(builtinModules);

/** Every TypeScript file of a package folder, tests, scripts and configs included (not node_modules, not built output). */
export function packageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : packageFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : [];
  });
}

/** The modules a file imports or re-exports, statically or by `import()`, types included. */
export function importsOf(text: string): string[] {
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|[\s;])import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...text.matchAll(pattern)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || NODE_BUILTINS.has(packageOf(specifier)) || NODE_BUILTINS.has(specifier);

/**
 * Checks every package under `<root>/packages` against its `package.json` and `layers` (folder
 * names, lowest first): each import of a file, tests included, must name a package its manifest
 * declares (dependencies or devDependencies; the root manifest's devDependencies, the workspace's
 * tools such as vitest, count for every package), no relative import may leave its package, and
 * no package may import or declare a workspace package of a higher layer. A package missing from
 * `layers` is reported too.
 */
export function checkPackages(root: string, layers: readonly string[]): Violation[] {
  const rootManifest = readManifest(join(root, 'package.json'));
  const tools = new Set(Object.keys(rootManifest.devDependencies ?? {}));
  const folders = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, 'packages', e.name, 'package.json')))
    .map((e) => e.name);
  const folderOf = new Map(folders.map((f) => [readManifest(join(root, 'packages', f, 'package.json')).name, f]));
  const violations: Violation[] = [];

  for (const folder of folders) {
    const dir = join(root, 'packages', folder);
    const manifestPath = relative(root, join(dir, 'package.json'));
    const manifest = readManifest(join(dir, 'package.json'));
    const layer = layers.indexOf(folder);
    if (layer < 0) {
      violations.push({
        file: manifestPath,
        specifier: manifest.name,
        kind: 'unplaced',
        message: `${manifest.name} (packages/${folder}) has no place in the layers`,
      });
    }
    const allowed = new Set([...declared(manifest), ...tools, manifest.name]);
    const upward = (name: string) => {
      const target = folderOf.get(name);
      return target !== undefined && target !== folder && layers.indexOf(target) > layer;
    };
    for (const name of declared(manifest)) {
      if (layer >= 0 && upward(name)) {
        violations.push({
          file: manifestPath,
          specifier: name,
          kind: 'upward',
          message: `${manifest.name} declares ${name}, a package of a higher layer`,
        });
      }
    }
    for (const path of packageFiles(dir)) {
      const file = relative(root, path);
      for (const specifier of importsOf(readFileSync(path, 'utf8'))) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(path), specifier);
          if (target !== dir && !target.startsWith(dir + sep)) {
            violations.push({
              file,
              specifier,
              kind: 'outside-package',
              message: `${file} reaches outside packages/${folder} by a relative path (${specifier}); import the package instead`,
            });
          }
          continue;
        }
        if (isBuiltin(specifier)) continue;
        const name = packageOf(specifier);
        if (!allowed.has(name)) {
          violations.push({
            file,
            specifier,
            kind: 'undeclared',
            message: `${file} imports ${specifier}, which ${manifest.name}'s package.json does not declare`,
          });
        }
        if (layer >= 0 && upward(name)) {
          violations.push({
            file,
            specifier,
            kind: 'upward',
            message: `${file} imports ${specifier}, a package of a higher layer than ${manifest.name}`,
          });
        }
      }
    }
  }
  return violations;
}
