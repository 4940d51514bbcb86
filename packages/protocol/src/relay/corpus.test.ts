import { describe, expect, it } from 'vitest';
import { decodeFrame } from './envelope.ts';
import { MESSAGE_TYPES } from './messages/index.ts';
import { loadCorpus } from './node/corpus.ts';

const { accepted, rejected } = loadCorpus();

describe('golden corpus', () => {
  it.each(accepted.map((f) => [f.name, f] as const))('accepts %s', (_name, fixture) => {
    const result = decodeFrame(JSON.stringify(fixture.message));
    expect(result).toMatchObject({ ok: true, message: { type: fixture.type } });
  });

  it.each(rejected.map((f) => [f.name, f] as const))('rejects %s', (_name, fixture) => {
    const result = decodeFrame(fixture.frame);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe(fixture.expect.code);
    expect(result.replyTo).toBe(fixture.expect.replyTo);
    expect(result.message.length).toBeGreaterThan(10);
  });

  it('has an accepted example of every message type', () => {
    const covered = new Set(accepted.map((f) => f.type));
    expect(MESSAGE_TYPES.filter((t) => !covered.has(t))).toEqual([]);
  });
});
