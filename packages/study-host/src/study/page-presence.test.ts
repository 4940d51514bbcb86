import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Participant } from '@usher/study';
import { afterAll, describe, expect, it } from 'vitest';
import { StudyLogIndex } from '../console/study-logs.ts';
import { pageAbsence } from './page-presence.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-page-presence-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MIN = 60_000;
const T0 = Date.parse('2026-11-20T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * MIN).toISOString();

/** A study log of one task of participant p-1: records as [minute, type, extra]. */
function writeLog(dir: string, sessionId: string, records: [number, string, Record<string, unknown>?][]) {
  const lines = records.map(([minute, type, extra], eventIndex) =>
    JSON.stringify({
      sessionId,
      eventIndex,
      timestamp: at(minute),
      direction: 'internal',
      type,
      payload: type === 'study.task' ? { studyId: 'st', participantId: 'p-1', taskId: 't1', ...extra } : { ...extra },
      ...(extra?.role === 'host' && { peer: 'host-1' }),
    }),
  );
  writeFileSync(join(dir, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
}

const participant = {
  id: 'p-1',
  taskIndex: 0,
  plan: { tasks: [{ taskId: 't1' }] },
  updatedAt: at(0),
} as unknown as Participant;

function absence(logs: [string, [number, string, Record<string, unknown>?][]][], nowMinute: number): number {
  const dir = mkdtempSync(join(work, 'logs-'));
  for (const [id, records] of logs) writeLog(dir, id, records);
  return pageAbsence(new StudyLogIndex(dir, 'st'), dir, participant, new Date(T0 + nowMinute * MIN)) / MIN;
}

describe('how long a task’s page had been gone when the server stopped', () => {
  it('reads the page from its join to its leave, and the stop from relay.shutdown, not from the clock', () => {
    const joined: [number, string, Record<string, unknown>?][] = [
      [0, 'study.task'],
      [1, 'relay.join', { role: 'host' }],
    ];
    // Silent but there at the stop: not gone, however late the restart.
    expect(absence([['s-20261120-001', [...joined, [20, 'relay.shutdown']]]], 90)).toBe(0);
    // Left 12 minutes before the stop (the session not closed yet): gone 12.
    const left: [number, string, Record<string, unknown>?][] = [...joined, [8, 'relay.left', { role: 'host' }]];
    expect(absence([['s-20261120-001', [...left, [20, 'relay.shutdown']]]], 90)).toBe(12);
    // Closed for idleness: gone for good until the page comes.
    expect(absence([['s-20261120-001', [...left, [18, 'relay.session-closed']]]], 19)).toBe(Number.POSITIVE_INFINITY);
    // A log a killed server cut short: gone until now, by the study's clock.
    expect(absence([['s-20261120-001', left]], 15)).toBe(7);
    // No log: since the registry's last step.
    expect(absence([], 4)).toBe(4);
  });

  it('does not count a session a restart reopened as the page being there', () => {
    expect(
      absence(
        [
          [
            's-20261120-001',
            [
              [0, 'study.task'],
              [1, 'relay.join', { role: 'host' }],
              [2, 'relay.left', { role: 'host' }],
              [5, 'relay.shutdown'],
            ],
          ],
          [
            's-20261120-002',
            [
              [6, 'study.task', { resumed: true }],
              [20, 'relay.shutdown'],
            ],
          ],
        ],
        21,
      ),
    ).toBe(18);
  });
});
