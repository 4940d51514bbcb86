import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { remark } from 'remark';
import remarkGfm from 'remark-gfm';
import remarkValidateLinks from 'remark-validate-links';
import { type Options as EngineOptions, engine } from 'unified-engine';

/**
 * The Markdown link check of `npm test` (docs/architecture.md, "Dependencies, and why"):
 * remark-validate-links checks every relative link and image against the files and the headings
 * (GitHub's anchors) of the repository, offline; it never fetches an http(s) link. Two rules of
 * our own sit beside it, since a link that works on this machine can still break in a clone: a
 * link may not leave the repository (`../shared/…`), and it may not point at a file that git
 * ignores (logs, data, build output), which a clone does not have.
 */
export interface LinkProblem {
  file: string;
  line: number;
  column: number;
  reason: string;
}

export interface LinkCheckOptions {
  /** The repository's root folder: links resolve inside it. */
  root: string;
  /** The Markdown files to check, relative to `root`. */
  files: string[];
  /**
   * Every path a clone has, relative to `root` (files; their folders follow): a link to a file on
   * disk that is not among them is a problem. Without it, every file on disk may be linked.
   */
  shipped?: Set<string>;
}

/** The Markdown files git tracks or would track (untracked but not ignored): never node_modules. */
export function repositoryMarkdown(root: string): string[] {
  return repositoryPaths(root).filter((path) => path.toLowerCase().endsWith('.md'));
}

/** Every file git tracks or would track, relative to `root`. */
export function repositoryPaths(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split('\0').filter((path) => path.length > 0);
}

interface MdNode {
  type: string;
  url?: string;
  position?: { start: { line: number; column: number } };
  children?: MdNode[];
}

/** The part of a vfile this check uses. */
interface MdFile {
  path: string;
  message(
    reason: string,
    options: { place?: { line: number; column: number }; ruleId: string; source: string },
  ): unknown;
}

const scheme = /^[a-z][a-z0-9+.-]*:/i;

/** Links that leave the repository or point at what a clone lacks, as messages on the file. */
function staysInRepository(root: string, shipped: Set<string> | undefined) {
  const folders = new Set<string>(['']);
  for (const path of shipped ?? []) {
    for (let dir = dirname(path); dir !== '.' && !folders.has(dir); dir = dirname(dir)) folders.add(dir);
  }
  return () => (tree: MdNode, file: MdFile) => {
    const base = dirname(resolve(root, file.path));
    const walk = (node: MdNode) => {
      if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.url) {
        const problem = checkUrl(node.url);
        if (problem) file.message(problem, { place: node.position?.start, ruleId: 'outside', source: 'usher' });
      }
      for (const child of node.children ?? []) walk(child);
    };
    const checkUrl = (url: string): string | undefined => {
      if (url.startsWith('#')) return undefined;
      if (scheme.test(url)) {
        return /^file:/i.test(url) ? `Link to a local file by URL, \`${url}\`, breaks in a clone` : undefined;
      }
      if (url.startsWith('/')) return `Link from the root of a host, \`${url}\`: link relative to this file`;
      const path = decodeURIComponent(url.replace(/[?#].*$/, ''));
      const target = relative(root, resolve(base, path));
      if (target === '..' || target.startsWith(`..${sep}`) || isAbsolute(target)) {
        return `Link outside the repository, \`${url}\`: name it in plain text instead`;
      }
      if (shipped && target !== '' && !shipped.has(target) && !folders.has(target) && existsSync(join(root, target))) {
        return `Link to \`${target}\`, which git ignores or does not have, so a clone lacks it`;
      }
      return undefined;
    };
    walk(tree);
  };
}

/** Checks the links of `files`; resolves with every problem found, in file and line order. */
export function checkMarkdownLinks({ root, files, shipped }: LinkCheckOptions): Promise<LinkProblem[]> {
  return new Promise((resolvePromise, reject) => {
    engine(
      {
        processor: remark().use(remarkGfm).use(staysInRepository(root, shipped)),
        cwd: root,
        files,
        // Given to the engine, not the processor: the engine hands it the file set, so a link to a
        // heading in another file is checked against that file's headings. (Its type names its
        // options, where the engine's list takes plugins of any options.)
        plugins: [[remarkValidateLinks, { repository: false, root }]] as unknown as EngineOptions['plugins'],
        detectConfig: false,
        detectIgnore: false,
        output: false,
        out: false,
        quiet: true,
        silent: true,
        streamError: { write: () => true } as unknown as NodeJS.WritableStream,
      },
      (error, _code, context) => {
        if (error) {
          reject(error);
          return;
        }
        const problems: LinkProblem[] = [];
        for (const file of context?.files ?? []) {
          for (const message of file.messages) {
            problems.push({
              file: relative(root, resolve(root, file.path)),
              line: message.line ?? 0,
              column: message.column ?? 0,
              reason: message.reason,
            });
          }
        }
        problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
        resolvePromise(problems);
      },
    );
  });
}

export const formatProblem = (p: LinkProblem) => `${p.file}:${p.line}:${p.column}: ${p.reason}`;
