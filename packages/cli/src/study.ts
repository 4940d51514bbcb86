import { formatProblem, loadStudyFile, type Study, StudyFileError } from '@usher/study';

/**
 * `usher study check FILE`: checks a study file as `usher serve --study` will, and says what it
 * holds, or lists every problem with its file, line and field (exit code 1).
 */
export async function checkStudy(file: string): Promise<number> {
  let study: Study;
  try {
    study = loadStudyFile(file);
  } catch (err) {
    if (err instanceof StudyFileError) {
      process.stderr.write(
        `${err.message}\n${err.problems.length} problem${err.problems.length > 1 ? 's' : ''} in ${file}\n`,
      );
      return 1;
    }
    process.stderr.write(`usher: ${(err as Error).message}\n`);
    return 1;
  }
  const { design, conditions, order } = study.assignment;
  const lines = [
    `${file}: study "${study.id}" (${study.title})`,
    // Every condition's participants see it, so a title that names one should be replaced for them.
    `  shown as        "${study.participantTitle ?? study.title}"${study.participantTitle ? ' (participantTitle)' : ' (the title; participantTitle changes it)'}`,
    `  tasks           ${study.tasks.map((t) => `${t.id} (${t.world.name})`).join(', ')}`,
    `  conditions      ${study.conditions.map(describeCondition).join(', ')}`,
    `  assignment      ${design} subjects, conditions ${conditions === 'link' ? 'named by the link' : 'balanced'}, ${order === 'latin-square' ? 'Latin-square order' : 'fixed order'}`,
    `  completion      ${[study.completion.code && `code ${study.completion.code}`, study.completion.redirect && `redirect to ${study.completion.redirect}`].filter(Boolean).join(', ') || 'an end page only'}`,
    `  questionnaires  ${describeQuestionnaires(study)}`,
  ];
  console.log(lines.join('\n'));
  for (const warning of study.warnings) process.stderr.write(`warning: ${formatProblem(warning)}\n`);
  return 0;
}

/** `autopilot (autopilot, rules, asks before submitting)`; the participant's controls when some are off, and scripted mistakes. */
function describeCondition(c: Study['conditions'][number]): string {
  if (c.agent === 'none') return `${c.id} (no agent)`;
  const guard = { never: 'never asks', 'before-submit': 'asks before submitting', 'each-step': 'proposes each step' };
  const off = [!c.controls.pause && 'pause', !c.controls.takeOver && 'take over'].filter(Boolean);
  const controls = c.agent === 'wizard' || off.length === 0 ? '' : `, no ${off.join(' or ')}`;
  const n = c.mistakes.length;
  const mistakes = n > 0 ? `, ${n} scripted mistake${n > 1 ? 's' : ''}` : '';
  return `${c.id} (${c.agent}, ${c.planner}, ${guard[c.guard]}${controls}${mistakes})`;
}

/** `after each task: 1 section (5 items); at the end: sus, last (12 items)` */
function describeQuestionnaires(study: Study): string {
  const one = (sections: Study['questionnaires']['perTask']) =>
    sections &&
    `${sections.map((s) => s.instrument ?? s.id).join(', ')} (${sections.reduce((n, s) => n + s.items.length, 0)} items)`;
  const { perTask, postStudy } = study.questionnaires;
  return (
    [perTask && `after each task: ${one(perTask)}`, postStudy && `at the end: ${one(postStudy)}`]
      .filter(Boolean)
      .join('; ') || 'none'
  );
}
