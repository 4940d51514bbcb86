import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files that shape what the agent does: the TypeScript source of `@usher/agent` (perception,
 * preferences, planning, action, memory, policies, runtime) and of `@usher/booking` (the
 * constraint rules and checker it judges with), without tests and without what only tests and
 * suites run (`testing/`, `suite/`, `eval/`). A study's agent manifest carries their hash, so a
 * changed agent is seen even when its version number is not.
 */
export interface AgentBehaviour {
  /** SHA-256 (hex) over each file's path and content, in path order. */
  hash: string;
  files: number;
}

const LEFT_OUT = new Set(['testing', 'suite', 'eval', 'node_modules']);

let known: AgentBehaviour | null = null;

/** The behaviour hash of the agent this process runs (computed once). */
export function agentBehaviour(): AgentBehaviour {
  known ??= behaviourOf([
    { name: '@usher/agent', dir: dirname(dirname(fileURLToPath(import.meta.url))) },
    { name: '@usher/booking', dir: dirname(fileURLToPath(import.meta.resolve('@usher/booking'))) },
  ]);
  return known;
}

/** The hash of the source files under each root (named by package, so the hash does not depend on where they lie). */
export function behaviourOf(roots: ReadonlyArray<{ name: string; dir: string }>): AgentBehaviour {
  const files = roots.flatMap(({ name, dir }) =>
    sourceFiles(dir).map((file) => ({ file, path: `${name}/${relative(dir, file).split('\\').join('/')}` })),
  );
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = createHash('sha256');
  for (const { file, path } of files) {
    hash.update(`${path}\0${createHash('sha256').update(readFileSync(file)).digest('hex')}\n`);
  }
  return { hash: hash.digest('hex'), files: files.length };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return LEFT_OUT.has(entry.name) ? [] : sourceFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
