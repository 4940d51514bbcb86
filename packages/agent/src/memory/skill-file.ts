import { parseDocument } from 'yaml';
import { z } from 'zod';

/** Where a skill comes from: the repo's `skills/` folder or the user's. */
export type SkillSource = 'project' | 'user';

/** One strategy the agent can recall (DESIGN.md `skills.list`): a `SKILL.md` file's front matter and body. */
export interface Skill {
  name: string;
  description: string;
  /** The `SKILL.md` file it was read from. */
  path: string;
  source: SkillSource;
  /** The Markdown after the front matter, trimmed. */
  body: string;
}

/**
 * The required front matter. Other keys are allowed and ignored, so a skill written for another
 * tool that adds its own keys still loads.
 */
const FrontMatterSchema = z.looseObject(
  {
    name: z.string({ error: 'is required and must be a string' }).trim().min(1, 'must not be empty'),
    description: z.string({ error: 'is required and must be a string' }).trim().min(1, 'must not be empty'),
  },
  { error: 'must be a YAML mapping with `name` and `description`' },
);

// `---` on the first line, the YAML, then `---` on a line of its own; CRLF and a BOM are accepted.
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** The parse of one `SKILL.md`: a skill, or a message saying what to fix. */
export type SkillParse = { ok: true; skill: Skill } | { ok: false; message: string };

/** Parses the text of one `SKILL.md`. Never throws: every defect becomes a message. */
export function parseSkill(text: string, path: string, source: SkillSource): SkillParse {
  const match = FRONT_MATTER.exec(text);
  if (match === null) {
    return { ok: false, message: 'no front matter: the file must start with a `---` line, YAML, and a closing `---`' };
  }
  let data: unknown;
  try {
    const doc = parseDocument(match[1] ?? '');
    const yamlError = doc.errors[0];
    if (yamlError !== undefined) {
      // The YAML starts on the file's second line; point at the file's line, where the author will look.
      const line = yamlError.linePos?.[0].line;
      const where = line === undefined ? '' : ` (line ${line + 1})`;
      return { ok: false, message: `invalid YAML in front matter${where}: ${firstSentence(yamlError.message)}` };
    }
    data = doc.toJS();
  } catch (err) {
    // toJS throws too, e.g. on an alias bomb; any failure here is the YAML's fault.
    return { ok: false, message: `invalid YAML in front matter: ${firstSentence(String(err))}` };
  }
  const parsed = FrontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) =>
      i.path.length > 0 ? `\`${i.path.join('.')}\` ${i.message}` : i.message,
    );
    return { ok: false, message: `front matter ${detail.join('; ')}` };
  }
  const body = text.slice(match[0].length).trim();
  if (body === '') return { ok: false, message: 'the skill has no body after its front matter' };
  return { ok: true, skill: { name: parsed.data.name, description: parsed.data.description, path, source, body } };
}

/** The yaml package's messages end with their position and a code excerpt; keep what is wrong. */
function firstSentence(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '').trim();
}
