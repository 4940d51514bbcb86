import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { EXPIRY_EVERY_MS } from '@usher/study-host';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { StartupError, startServer } from '../server.ts';
import { openStudyLink, startTestServer } from '../testing/index.ts';

/*
 * Anyone may open the study link (admissionsPerMinute, 30 a minute per address), and each opening
 * made a registry row that stayed for ever when its arrival never consented: rows without bound,
 * from anyone. An arrival still at consent arrivalRetentionMs (24 h) after opening the link is now
 * removed, at start and on the server's hourly pass, and only counted, per condition, for the
 * export. Every time here is read on the study's clock, which the tests move.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO = {
  ...LOADED,
  // The demo's first two conditions (alone, autopilot), as these tests count on.
  conditions: LOADED.conditions.filter((c) => c.guard !== 'each-step'),
  questionnaires: {},
};
const SECRET = new TextEncoder().encode('an-arrivals-test-secret-of-enough-length-0123456789');
const HOUR = 60 * 60_000;

/** The study's clock, starting at a fixed moment, moved by the test. */
function studyClock() {
  let t = Date.parse('2030-03-01T09:00:00.000Z');
  return { now: () => new Date(t), move: (ms: number) => (t += ms) };
}

function studyServer(registry: StudyRegistry, now: () => Date, warnings: string[] = []) {
  return startTestServer({
    access: 'token',
    secret: SECRET,
    study: { study: DEMO, registry },
    now,
    warn: (line) => warnings.push(line),
  });
}

const total = (registry: StudyRegistry) => registry.expiredArrivals(DEMO.id).reduce((n, c) => n + c.arrivals, 0);

describe('arrivals who never consent', () => {
  it("are removed arrivalRetentionMs after they came, by the server's hourly pass, and counted per condition", async () => {
    // Only the intervals are played: the server's requests and sockets keep their real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const clock = studyClock();
    const warnings: string[] = [];
    const server = await studyServer(registry, clock.now, warnings);
    const [consents, ...leave] = await Promise.all(
      ['A', 'B', 'C'].map((id) => openStudyLink(server.url, `participant=${id}`)),
    );
    const step = await fetch(`${server.url}/api/participant/step`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${consents?.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ step: 'consent' }),
    });
    expect(step.status).toBe(200);
    const conditions = leave.map((l) => registry.get(l.participant)?.plan.conditionId);

    clock.move(23 * HOUR);
    vi.advanceTimersByTime(EXPIRY_EVERY_MS);
    expect(registry.participants(DEMO.id)).toHaveLength(3);

    clock.move(2 * HOUR);
    vi.advanceTimersByTime(EXPIRY_EVERY_MS);
    expect(registry.participants(DEMO.id).map((p) => p.externalId)).toEqual(['A']);
    for (const conditionId of new Set(conditions)) {
      expect(registry.expiredArrivals(DEMO.id)).toContainEqual({
        conditionId,
        arrivals: conditions.filter((c) => c === conditionId).length,
      });
    }
    expect(total(registry)).toBe(2);
    expect(warnings.join('\n')).toMatch(/removed 2 arrivals .*\(arrivalRetentionMs\)/);
    // Their page's link no longer speaks for anyone.
    const gone = await fetch(`${server.url}/api/participant`, {
      headers: { Authorization: `Bearer ${leave[0]?.token}` },
    });
    expect(gone.status).toBe(401);
  });

  it('are removed when the server starts, and one who comes back is admitted again, in any browser', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const clock = studyClock();
    const before = await studyServer(registry, clock.now);
    const first = await openStudyLink(before.url, 'PROLIFIC_PID=pid-7');
    await openStudyLink(before.url, 'PROLIFIC_PID=pid-8');
    await before.close();

    // A restart a day later: the start's pass removes them at once.
    clock.move(25 * HOUR);
    const after = await studyServer(registry, clock.now);
    expect(registry.participants(DEMO.id)).toEqual([]);
    expect(total(registry)).toBe(2);

    // Back in the browser they started in (it holds their old key), and from another one: both are new arrivals.
    const again = await openStudyLink(after.url, 'PROLIFIC_PID=pid-7', first.cookie);
    expect(again.room).not.toBe(first.room);
    expect(registry.get(again.participant)).toMatchObject({ externalId: 'pid-7', status: 'consent' });
    const elsewhere = await openStudyLink(after.url, 'PROLIFIC_PID=pid-8');
    expect(registry.get(elsewhere.participant)?.externalId).toBe('pid-8');
  });

  it('refuses an arrivalRetentionMs shorter than the 30 minutes assignment counts an arrival for', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const logsDir = mkdtempSync(join(tmpdir(), 'usher-logs-'));
    onTestFinished(() => rmSync(logsDir, { recursive: true, force: true }));
    const start = startServer({
      port: 0,
      bind: '127.0.0.1',
      room: 'default',
      headlessHost: false,
      logsDir,
      study: { study: DEMO, registry },
      limits: { arrivalRetentionMs: 29 * 60_000 },
    });
    await expect(start).rejects.toBeInstanceOf(StartupError);
    await expect(start).rejects.toThrow(/arrivalRetentionMs must be at least 1800000/);
  });
});
