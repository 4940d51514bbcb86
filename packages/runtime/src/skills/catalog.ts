import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseSkill } from '@usher/agent';
import type { ConfigError, SkillInfo, SkillsListResult } from '@usher/protocol/stdio';

/** One folder of skills: `<dir>/<skill>/SKILL.md`. */
export interface SkillFolder {
  dir: string;
  scope: SkillInfo['scope'];
  /** A folder named explicitly (`--skills`) must exist; the default ones may be missing. */
  required: boolean;
}

export interface SkillCatalogOptions {
  /** The user's folders: `~/.config/usher/skills` (or `$USHER_CONFIG_HOME/skills`), then `--skills` ones. */
  userFolders: SkillFolder[];
  /** At most this many skills are listed (`truncated` says when there were more); default 1000. */
  maxSkills?: number;
}

// A strategy is a page of prose; anything far larger is a mistake, not a skill (as the agent's loader says).
const MAX_SKILL_BYTES = 256 * 1024;

/**
 * The skills catalog of `skills.list` (ui-protocol-stdio §5.9): `SKILL.md` files with front matter
 * `name` and `description` (parsed by the agent's own {@link parseSkill}, so the catalog and the
 * agent's semantic memory agree on what a valid skill is) from the repo's `skills/` folder and the
 * user's folders. A bad file is listed in `errors` with what to fix. Listings are cached per repo
 * folder until `force_reload`.
 */
export class SkillCatalog {
  private readonly cache = new Map<string, SkillsListResult>();

  constructor(private readonly options: SkillCatalogOptions) {}

  list(repoRoot: string, forceReload = false): SkillsListResult {
    const root = resolve(repoRoot);
    const cached = this.cache.get(root);
    if (cached && !forceReload) return cached;
    const folders: SkillFolder[] = [
      { dir: join(root, 'skills'), scope: 'repo', required: false },
      ...this.options.userFolders,
    ];
    const skills: SkillInfo[] = [];
    const errors: ConfigError[] = [];
    // Names are unique per scope: the first folder (and in it the first entry) that defines one wins.
    const seen = new Map<string, string>();
    for (const folder of folders) readFolder(folder, skills, errors, seen);
    const max = this.options.maxSkills ?? 1000;
    const result: SkillsListResult = { skills: skills.slice(0, max), errors, truncated: skills.length > max };
    this.cache.set(root, result);
    return result;
  }
}

function readFolder(folder: SkillFolder, skills: SkillInfo[], errors: ConfigError[], seen: Map<string, string>): void {
  let entries: string[];
  try {
    entries = readdirSync(folder.dir).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' || folder.required) {
      errors.push({ path: folder.dir, message: `cannot read the skills folder (${code ?? String(err)})` });
    }
    return;
  }
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const path = join(folder.dir, entry, 'SKILL.md');
    let text: string;
    let mtimeMs: number;
    try {
      const stat = statSync(path);
      if (!stat.isFile()) continue;
      if (stat.size > MAX_SKILL_BYTES) {
        errors.push({ path, message: `the file is ${stat.size} bytes; a skill may have at most ${MAX_SKILL_BYTES}` });
        continue;
      }
      text = readFileSync(path, 'utf8');
      mtimeMs = stat.mtimeMs;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A folder without a SKILL.md is not a skill (nor an error).
      if (code !== 'ENOENT' && code !== 'ENOTDIR') errors.push({ path, message: `cannot read the file (${code})` });
      continue;
    }
    const parsed = parseSkill(text, path, folder.scope === 'repo' ? 'project' : 'user');
    if (!parsed.ok) {
      errors.push({ path, message: parsed.message });
      continue;
    }
    const { name, description } = parsed.skill;
    const id = `${folder.scope}:${name}`;
    const first = seen.get(id);
    if (first !== undefined) {
      errors.push({ path, message: `duplicate skill name "${name}" (already defined in ${first})` });
      continue;
    }
    seen.set(id, path);
    skills.push({ id, name, description, path, dir: dirname(path), scope: folder.scope, mtime_ms: mtimeMs });
  }
}
