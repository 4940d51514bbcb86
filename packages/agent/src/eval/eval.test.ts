import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  evaluateWith,
  formatEvaluation,
  loadCases,
  loadWorld,
  parseConstraint,
  scoreKinds,
  totalsByKind,
} from './index.ts';

const world = loadWorld();
const genres = [...new Set(world.movies.flatMap((m) => m.genres))];

describe('the evaluation notation', () => {
  it('reads each kind of constraint', () => {
    expect(parseConstraint('mix a2 c1', genres)).toEqual({ kind: 'ticketMix', adult: 2, child: 1 });
    expect(parseConstraint('start 17:00-', genres)).toEqual({ kind: 'startTime', after: '17:00' });
    expect(parseConstraint('end -22:30', genres)).toEqual({ kind: 'endTime', before: '22:30' });
    expect(parseConstraint('genre! Romantic Comedy Horror', genres)).toEqual({
      kind: 'genre',
      exclude: ['Romantic Comedy', 'Horror'],
    });
    expect(parseConstraint('title The Quiet Harbor', genres)).toEqual({ kind: 'title', is: ['The Quiet Harbor'] });
    expect(parseConstraint('rows notFirst 3', genres)).toEqual({ kind: 'rows', notFirst: 3 });
    expect(parseConstraint('seatKind wheelchair 1', genres)).toEqual({
      kind: 'seatKind',
      seatKind: 'wheelchair',
      count: 1,
    });
  });

  it('refuses what it does not know, naming it', () => {
    expect(() => parseConstraint('seats two', genres)).toThrow('seats two');
    expect(() => parseConstraint('genre Western', genres)).toThrow('Western');
    expect(() => parseConstraint('soonest', genres)).toThrow('soonest');
  });
});

describe('scoring a reading', () => {
  it('judges each kind: right, missed, wrong, spurious; strength counts', () => {
    const expected = {
      hard: [parseConstraint('seats 2', genres), parseConstraint('date 2026-11-22', genres)],
      soft: [parseConstraint('start 17:00-', genres)],
    };
    const actual = {
      hard: [parseConstraint('seats 3', genres), parseConstraint('start 17:00-', genres)],
      soft: [parseConstraint('closest', genres)],
    };
    expect(Object.fromEntries(scoreKinds(expected, actual, []))).toEqual({
      seatCount: 'wrong',
      date: 'missed',
      startTime: 'wrong',
      closest: 'spurious',
    });
  });

  it('matches a theater by a shorter name, as the checker does', () => {
    const expected = { hard: [parseConstraint('theater Riverside IMAX', genres)], soft: [] };
    const actual = { hard: [parseConstraint('theater Riverside', genres)], soft: [] };
    expect(scoreKinds(expected, actual, ['Riverside IMAX', 'Lumen Arthouse']).get('theater')).toBe('right');
  });
});

describe('the evaluation set', () => {
  const cases = loadCases(world);

  it('holds 150+ cases over every kind of writing the set is for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const tags = new Set(cases.flatMap((c) => c.tags));
    for (const tag of ['typo', 'slang', 'negation', 'number-words', 'indirect', 'correction', 'change-of-mind'])
      expect(tags).toContain(tag);
    expect(cases.filter((c) => c.messages.length > 1).length).toBeGreaterThanOrEqual(15);
  });

  it('refuses a case file with a bad constraint, naming the case', () => {
    const dir = mkdtempSync(join(tmpdir(), 'usher-eval-'));
    try {
      writeFileSync(join(dir, 'bad.yaml'), 'cases:\n  - id: x-1\n    say: hi\n    hard: [seats lots]\n');
      expect(() => loadCases(world, dir)).toThrow(/bad\.yaml x-1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the extractor reads 95% of the kinds right, and 90% on the cases it was not tuned on', () => {
    const share = (results: ReturnType<typeof evaluate>) => {
      const totals = totalsByKind(results);
      const right = totals.reduce((n, t) => n + t.right, 0);
      const all = totals.reduce((n, t) => n + t.right + t.missed + t.wrong + t.spurious, 0);
      return right / all;
    };
    expect(share(evaluate(cases, world))).toBeGreaterThanOrEqual(0.95);
    expect(
      share(
        evaluate(
          cases.filter((c) => c.tags.includes('held-out')),
          world,
        ),
      ),
    ).toBeGreaterThanOrEqual(0.9);
  });

  it('reports accuracy per kind over the whole set', () => {
    const results = evaluate(cases, world);
    const totals = totalsByKind(results);
    expect(totals.map((t) => t.kind)).toEqual(expect.arrayContaining(['seatCount', 'ticketMix', 'startTime', 'title']));
    const text = formatEvaluation(results);
    expect(text).toMatch(/all kinds\s+\d+\s+\d+\s+\d+\.\d%/);
    expect(text).toContain(`cases read wholly right: ${results.filter((r) => r.right).length}/${cases.length}`);
  });
});

describe('another reader', () => {
  it('is scored the same way, message by message', async () => {
    const cases = loadCases(world).filter((c) => c.id === 'party-08');
    const seen: string[] = [];
    const results = await evaluateWith(cases, world, async (current, text) => {
      seen.push(text);
      const model = { ...current, hard: [{ kind: 'seatCount' as const, count: 2 }] };
      return { model, changed: [], summary: '', unparsed: false, fixes: [], unread: [] };
    });
    expect(seen).toEqual(['2 tix for courtside monday']);
    expect(results[0]?.kinds.get('seatCount')).toBe('right');
    expect(results[0]?.kinds.get('title')).toBe('missed');
  });
});
