import { describe, expect, it } from 'vitest';
import { FlushError, GroupFlush } from './group-flush.ts';

/** A flush that holds until released, recording how many writes were counted when each began. */
function heldFlush() {
  const begun: number[] = [];
  const releases: Array<(err?: Error) => void> = [];
  let flushes: GroupFlush | null = null;
  const group = new GroupFlush(
    () =>
      new Promise<void>((resolve, reject) => {
        begun.push(flushes?.stats().written ?? -1);
        releases.push((err) => (err ? reject(err) : resolve()));
      }),
  );
  flushes = group;
  const release = async (err?: Error) => {
    releases.shift()?.(err);
    // Let the settled promises and the next flush's start run.
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  const started = async () => {
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { group, begun, release, started };
}

describe('GroupFlush', () => {
  it('answers nobody before a flush begun after their write has returned, and one flush serves every write made while another ran', async () => {
    const { group, begun, release, started } = heldFlush();
    const order: string[] = [];
    group.wrote();
    const first = group.durable().then(() => order.push('first'));
    await started();
    expect(begun).toEqual([1]);
    // Three more writes while the first flush runs: none of them is covered by it.
    const later = [2, 3, 4].map((n) => {
      group.wrote();
      return group.durable().then(() => order.push(`write ${n}`));
    });
    await release();
    expect(order).toEqual(['first']);
    // One flush, begun after all three, covers them.
    expect(begun).toEqual([1, 4]);
    await release();
    await Promise.all([first, ...later]);
    expect(order).toEqual(['first', 'write 2', 'write 3', 'write 4']);
    expect(group.stats()).toEqual({ written: 4, flushed: 4 });
    // Nothing written since: nothing to wait for, and no flush.
    await group.durable();
    expect(begun).toEqual([1, 4]);
  });

  it('fails whoever waits for a flush that fails, and every later one: nothing since can be promised', async () => {
    const { group, release, started } = heldFlush();
    group.wrote();
    const waiting = group.durable();
    await started();
    group.wrote();
    const next = group.durable();
    await release(new Error('EIO'));
    await expect(waiting).rejects.toThrow(FlushError);
    await expect(next).rejects.toThrow(/flushing to disk failed: EIO/);
    group.wrote();
    await expect(group.durable()).rejects.toThrow(FlushError);
    expect(group.stats().flushed).toBe(0);
  });
});
