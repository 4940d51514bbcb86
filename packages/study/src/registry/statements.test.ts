import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { loadStudyFile } from '../study-file/load.ts';
import { StudyRegistry } from './registry.ts';

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('the registry’s statements', () => {
  it('are compiled once each, however many participants and calls: the relay asks whose room a call is in for every tool call', () => {
    const registry = new StudyRegistry(':memory:');
    const admit = (i: number) => registry.admit(DEMO, { recruitment: { PROLIFIC_PID: `s${i}` }, now: NOW }).participant;
    const first = admit(0);
    registry.byRoom(first.room);
    registry.get(first.id);
    registry.progress(first.id, { status: 'briefing' }, NOW, { status: 'consent', taskIndex: 0 });

    const prepare = vi.spyOn(Database.prototype, 'prepare');
    onTestFinished(() => prepare.mockRestore());
    for (let i = 1; i <= 50; i++) {
      const p = admit(i);
      expect(registry.byRoom(p.room)?.id).toBe(p.id);
      expect(registry.get(p.id)?.status).toBe('consent');
      expect(registry.progress(p.id, { status: 'briefing' }, NOW, { status: 'consent', taskIndex: 0 })).toBe(true);
      // A step from a status they left changes nothing, with the statement already compiled.
      expect(registry.progress(p.id, { status: 'task' }, NOW, { status: 'consent', taskIndex: 0 })).toBe(false);
    }
    expect(prepare).not.toHaveBeenCalled();
  });
});
