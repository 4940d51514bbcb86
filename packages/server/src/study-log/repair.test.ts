import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repairTornLogs } from '@usher/relay';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../testing/index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function logsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'usher-repair-'));
  dirs.push(dir);
  return dir;
}

const record = (i: number, pad = 0) =>
  `${JSON.stringify({ sessionId: 's-20261125-001', eventIndex: i, type: 'state.updated', payload: { pad: 'x'.repeat(pad) } })}\n`;

describe('repairTornLogs', () => {
  it('cuts a record cut short back to the last whole line, and says so', async () => {
    const dir = logsDir();
    const whole = record(0) + record(1, 100_000);
    const torn = record(2, 200_000).slice(0, 150_000);
    writeFileSync(join(dir, 's-20261125-001.jsonl'), whole + torn);
    writeFileSync(join(dir, 's-20261125-002.jsonl'), record(0));
    writeFileSync(join(dir, 's-20261125-003.jsonl'), record(0).slice(0, 30));
    writeFileSync(join(dir, 'notes.txt'), 'not a log, and no line end');
    const warned: string[] = [];
    const mended = await repairTornLogs(dir, (line) => warned.push(line), 0);
    expect(mended.sort()).toEqual(['s-20261125-001.jsonl', 's-20261125-003.jsonl']);
    expect(readFileSync(join(dir, 's-20261125-001.jsonl'), 'utf8')).toBe(whole);
    expect(readFileSync(join(dir, 's-20261125-002.jsonl'), 'utf8')).toBe(record(0));
    expect(readFileSync(join(dir, 's-20261125-003.jsonl'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('not a log, and no line end');
    expect(warned.find((w) => w.includes('s-20261125-001'))).toContain(`cut back ${torn.length} bytes`);
  });

  it('leaves alone a log that is still being written', async () => {
    const dir = logsDir();
    const path = join(dir, 's-20261125-001.jsonl');
    writeFileSync(path, record(0) + record(1).slice(0, 20));
    const repaired = repairTornLogs(dir, () => {}, 100);
    // The writer finishes its record meanwhile and starts the next.
    appendFileSync(path, `${record(1).slice(20)}${record(2).slice(0, 10)}`);
    expect(await repaired).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe(record(0) + record(1) + record(2).slice(0, 10));
  });

  it('runs when the server starts on a logs folder', async () => {
    const dir = logsDir();
    writeFileSync(join(dir, 's-20261125-001.jsonl'), record(0) + record(1).slice(0, 25));
    const warned: string[] = [];
    await startTestServer({ logsDir: dir, logRepairSettleMs: 0, warn: (line) => warned.push(line) });
    await vi.waitFor(() => expect(readFileSync(join(dir, 's-20261125-001.jsonl'), 'utf8')).toBe(record(0)));
    expect(warned.join('\n')).toContain('s-20261125-001.jsonl ended in a record cut short');
  });
});
