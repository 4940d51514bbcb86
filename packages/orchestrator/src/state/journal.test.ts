import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, JournalError } from './journal.ts';
import type { JournalRecord } from './records.ts';
import { StateError } from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'usher-journal-'));
  dirs.push(dir);
  return dir;
}

const at = '2026-11-21T10:00:00.000Z';
const HISTORY: JournalRecord[] = [
  { op: 'session', at, session_id: 'ses_1' },
  { op: 'interaction', at, session_id: 'ses_1', request_id: 'req_1', message: 'two for Orbital Drift', agent_id: 'a' },
  { op: 'thread', at, session_id: 'ses_1', acp_thread_id: 'thr_1', agent_id: 'a' },
  { op: 'response', at, request_id: 'req_1', message_id: 'm1', content: 'Understood' },
  { op: 'response', at, request_id: 'req_1', message_id: 'm1', content: 'Understood\nBooked' },
  { op: 'complete', at, request_id: 'req_1' },
  { op: 'interaction', at, session_id: 'ses_1', request_id: 'req_2', message: 'and IMAX', agent_id: 'a' },
];

function write(dir: string, records: JournalRecord[]): void {
  const { journal } = Journal.open(dir);
  for (const record of records) journal.commit(record);
  journal.close();
}

describe('journal', () => {
  it('gives back after a restart exactly the state that was committed', () => {
    const dir = tempDir();
    write(dir, HISTORY);
    const { journal, store, records, tornBytes } = Journal.open(dir);
    journal.close();
    expect({ records, tornBytes }).toEqual({ records: HISTORY.length, tornBytes: 0 });
    expect(store.session('ses_1')).toMatchObject({
      acp_thread_id: 'thr_1',
      agent_id: 'a',
      interactions: ['req_1', 'req_2'],
    });
    expect(store.interaction('req_1')).toMatchObject({ state: 'complete', response: 'Understood\nBooked', updates: 2 });
    expect(store.interaction('req_2')).toMatchObject({ state: 'waiting', response: '' });
  });

  it('drops a torn last line left by a crash, and appends cleanly after it', () => {
    const dir = tempDir();
    write(dir, HISTORY.slice(0, 6));
    const path = join(dir, 'journal.jsonl');
    // A write cut short by a crash: half a record, no newline.
    appendFileSync(path, '{"op":"interaction","at":"2026-11-21T10:00:00.000Z","session_id":"ses_1","req');
    const opened = Journal.open(dir);
    expect(opened.records).toBe(6);
    expect(opened.tornBytes).toBeGreaterThan(0);
    opened.journal.commit(HISTORY[6] as JournalRecord);
    opened.journal.close();

    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l))).toEqual(HISTORY);
    const again = Journal.open(dir);
    again.journal.close();
    expect(again.store.interaction('req_2')?.state).toBe('waiting');
  });

  it('refuses to start on a damaged line in the middle, naming it, and leaves the file as it was', () => {
    const dir = tempDir();
    write(dir, HISTORY.slice(0, 2));
    const path = join(dir, 'journal.jsonl');
    const good = readFileSync(path, 'utf8');
    const damaged = good.replace('"op":"interaction"', '"op":"interact"');
    writeFileSync(path, `${damaged}${JSON.stringify(HISTORY[2])}\n`);
    expect(() => Journal.open(dir)).toThrow(/damaged at line 2/);
    expect(readFileSync(path, 'utf8')).toBe(`${damaged}${JSON.stringify(HISTORY[2])}\n`);

    writeFileSync(path, `${good}${JSON.stringify({ op: 'complete', at, request_id: 'req_9' })}\n`);
    expect(() => Journal.open(dir)).toThrow(/damaged at line 3: no request req_9/);
  });

  it('refuses a change that does not fit the state, writing nothing', () => {
    const dir = tempDir();
    const { journal } = Journal.open(dir);
    journal.commit(HISTORY[0] as JournalRecord);
    expect(() => journal.commit({ op: 'complete', at, request_id: 'req_1' })).toThrow(StateError);
    expect(() => journal.commit(HISTORY[0] as JournalRecord)).toThrow(/exists already/);
    journal.close();
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('keeps a second orchestrator off the folder, and takes over a lock left by a killed one', () => {
    const dir = tempDir();
    const first = Journal.open(dir);
    expect(() => Journal.open(dir)).toThrow(JournalError);
    expect(() => Journal.open(dir)).toThrow(/another orchestrator \(pid \d+\)/);
    first.journal.close();
    // No process has this pid (above the kernel's pid_max).
    writeFileSync(join(dir, 'orchestrator.lock'), '99999999\n');
    const second = Journal.open(dir);
    second.journal.close();
  });
});
