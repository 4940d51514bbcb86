import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkMarkdownLinks, formatProblem, repositoryMarkdown, repositoryPaths } from './markdown-links.ts';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

describe('Markdown links', () => {
  it('finds no broken link in the repository’s Markdown (files, headings, nothing outside the repository)', async () => {
    const files = repositoryMarkdown(root);
    expect(files).toContain('README.md');
    expect(files.some((f) => f.includes('node_modules'))).toBe(false);
    const problems = await checkMarkdownLinks({ root, files, shipped: new Set(repositoryPaths(root)) });
    expect(problems.map(formatProblem)).toEqual([]);
  }, 60_000);

  describe('on a repository made for the test', () => {
    const dir = mkdtempSync(join(tmpdir(), 'usher-links-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };

    it('fails on a missing file, a missing heading here or in another file, and a link out of the repository', async () => {
      write(
        'repo/README.md',
        [
          '# Start',
          '',
          '## Two words',
          '',
          '- [fine](docs/guide.md#a-heading), [fine too](#two-words), [a folder](docs), [web](http://example.invalid/x)',
          '- [gone](docs/missing.md)',
          '- [no such heading](#nowhere)',
          '- [no such heading there](docs/guide.md#not-there)',
          '- [outside](../shared/specs/spec.md)',
          '- [from the host root](/docs/guide.md)',
          '- [ignored by git](logs/run.log)',
          '',
        ].join('\n'),
      );
      write('repo/docs/guide.md', '# Guide\n\n## A heading\n\n[back](../README.md#start)\n');
      write('repo/logs/run.log', 'not in a clone\n');
      write('shared/specs/spec.md', '# Spec\n');

      const problems = await checkMarkdownLinks({
        root: join(dir, 'repo'),
        files: ['README.md', 'docs/guide.md'],
        shipped: new Set(['README.md', 'docs/guide.md']),
      });
      const lines = problems.map(formatProblem);
      expect(lines).toHaveLength(6);
      expect(lines[0]).toMatch(/^README\.md:6:\d+: Cannot find file `docs\/missing\.md`/);
      expect(lines[1]).toMatch(/^README\.md:7:\d+: Cannot find heading for `#nowhere`/);
      expect(lines[2]).toMatch(/^README\.md:8:\d+: Cannot find heading for `#not-there` in `docs\/guide\.md`/);
      expect(lines[3]).toMatch(/^README\.md:9:\d+: Link outside the repository, `\.\.\/shared\/specs\/spec\.md`/);
      expect(lines[4]).toMatch(/^README\.md:10:\d+: Link from the root of a host/);
      expect(lines[5]).toMatch(/^README\.md:11:\d+: Link to `logs\/run\.log`, which git ignores/);
    });

    it('passes the same files once the links are fixed', async () => {
      write(
        'repo/README.md',
        '# Start\n\n[guide](docs/guide.md#a-heading), the spec beside the repository (`specs/spec.md`)\n',
      );
      const problems = await checkMarkdownLinks({ root: join(dir, 'repo'), files: ['README.md', 'docs/guide.md'] });
      expect(problems).toEqual([]);
    });
  });
});
