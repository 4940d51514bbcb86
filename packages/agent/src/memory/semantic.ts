import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSkill, type Skill, type SkillSource } from './skill-file.ts';

/** The repo's skills folder, found from this file so it does not depend on the working directory. */
export const PROJECT_SKILLS_DIR = fileURLToPath(new URL('../../../../skills/', import.meta.url));

/** A `SKILL.md` (or a folder) that could not be used, and why. */
export interface SkillError {
  path: string;
  message: string;
}

/** A user skill that replaced the project skill of the same name. */
export interface SkillOverride {
  name: string;
  /** The user's file, which is used. */
  path: string;
  /** The project's file, which is not. */
  replaced: string;
}

/** The agent's semantic memory (spec §2.4): the strategies it may recall, sorted by name. */
export interface SemanticMemory {
  skills: Skill[];
  errors: SkillError[];
  overridden: SkillOverride[];
}

export interface LoadSkillsOptions {
  /** Default {@link PROJECT_SKILLS_DIR}. */
  projectDir?: string;
  /** Default `$USHER_SKILLS_DIR`, else `~/.usher/skills`; `null` reads no user skills. */
  userDir?: string | null;
  env?: NodeJS.ProcessEnv;
}

// A strategy is a page of prose; anything far larger is a mistake, not a skill.
const MAX_SKILL_BYTES = 256 * 1024;

/**
 * Loads `<projectDir>/*\/SKILL.md` and `<userDir>/*\/SKILL.md`. Never throws: a bad file (no front
 * matter, invalid YAML, a missing `name` or `description`, an empty body, a name used twice in one
 * folder) becomes an entry in `errors` and the rest still load. A user skill named like a project
 * skill replaces it, listed in `overridden`. A missing user folder is normal and not an error;
 * a missing project folder, or a user folder named explicitly, is.
 */
export function loadSkills(options: LoadSkillsOptions = {}): SemanticMemory {
  const env = options.env ?? process.env;
  const explicitUser = options.userDir !== undefined || Boolean(env.USHER_SKILLS_DIR);
  const userDir =
    options.userDir === undefined ? env.USHER_SKILLS_DIR || join(homedir(), '.usher', 'skills') : options.userDir;
  const errors: SkillError[] = [];
  const project = readFolder(options.projectDir ?? PROJECT_SKILLS_DIR, 'project', true, errors);
  const user = userDir === null ? new Map<string, Skill>() : readFolder(userDir, 'user', explicitUser, errors);
  const overridden: SkillOverride[] = [];
  for (const [name, skill] of user) {
    const replaced = project.get(name);
    if (replaced !== undefined) overridden.push({ name, path: skill.path, replaced: replaced.path });
    project.set(name, skill);
  }
  const skills = [...project.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, errors, overridden };
}

/** The skills of one folder by name; the first file (in folder-name order) wins a duplicate name. */
function readFolder(dir: string, source: SkillSource, required: boolean, errors: SkillError[]): Map<string, Skill> {
  const skills = new Map<string, Skill>();
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return skills;
    errors.push({ path: dir, message: `cannot read the ${source} skills folder (${code ?? String(err)})` });
    return skills;
  }
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry, 'SKILL.md');
    const text = readSkillFile(path, errors);
    if (text === undefined) continue;
    const result = parseSkill(text, path, source);
    if (!result.ok) {
      errors.push({ path, message: result.message });
      continue;
    }
    const first = skills.get(result.skill.name);
    if (first !== undefined) {
      errors.push({ path, message: `duplicate skill name "${result.skill.name}" (already defined in ${first.path})` });
      continue;
    }
    skills.set(result.skill.name, result.skill);
  }
  return skills;
}

/** The file's text; undefined when the folder has no `SKILL.md` (not a skill, no error) or it cannot be used. */
function readSkillFile(path: string, errors: SkillError[]): string | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_SKILL_BYTES) {
      errors.push({ path, message: `the file is ${stat.size} bytes; a skill may have at most ${MAX_SKILL_BYTES}` });
      return undefined;
    }
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    errors.push({ path, message: `cannot read the file (${code ?? String(err)})` });
    return undefined;
  }
}
