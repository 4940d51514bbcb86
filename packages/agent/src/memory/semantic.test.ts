import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { relevantSkills } from './relevance.ts';
import { loadSkills, PROJECT_SKILLS_DIR } from './semantic.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'usher-skills-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function skill(dir: string, folder: string, text: string): string {
  mkdirSync(join(dir, folder), { recursive: true });
  const path = join(dir, folder, 'SKILL.md');
  writeFileSync(path, text);
  return path;
}
const good = (name: string, description = `How to ${name}`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nDo it well.\n`;

describe('loadSkills', () => {
  it('loads good files and turns each bad one into a clear error', () => {
    const project = join(root, 'project');
    skill(project, 'alpha', good('alpha'));
    skill(project, 'crlf', '\uFEFF---\r\nname: crlf\r\ndescription: Windows line ends\r\n---\r\nBody\r\n');
    const noFront = skill(project, 'b-no-front', '# Just markdown\n');
    const noName = skill(project, 'c-no-name', '---\ndescription: nameless\n---\nBody\n');
    const badYaml = skill(project, 'd-bad-yaml', '---\nname: [unclosed\ndescription: x\n---\nBody\n');
    const numeric = skill(project, 'e-numeric', '---\nname: e\ndescription: 42\n---\nBody\n');
    const dupe = skill(project, 'f-dupe', good('alpha', 'a second alpha'));
    const empty = skill(project, 'g-empty', '---\nname: g\ndescription: nothing inside\n---\n\n');
    mkdirSync(join(project, 'h-assets-only'));
    skill(project, '.hidden', good('hidden'));

    const result = loadSkills({ projectDir: project, userDir: null });
    expect(result.skills.map((s) => s.name)).toEqual(['alpha', 'crlf']);
    expect(result.skills[0]).toMatchObject({
      source: 'project',
      description: 'How to alpha',
      body: '# alpha\n\nDo it well.',
    });
    expect(result.skills[1]?.body).toBe('Body');
    const byPath = Object.fromEntries(result.errors.map((e) => [e.path, e.message]));
    expect(Object.keys(byPath).sort()).toEqual([noFront, noName, badYaml, numeric, dupe, empty].sort());
    expect(byPath[noFront]).toMatch(/^no front matter/);
    expect(byPath[noName]).toBe('front matter `name` is required and must be a string');
    expect(byPath[badYaml]).toMatch(/^invalid YAML in front matter \(line 3\): \S/);
    expect(byPath[numeric]).toBe('front matter `description` is required and must be a string');
    expect(byPath[dupe]).toMatch(/^duplicate skill name "alpha" \(already defined in .*alpha/);
    expect(byPath[empty]).toBe('the skill has no body after its front matter');
  });

  it('lets a user skill replace the project skill of the same name, and says so', () => {
    const project = join(root, 'project');
    const user = join(root, 'user');
    const replaced = skill(project, 'recovery', good('recovery', 'project recovery'));
    skill(project, 'seats', good('seats'));
    const mine = skill(user, 'my-recovery', good('recovery', 'my recovery'));
    skill(user, 'extra', good('extra'));

    const result = loadSkills({ projectDir: project, env: { USHER_SKILLS_DIR: user } });
    expect(result.errors).toEqual([]);
    expect(result.skills.map((s) => [s.name, s.source])).toEqual([
      ['extra', 'user'],
      ['recovery', 'user'],
      ['seats', 'project'],
    ]);
    expect(result.skills.find((s) => s.name === 'recovery')?.description).toBe('my recovery');
    expect(result.overridden).toEqual([{ name: 'recovery', path: mine, replaced }]);
  });

  it('reports a missing project folder or a named user folder, never throws', () => {
    const missing = join(root, 'nowhere');
    const result = loadSkills({ projectDir: missing, userDir: join(root, 'also-nowhere') });
    expect(result.skills).toEqual([]);
    expect(result.errors.map((e) => e.message)).toEqual([
      'cannot read the project skills folder (ENOENT)',
      'cannot read the user skills folder (ENOENT)',
    ]);
  });
});

describe("the repo's skills folder", () => {
  const { skills, errors } = loadSkills({ projectDir: PROJECT_SKILLS_DIR, userDir: null });

  it('loads every SKILL.md without an error, each named for its folder', () => {
    expect(errors).toEqual([]);
    const folders = readdirSync(PROJECT_SKILLS_DIR).filter((f) => !f.startsWith('.'));
    expect(skills.map((s) => s.name).sort()).toEqual(folders.sort());
    expect(skills.length).toBeGreaterThanOrEqual(3);
    for (const s of skills) expect(s.body.length).toBeGreaterThan(200);
  });

  it('recalls the skill a planner needs on each occasion', () => {
    const top = (stage: Parameters<typeof relevantSkills>[1], text: string) =>
      relevantSkills(skills, stage, text)[0]?.name;
    expect(top('seat', 'two seats together in the middle')).toBe('seat-selection');
    expect(top('seat', 'TOOL_EXECUTION_FAILED: seat C7 is already taken')).toBe('recovery');
    expect(top('time', 'we need to finish before 22:30')).toBe('time-windows');
    expect(top('confirm', 'ask the participant before the irreversible submit')).toBe('clarify-before-acting');
    expect(relevantSkills(skills, null, 'zebra xylophone')).toEqual([]);
  });
});
