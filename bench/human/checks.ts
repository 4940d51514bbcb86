import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StudyLogRecordSchema } from '@usher/protocol';
import { StudyRegistry } from '@usher/study';
import type { SessionSeen } from './page-host.ts';
import type { Outcome, Recorder } from './participant.ts';

/** What the end of a step found on disk, against what the participants did. */
export interface StepChecks {
  /** Study logs (one per task session) that are complete and valid, of those the pages saw. */
  logsOk: number;
  logs: number;
  /** Questionnaires stored in the registry with every answer given, of those the server took. */
  storedOk: number;
  /** Lines in the questionnaire log for them. */
  loggedOk: number;
  questionnaires: number;
  /** The first few problems found. */
  problems: string[];
}

/**
 * Checks a session's log against what its page saw: every line a valid record of this session,
 * `eventIndex` without a gap from 0, the task's end recorded last when the participant ended it, and as
 * many tool calls, agent chat lines and participant messages as the page sent or received.
 */
function checkLog(logsDir: string, sessionId: string, seen: SessionSeen, ended: boolean): string | null {
  const path = join(logsDir, `${sessionId}.jsonl`);
  if (!existsSync(path)) return `${sessionId}: no log`;
  const text = readFileSync(path, 'utf8');
  if (!text.endsWith('\n')) return `${sessionId}: the log does not end with a whole line`;
  const counts = new Map<string, number>();
  const lines = text.slice(0, -1).split('\n');
  for (const [i, line] of lines.entries()) {
    let record: ReturnType<typeof StudyLogRecordSchema.parse>;
    try {
      record = StudyLogRecordSchema.parse(JSON.parse(line));
    } catch (err) {
      return `${sessionId}: line ${i + 1} is not a study-log record (${(err as Error).message.slice(0, 120)})`;
    }
    if (record.sessionId !== sessionId) return `${sessionId}: line ${i + 1} names session ${record.sessionId}`;
    if (record.eventIndex !== i) return `${sessionId}: line ${i + 1} has eventIndex ${record.eventIndex}`;
    counts.set(record.type, (counts.get(record.type) ?? 0) + 1);
  }
  const last = JSON.parse(lines.at(-1) as string) as { type: string };
  if (ended && last.type !== 'study.task-ended')
    return `${sessionId}: the log ends with ${last.type}, not the task's end`;
  const expect: Array<[string, number]> = [
    ['tool.call', seen.toolCalls],
    ['agent.message', seen.agentMessages],
    ['user.message', seen.userMessages],
  ];
  for (const [type, n] of expect) {
    if ((counts.get(type) ?? 0) !== n)
      return `${sessionId}: ${counts.get(type) ?? 0} ${type} records; the page saw ${n}`;
  }
  return null;
}

/**
 * After a step (every participant finished or failed): each task's study log complete and valid,
 * and each questionnaire the server took both in the registry, with every answer, and in the
 * questionnaire log.
 */
export function checkStep(
  outcomes: Outcome[],
  recorder: Recorder,
  logsDir: string,
  registryPath: string,
  studyId: string,
): StepChecks {
  const problems: string[] = [];
  let logs = 0;
  let logsOk = 0;
  for (const outcome of outcomes) {
    for (const [sessionId, seen] of outcome.sessions) {
      logs += 1;
      // A participant who failed left the task open: their log need not be closed yet.
      const problem = checkLog(logsDir, sessionId, seen, outcome.ok);
      if (problem) problems.push(`${outcome.id}: ${problem}`);
      else logsOk += 1;
    }
  }

  const registry = new StudyRegistry(registryPath);
  const answers = new Map<string, number>();
  try {
    for (const answer of registry.questionnaireAnswers(studyId)) {
      const key = `${answer.participantId}/${answer.questionnaire}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
  } finally {
    registry.close();
  }
  const logged = new Set<string>();
  const logPath = join(logsDir, `${studyId}.questionnaires.jsonl`);
  const logText = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
  for (const [i, line] of logText.split('\n').entries()) {
    if (line === '') continue;
    try {
      const record = JSON.parse(line) as { participantId?: unknown; questionnaire?: unknown };
      logged.add(`${record.participantId}/${record.questionnaire}`);
    } catch {
      problems.push(`questionnaire log: line ${i + 1} is not JSON`);
    }
  }
  let storedOk = 0;
  let loggedOk = 0;
  for (const q of recorder.questionnaires) {
    const key = `${q.participantId}/${q.kind}`;
    if (answers.get(key) === q.answers) storedOk += 1;
    else problems.push(`${key}: ${answers.get(key) ?? 0} answers in the registry, ${q.answers} given`);
    if (logged.has(key)) loggedOk += 1;
    else problems.push(`${key}: not in the questionnaire log`);
  }
  return {
    logsOk,
    logs,
    storedOk,
    loggedOk,
    questionnaires: recorder.questionnaires.length,
    problems: problems.slice(0, 5),
  };
}
