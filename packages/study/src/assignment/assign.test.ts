import { describe, expect, it } from 'vitest';
import type { StudyFile } from '../study-file/schema.ts';
import { AssignmentError, pickBalanced, planParticipant } from './assign.ts';
import { balancedLatinSquare, latinOrder } from './latin-square.ts';

/** A random source that replays `values`, for assignments a test can predict. */
const replay = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length] as number;
};

describe('balancedLatinSquare (Williams design)', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'for %i items: each item once per order and per position, each item after each other equally often',
    (n) => {
      const rows = balancedLatinSquare(n);
      expect(rows).toHaveLength(n % 2 === 0 || n === 1 ? n : 2 * n);
      for (const row of rows) expect([...row].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      for (let position = 0; position < n; position++) {
        const counts = new Array(n).fill(0);
        for (const row of rows) counts[row[position] as number] += 1;
        expect(new Set(counts).size).toBe(1);
      }
      const follows = new Map<string, number>();
      for (const row of rows)
        for (let i = 1; i < n; i++)
          follows.set(`${row[i - 1]}>${row[i]}`, (follows.get(`${row[i - 1]}>${row[i]}`) ?? 0) + 1);
      if (n > 1) {
        expect(follows.size).toBe(n * (n - 1));
        expect(new Set(follows.values()).size).toBe(1);
      }
    },
  );

  it('cycles through its orders participant by participant', () => {
    expect([0, 1, 2, 3, 4].map((k) => latinOrder(4, k))).toEqual([
      [0, 1, 3, 2],
      [1, 2, 0, 3],
      [2, 3, 1, 0],
      [3, 0, 2, 1],
      [0, 1, 3, 2],
    ]);
  });
});

const study = (assignment: Partial<StudyFile['assignment']>, conditions = ['a', 'b'], tasks = ['t1', 't2']) =>
  ({
    tasks: tasks.map((id) => ({ id })),
    conditions: conditions.map((id) => ({ id })),
    assignment: { design: 'between', conditions: 'balanced', order: 'fixed', ...assignment },
  }) as unknown as StudyFile;

describe('planParticipant', () => {
  it('keeps conditions balanced as participants arrive, ties broken at random', () => {
    expect(pickBalanced([3, 1, 1], replay(0.9))).toBe(2);
    expect(pickBalanced([3, 1, 1], replay(0.1))).toBe(1);
    const counts = [0, 0, 0];
    const s = study({}, ['a', 'b', 'c']);
    const random = replay(0.7, 0.2, 0.5, 0.99, 0.0);
    for (let i = 0; i < 30; i++) {
      const plan = planParticipant(s, counts, { random });
      const i = ['a', 'b', 'c'].indexOf(plan.conditionId as string);
      counts[i] = (counts[i] ?? 0) + 1;
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
    expect(counts).toEqual([10, 10, 10]);
  });

  it('gives every task in the condition, in a Latin-square order by the participant’s rank in it', () => {
    const s = study({ order: 'latin-square' }, ['a', 'b'], ['t1', 't2', 't3']);
    const orders = [0, 1, 2].map((n) =>
      planParticipant(s, [n, 5], { random: replay(0) }).tasks.map((t) => `${t.taskId}:${t.conditionId}`),
    );
    expect(orders).toEqual([
      ['t1:a', 't2:a', 't3:a'],
      ['t2:a', 't3:a', 't1:a'],
      ['t3:a', 't1:a', 't2:a'],
    ]);
  });

  it('takes the condition from the link when the study says so, and refuses a link that names none of them', () => {
    const s = study({ conditions: 'link' });
    expect(planParticipant(s, [9, 0], { random: replay(0), linkCondition: 'a' }).conditionId).toBe('a');
    expect(() => planParticipant(s, [0, 0], { random: replay(0), linkCondition: 'z' })).toThrow(AssignmentError);
    expect(() => planParticipant(s, [0, 0], { random: replay(0) })).toThrow(/the link named none/);
  });

  it('within subjects, gives every condition once, paired with the tasks, in counterbalanced order', () => {
    const s = study({ design: 'within', order: 'latin-square' });
    expect(planParticipant(s, [0, 0], { random: replay(0) })).toEqual({
      conditionId: null,
      tasks: [
        { taskId: 't1', conditionId: 'a' },
        { taskId: 't2', conditionId: 'b' },
      ],
    });
    expect(planParticipant(s, [1, 0], { random: replay(0) }).tasks.map((t) => t.conditionId)).toEqual(['b', 'a']);
  });

  it('within subjects, counterbalances the task order too, and pairs every task with every condition equally often', () => {
    const s = study({ design: 'within', order: 'latin-square' });
    const plans = [0, 1, 2, 3].map((rank) => planParticipant(s, [rank, 0], { random: replay(0) }).tasks);
    const pairs = plans.flat().map((t) => `${t.taskId}:${t.conditionId}`);
    for (const pair of ['t1:a', 't1:b', 't2:a', 't2:b']) expect(pairs.filter((p) => p === pair)).toHaveLength(2);
    const firsts = plans.map((tasks) => tasks[0]?.taskId);
    expect(firsts.filter((t) => t === 't1')).toHaveLength(2);
    expect(new Set(plans.map((tasks) => tasks.map((t) => `${t.taskId}:${t.conditionId}`).join(' '))).size).toBe(4);
  });
});
