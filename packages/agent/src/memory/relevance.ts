import type { Stage } from '@usher/protocol';
import type { Skill } from './skill-file.ts';

// Words that say nothing about which strategy applies.
const STOPWORDS = new Set(
  [
    'the and for with that this what when where which who how are was were you your our not but any all can',
    'from into than then them they their there have has had will would should could about please want like',
    'just only also its use using one two get got let make need',
  ]
    .join(' ')
    .split(' '),
);

/** Lower-case word stems: plural `s` dropped so "seats" meets "seat"; short and filler words left out. */
export function keywords(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    out.add(word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
  }
  return out;
}

/**
 * The skills worth showing the planner now, best first, at most `limit`. MVP heuristic: keyword
 * overlap between the query (the stage name plus `text`, e.g. the participant's last message or an
 * error code) and each skill's name and description; a word in the name counts 2, in the
 * description 1; ties go by name. Skills with no overlap are left out. The body is not searched,
 * so a skill's description must say when it applies. No embeddings, no learning: predictable
 * and cheap, to be replaced when a planner needs better recall.
 */
export function relevantSkills(skills: readonly Skill[], stage: Stage | null, text: string, limit = 3): Skill[] {
  const query = keywords(`${stage ?? ''} ${text}`);
  const scored = skills.map((skill) => {
    const name = keywords(skill.name);
    const description = keywords(skill.description);
    let score = 0;
    for (const word of query) score += (name.has(word) ? 2 : 0) + (description.has(word) ? 1 : 0);
    return { skill, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.skill.name < b.skill.name ? -1 : a.skill.name > b.skill.name ? 1 : 0))
    .slice(0, limit)
    .map((s) => s.skill);
}
