import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkPackages, LAYERS } from './package-imports.ts';

const root = new URL('..', import.meta.url).pathname;

function sourceFiles(dir: string, { tests = false } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path, { tests });
    return /\.tsx?$/.test(entry.name) && (tests || !/\.test\.tsx?$/.test(entry.name)) ? [path] : [];
  });
}

/** The files of `dir`, tests included, that import a module of one of `packages`. */
function importersOf(dir: string, packages: string[]): string[] {
  return sourceFiles(join(root, dir), { tests: true })
    .filter((f) => importsOf(f).some((s) => packages.some((p) => s === p || s.startsWith(`${p}/`))))
    .map((f) => relative(root, f));
}

function dependenciesOf(pkg: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'));
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/gm)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
}

const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || ['fs', 'path', 'net', 'http', 'os'].includes(spec);

/** Package boundaries (STYLE.md): what runs in a browser never loads Node, and nothing reaches into the server. */
describe('package boundaries', () => {
  const browserSafe = [
    ...sourceFiles(join(root, 'packages/protocol/src')).filter((f) => !f.includes('/relay/node/')),
    ...sourceFiles(join(root, 'packages/booking/src')),
    ...sourceFiles(join(root, 'packages/web/src')),
  ];

  it.each(browserSafe.map((f) => [relative(root, f), f]))('%s imports nothing from Node', (_name, file) => {
    expect(importsOf(file).filter(isNodeBuiltin)).toEqual([]);
  });

  it('keeps the contract, the engine and the web host independent of the server', () => {
    const offenders = browserSafe.filter((f) => importsOf(f).some((s) => s.startsWith('@usher/server')));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });

  it('keeps the contract free of the booking engine', () => {
    const protocol = sourceFiles(join(root, 'packages/protocol/src'));
    expect(protocol.filter((f) => importsOf(f).some((s) => s.startsWith('@usher/booking')))).toEqual([]);
  });

  it('keeps the agent runtime independent of the server (it reaches the host through the relay only)', () => {
    const agent = sourceFiles(join(root, 'packages/agent/src'));
    expect(
      agent.filter((f) => importsOf(f).some((s) => s.startsWith('@usher/server'))).map((f) => relative(root, f)),
    ).toEqual([]);
  });

  it('keeps the relay free of studies: it imports neither the study domain nor the study host, and what it is told of a study comes through RoomHooks', () => {
    expect(sourceFiles(join(root, 'packages/relay/src')).length).toBeGreaterThan(0);
    expect(importersOf('packages/relay/src', ['@usher/study', '@usher/study-host', '@usher/server'])).toEqual([]);
    expect(dependenciesOf('relay').filter((d) => d.startsWith('@usher/study'))).toEqual([]);
  });

  it('keeps the study domain pure: it imports no agent, relay, study host or server', () => {
    const above = ['@usher/agent', '@usher/relay', '@usher/study-host', '@usher/server'];
    expect(importersOf('packages/study/src', above)).toEqual([]);
    expect(dependenciesOf('study').filter((d) => above.includes(d))).toEqual([]);
  });

  it('keeps the analysis export independent of the server, the agent and the web host (the server calls it, not the other way)', () => {
    const exporter = sourceFiles(join(root, 'packages/export/src'));
    expect(exporter.length).toBeGreaterThan(0);
    const offenders = exporter.filter((f) =>
      importsOf(f).some((s) =>
        ['@usher/server', '@usher/agent', '@usher/web', '@usher/cli'].some((p) => s.startsWith(p)),
      ),
    );
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });

  it('keeps the terminal UI on the stdio contract: nothing of the runtime or the agent, in its code or its package.json', () => {
    expect(sourceFiles(join(root, 'packages/tui/src')).length).toBeGreaterThan(0);
    expect(importersOf('packages/tui/src', ['@usher/runtime', '@usher/agent'])).toEqual([]);
    expect(dependenciesOf('tui').filter((d) => ['@usher/runtime', '@usher/agent'].includes(d))).toEqual([]);
  });

  it('keeps the runtime independent of the orchestrator (both speak @usher/protocol/sync)', () => {
    expect(sourceFiles(join(root, 'packages/runtime/src')).length).toBeGreaterThan(0);
    expect(importersOf('packages/runtime/src', ['@usher/orchestrator'])).toEqual([]);
    expect(dependenciesOf('runtime')).not.toContain('@usher/orchestrator');
  });

  it('keeps DuckDB inside the export package', () => {
    const everywhere = sourceFiles(join(root, 'packages')).filter((f) => !f.includes('/packages/export/'));
    const offenders = everywhere.filter((f) => importsOf(f).some((s) => s.startsWith('@duckdb/')));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });
});

/**
 * Every package's imports, tests included, against its package.json, and the layers of
 * tests/package-imports.ts (LAYERS): nothing undeclared, nothing from a higher layer.
 */
describe('package imports', () => {
  const violations = checkPackages(root, LAYERS);

  it('places every package in the layers', () => {
    expect(violations.filter((v) => v.kind === 'unplaced').map((v) => v.message)).toEqual([]);
  });

  it("imports, in every file of every package (tests, scripts and configs included), only what the package's package.json declares", () => {
    expect(violations.filter((v) => v.kind === 'undeclared').map((v) => v.message)).toEqual([]);
  });

  it('imports and declares nothing from a package of a higher layer', () => {
    expect(violations.filter((v) => v.kind === 'upward').map((v) => v.message)).toEqual([]);
  });

  it('reaches into no other package by a relative path', () => {
    expect(violations.filter((v) => v.kind === 'outside-package').map((v) => v.message)).toEqual([]);
  });

  it('reports, on a made-up workspace, an undeclared import in a test, an import from a lower package to a higher one, and a package outside the layers', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'usher-layers-'));
    onTestFinished(() => rmSync(fixture, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    };
    const manifest = (name: string, dependencies: Record<string, string> = {}) =>
      JSON.stringify({ name, dependencies });
    write('package.json', JSON.stringify({ name: 'made-up', devDependencies: { vitest: '*' } }));
    write('packages/low/package.json', manifest('@made-up/low', { zod: '*' }));
    write('packages/low/src/index.ts', "import { z } from 'zod';\nexport const n = z.number();\n");
    // A test of the low package reaches for a library its package.json does not name.
    write(
      'packages/low/src/index.test.ts',
      "import { it } from 'vitest';\nimport leftPad from 'left-pad';\nit('pads', () => leftPad('1', 2));\n",
    );
    // The low package imports the high one (declared, still upward).
    write('packages/low/src/up.ts', "export { shout } from '@made-up/high';\n");
    write('packages/low/package.json', manifest('@made-up/low', { zod: '*', '@made-up/high': '*' }));
    write('packages/high/package.json', manifest('@made-up/high', { '@made-up/low': '*' }));
    write('packages/high/src/index.ts', "import { n } from '@made-up/low';\nexport const shout = () => n;\n");
    write('packages/stray/package.json', manifest('@made-up/stray'));

    const found = checkPackages(fixture, ['low', 'high']).map(({ kind, file, specifier }) => ({
      kind,
      file,
      specifier,
    }));
    expect(found).toEqual(
      expect.arrayContaining([
        { kind: 'undeclared', file: 'packages/low/src/index.test.ts', specifier: 'left-pad' },
        { kind: 'upward', file: 'packages/low/src/up.ts', specifier: '@made-up/high' },
        { kind: 'upward', file: 'packages/low/package.json', specifier: '@made-up/high' },
        { kind: 'unplaced', file: 'packages/stray/package.json', specifier: '@made-up/stray' },
      ]),
    );
    expect(found).toHaveLength(4);
  });
});
