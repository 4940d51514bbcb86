import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

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
    ...sourceFiles(join(root, 'packages/web/src')).filter((f) => !f.includes('/e2e/')),
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
