import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticStudy } from '@usher/export/testing';
import { loadStudyFile } from '@usher/study';
import { afterAll, describe, expect, it } from 'vitest';
import { USHER_BIN } from './test-helpers.ts';

const root = new URL('../../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'usher-export-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const usher = (...args: string[]) =>
  spawnSync(process.execPath, [USHER_BIN, 'export', ...args], { cwd: root, encoding: 'utf8' });

describe('usher export', () => {
  it('writes every table as CSV and Parquet with the raw logs, and says what it wrote', () => {
    const data = join(work, 'data');
    const logs = join(work, 'logs');
    writeSyntheticStudy({
      study: loadStudyFile(join(root, 'studies/demo.study.yaml')),
      participants: 8,
      logsDir: logs,
      registryPath: join(data, 'registry.sqlite'),
    });
    writeFileSync(join(logs, 'zz-torn.jsonl'), '{"sessionId":"s-9","eventIndex":0,"timest');
    const out = join(work, 'out');
    const result = usher('--study', 'studies/demo.study.yaml', '--out', out, '--logs', logs, '--data', data);
    expect(result.stderr).toContain('1 log line(s) or file(s) left out');
    expect(result.stderr).toContain('zz-torn.jsonl:1: not JSON (a torn last line)');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/participant_tasks\s+16 rows/);
    for (const table of ['participant_tasks', 'events', 'participants', 'log_problems']) {
      expect(existsSync(join(out, `${table}.csv`))).toBe(true);
      expect(existsSync(join(out, `${table}.parquet`))).toBe(true);
    }
    expect(readFileSync(join(out, 'participants.csv'), 'utf8').trim().split('\n')).toHaveLength(9);
    // A second export into the same folder is refused: no old file is mistaken for part of it.
    const again = usher('--study', 'studies/demo.study.yaml', '--out', out, '--logs', logs, '--data', data);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('is not empty');
  });

  it('exits 2 on a bad command line and 1 when the registry or the study file cannot be used', () => {
    const missing = usher('--study', 'studies/demo.study.yaml');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("required option '--out <dir>' not specified");
    expect(usher('--study', 'studies/demo.study.yaml', '--out', join(work, 'o1'), '--colour').status).toBe(2);
    const empty = join(work, 'no-data');
    mkdirSync(empty);
    const noRegistry = usher('--study', 'studies/demo.study.yaml', '--out', join(work, 'o2'), '--data', empty);
    expect(noRegistry.status).toBe(1);
    expect(noRegistry.stderr).toContain('no registry at');
    const noStudy = usher('--study', 'nowhere.study.yaml', '--out', join(work, 'o3'));
    expect(noStudy.status).toBe(1);
    expect(noStudy.stderr).toContain('no such file: nowhere.study.yaml');
  });
});
