import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { candidateShowings, parseScenario, type Scenario } from '@usher/booking';
import { isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { type StudyFile, StudyFileSchema, type Task } from './schema.ts';
import { closest, fieldsAt } from './suggest.ts';

/** Largest study file read: a study with long consent texts and twenty tasks is far smaller. */
const MAX_STUDY_FILE_BYTES = 1024 * 1024;

/** One problem in a study file, where it is: `file:line:column`, the field's path, what was expected. */
export interface StudyFileProblem {
  file: string;
  line: number;
  column: number;
  /** `tasks[1].scenario`; empty for the file as a whole. */
  field: string;
  message: string;
}

/** A study file that cannot be used; its message lists every problem, one a line, as a compiler would. */
export class StudyFileError extends Error {
  override readonly name = 'StudyFileError';
  constructor(readonly problems: StudyFileProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(p: StudyFileProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.field ? `${p.field}: ` : ''}${p.message}`;
}

/** A task with its scenario loaded. */
export interface LoadedTask extends Task {
  /** The scenario file's absolute path. */
  scenarioPath: string;
  world: Scenario;
}

/** A study file, checked and with every task's scenario loaded. */
export interface Study extends Omit<StudyFile, 'tasks'> {
  /** The study file's absolute path. */
  path: string;
  tasks: LoadedTask[];
  /** What may be a mistake but can be meant (a task no showing of its scenario can satisfy). */
  warnings: StudyFileProblem[];
}

/**
 * Reads a study file (YAML, or JSON, which is YAML too) and checks it whole: its syntax, every
 * field against {@link StudyFileSchema}, and each task's scenario file (found relative to the
 * study file, checked as `usher serve --scenario` checks one). Every problem is reported with the
 * file, the line and the field, in one {@link StudyFileError}.
 */
export function loadStudyFile(path: string): Study {
  const file = resolve(path);
  const text = readText(file, path);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  if (doc.errors.length > 0) {
    throw new StudyFileError(
      doc.errors.map((e) => ({
        file: path,
        ...at(e.pos[0]),
        field: '',
        message: `not valid YAML: ${firstLine(e.message)}`,
      })),
    );
  }
  const where = (fieldPath: readonly PropertyKey[]) => {
    // The deepest node the path reaches: the field itself, or the object it is missing from.
    for (let n = fieldPath.length; n >= 0; n--) {
      const node = doc.getIn(fieldPath.slice(0, n) as unknown[], true);
      if (isNode(node) && node.range) return at(node.range[0]);
    }
    return { line: 1, column: 1 };
  };
  // A key's own line (an unknown field is reported where it is written, not at its object).
  const keyAt = (objectPath: readonly PropertyKey[], key: string) => {
    const node = doc.getIn(objectPath as unknown[], true);
    const pair = isMap(node) ? node.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
    return isNode(pair?.key) && pair.key.range ? at(pair.key.range[0]) : where(objectPath);
  };
  const raw = doc.toJS({ maxAliasCount: 100 }) as unknown;
  // With the input on each issue, a value of the wrong type is told apart from a missing one.
  const parsed = StudyFileSchema.safeParse(raw, { reportInput: true });
  const problems: StudyFileProblem[] = parsed.success ? [] : fieldProblems(parsed.error.issues);
  function fieldProblems(issues: readonly z.core.$ZodIssue[]): StudyFileProblem[] {
    const found: StudyFileProblem[] = [];
    // A field missing because it is mistyped is one mistake: said once, at the typo, as a "did you mean".
    const meant = new Set<string>();
    for (const issue of issues) {
      if (issue.code !== 'unrecognized_keys') continue;
      const known = fieldsAt(StudyFileSchema, issue.path);
      for (const key of issue.keys) {
        const guess = closest(key, known);
        if (guess) meant.add(fieldName([...issue.path, guess]));
        found.push({
          file: path,
          ...keyAt(issue.path, key),
          field: fieldName([...issue.path, key]),
          message: `unknown field "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
        });
      }
    }
    for (const issue of issues) {
      if (issue.code === 'unrecognized_keys') continue;
      const field = fieldName(issue.path);
      if (meant.has(field) && issue.code === 'invalid_type' && issue.input === undefined) continue;
      found.push({ file: path, ...where(issue.path), field, message: describeIssue(issue) });
    }
    return found;
  }
  const warnings: StudyFileProblem[] = [];
  const tasks: LoadedTask[] = [];
  // Every task's scenario is checked, also when other fields have problems: all of them at once.
  const written = (raw as { tasks?: unknown } | null)?.tasks;
  const taskList: { task: unknown; i: number }[] = Array.isArray(written)
    ? written.map((task, i) => ({ task, i }))
    : [];
  for (const { task: rawTask, i } of taskList) {
    const task = (parsed.success ? parsed.data.tasks[i] : rawTask) as Task | undefined;
    if (typeof task?.scenario !== 'string') continue;
    const scenarioPath = resolve(dirname(file), task.scenario);
    const problem = (message: string) => {
      problems.push({ file: path, ...where(['tasks', i, 'scenario']), field: `tasks[${i}].scenario`, message });
    };
    let json: unknown;
    try {
      json = JSON.parse(readText(scenarioPath, task.scenario));
    } catch (err) {
      problem(
        err instanceof SyntaxError ? `${task.scenario} is not valid JSON: ${err.message}` : (err as Error).message,
      );
      continue;
    }
    let world: Scenario;
    try {
      world = parseScenario(json, task.scenario);
    } catch (err) {
      problem(`${task.scenario} is not a valid scenario: ${(err as Error).message}`);
      continue;
    }
    if (!parsed.success) continue;
    tasks.push({ ...task, scenarioPath, world });
    const story = { text: task.goal ?? task.title, ...task.success };
    if (candidateShowings(world, story).length === 0) {
      warnings.push({
        file: path,
        ...where(['tasks', i, 'success']),
        field: `tasks[${i}].success`,
        message: `no showing in ${task.scenario} meets these constraints: no participant can succeed at this task`,
      });
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new StudyFileError(problems.sort((a, b) => a.line - b.line));
  }
  return { ...parsed.data, path: file, tasks, warnings };
}

function readText(file: string, shown: string): string {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new Error(`${shown} is a folder, not a file`);
    size = stat.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `no such file: ${shown}` : (err as Error).message);
  }
  if (size > MAX_STUDY_FILE_BYTES) throw new Error(`${shown} is ${size} bytes; the limit is ${MAX_STUDY_FILE_BYTES}`);
  return readFileSync(file, 'utf8');
}

/** `tasks[1].success.hard[0].kind` */
function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    '',
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `missing (expected ${issue.expected})`;
  return issue.message;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
