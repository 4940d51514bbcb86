import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportStudy, readExportTable } from '@usher/export';
import { writeSyntheticStudy } from '@usher/export/testing';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LiveMeasures } from './live-measures.ts';
import { StudyLogIndex } from './study-logs.ts';

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe("the console's live summary", () => {
  it("holds the export's conditions table, value for value, on the same logs and registry", async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-live-measures-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const logsDir = join(work, 'logs');
    const registryPath = join(work, 'registry.sqlite');
    writeSyntheticStudy({ study: DEMO, participants: 30, logsDir, registryPath, seed: 5 });
    const registry = new StudyRegistry(registryPath);
    const participants = registry.participants(DEMO.id);
    registry.close();

    const live = new LiveMeasures(DEMO, new StudyLogIndex(logsDir, DEMO.id), logsDir).summary(participants);
    await exportStudy({ study: DEMO, registryPath, logsDir, outDir: join(work, 'out') });
    const exported = await readExportTable(join(work, 'out', 'conditions.parquet'));

    expect(live.map((c) => c.conditionId)).toEqual(DEMO.conditions.map((c) => c.id));
    // The synthetic run's agent condition has undone selections and bookings both ways, so the comparison can fail.
    expect(live.find((c) => c.conditionId === 'autopilot')?.undoneAgentSelections).toBeGreaterThan(0);
    const successes = live.reduce((n, c) => n + c.successes, 0);
    expect(successes > 0 && successes < live.reduce((n, c) => n + c.tasksStarted, 0)).toBe(true);
    const asExported = live.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [snake(k), v])));
    const numbers = (row: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([k]) => k !== 'study_id')
          .map(([k, v]) => [k, typeof v === 'string' && /^-?\d/.test(v) ? Number(v) : v]),
      );
    expect(asExported.map(numbers)).toEqual(exported.map(numbers));
  }, 60_000);
});
