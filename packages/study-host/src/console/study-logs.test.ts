import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StudyLogIndex } from './study-logs.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function logsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'usher-study-logs-'));
  dirs.push(dir);
  return dir;
}

const firstLine = (studyId: string) =>
  `${JSON.stringify({
    sessionId: 's-20261125-001',
    eventIndex: 0,
    timestamp: '2026-11-25T10:00:00.000Z',
    direction: 'internal',
    type: 'study.task',
    payload: { studyId, participantId: 'p1', conditionId: 'c1', taskId: 't1' },
  })}\n`;

describe('StudyLogIndex', () => {
  it('looks again at a log whose first line was only partly written when it looked', () => {
    const dir = logsDir();
    const line = firstLine('demo-01');
    writeFileSync(join(dir, 's-20261125-001.jsonl'), line.slice(0, 40));
    const index = new StudyLogIndex(dir, 'demo-01');
    expect(index.list()).toEqual([]);
    appendFileSync(join(dir, 's-20261125-001.jsonl'), line.slice(40));
    expect(index.list()).toEqual([
      {
        sessionId: 's-20261125-001',
        participantId: 'p1',
        conditionId: 'c1',
        taskId: 't1',
        startedAt: '2026-11-25T10:00:00.000Z',
        bytes: Buffer.byteLength(line),
        resumed: false,
      },
    ]);
  });

  it('leaves out logs of other studies and files that are not logs', () => {
    const dir = logsDir();
    writeFileSync(join(dir, 's-20261125-001.jsonl'), firstLine('another-study'));
    writeFileSync(join(dir, 'notes.txt'), firstLine('demo-01'));
    expect(new StudyLogIndex(dir, 'demo-01').list()).toEqual([]);
  });
});
