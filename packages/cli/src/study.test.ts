import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USHER_BIN } from './test-helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-study-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const root = new URL('../../..', import.meta.url).pathname;

const usher = (...args: string[]) => spawnSync(process.execPath, [USHER_BIN, ...args], { cwd: root, encoding: 'utf8' });

describe('usher study check', () => {
  it('says what the shipped demo study holds', () => {
    const result = usher('study', 'check', 'studies/demo.study.yaml');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/study "demo-01"/);
    expect(result.stdout).toMatch(/conditions\s+alone \(no agent\), autopilot \(autopilot, rules\)/);
    expect(result.stderr).not.toMatch(/warning/);
  });

  it('lists every problem of a bad study file with its line and field, and exits 1', () => {
    const file = join(work, 'bad.study.yaml');
    writeFileSync(file, 'id: Bad Id\ntitle: t\nconsent: ok\ntasks: []\nconditions:\n  - { id: c, agent: robot }\n');
    const result = usher('study', 'check', file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${file}:1:5: id: expected 1–64 lowercase letters`);
    expect(result.stderr).toContain(`${file}:4:8: tasks: a study needs at least one task`);
    expect(result.stderr).toMatch(/:6:21: conditions\[0\]\.agent: /);
    expect(result.stderr).toContain('3 problems');
  });
});
