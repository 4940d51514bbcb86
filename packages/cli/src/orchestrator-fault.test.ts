import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalRecordSchema } from '@usher/orchestrator';
import { afterAll, describe, expect, it } from 'vitest';
import { startOrchestratorProcess } from './sync-test-helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-orchestrator-fault-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TOKEN = 'orchestrator-fault-token';
/**
 * Loaded into the orchestrator's process (NODE_OPTIONS=--import): on SIGUSR2 it throws, or
 * rejects a promise, where nothing catches it, the way a bug in a handler would.
 */
const FAULT = join(work, 'fault.mjs');
writeFileSync(
  FAULT,
  `process.on('SIGUSR2', () => setImmediate(() => {
    if (process.env.FAULT === 'rejection') Promise.reject(new Error('injected rejection'));
    else throw new Error('injected fault');
  }));\n`,
);

describe('usher orchestrator: a fatal fault', { timeout: 60_000 }, () => {
  it.each(['exception', 'rejection'])(
    'an uncaught %s ends the process with code 70 and a line on stderr, and leaves the journal whole for the restart',
    async (kind) => {
      const data = join(work, kind);
      const env = { NODE_OPTIONS: `--import ${FAULT}`, FAULT: kind };
      const running = await startOrchestratorProcess({ token: TOKEN, data, env });
      const auth = { Authorization: `Bearer ${TOKEN}` };
      for (let i = 0; i < 3; i++) {
        expect((await fetch(`${running.url}/api/sessions`, { method: 'POST', headers: auth })).status).toBe(201);
      }
      running.child.kill('SIGUSR2');
      expect(await running.exited).toBe(70);
      expect(running.stderr()).toMatch(
        new RegExp(
          `^usher orchestrator: fatal: Error: injected ${kind === 'exception' ? 'fault' : 'rejection'}\\n\\s+at `,
          'm',
        ),
      );

      const text = readFileSync(join(data, 'journal.jsonl'), 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const records = text
        .trimEnd()
        .split('\n')
        .map((line) => JournalRecordSchema.parse(JSON.parse(line)));
      expect(records).toHaveLength(3);
      expect(existsSync(join(data, 'orchestrator.lock'))).toBe(false);

      const restarted = await startOrchestratorProcess({ token: TOKEN, data });
      expect(restarted.stdout()).toContain('3 records replayed');
      expect(restarted.stdout()).not.toContain('torn');
      const listed = await (await fetch(`${restarted.url}/api/sessions`, { headers: auth })).json();
      expect(listed.sessions).toHaveLength(3);
      restarted.child.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);
    },
  );

  it('is not what a clean stop looks like: SIGTERM still exits 0 without a fatal line', async () => {
    const running = await startOrchestratorProcess({ token: TOKEN, data: join(work, 'clean') });
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.stderr()).not.toContain('fatal');
  });
});
