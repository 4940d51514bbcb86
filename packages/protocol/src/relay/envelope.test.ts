import { describe, expect, it } from 'vitest';
import { createError, createMessage, decodeFrame, exceedsFrameLimit } from './envelope.ts';
import { maySend, replyTypeOf } from './messages/index.ts';
import { MAX_FRAME_BYTES } from './version.ts';

describe('decodeFrame', () => {
  it('refuses a frame over the size cap before parsing it', () => {
    const big = JSON.stringify({
      v: 'mvp-0.2',
      type: 'agent.message',
      id: 'x',
      payload: { text: 'a'.repeat(MAX_FRAME_BYTES) },
    });
    expect(decodeFrame(big)).toMatchObject({ ok: false, code: 'INVALID_MESSAGE' });
  });

  it('counts multi-byte characters toward the cap', () => {
    const threeByteChars = '€'.repeat(Math.ceil(MAX_FRAME_BYTES / 3) + 1);
    expect(threeByteChars.length).toBeLessThan(MAX_FRAME_BYTES);
    expect(exceedsFrameLimit(threeByteChars)).toBe(true);
    expect(exceedsFrameLimit('€'.repeat(Math.floor(MAX_FRAME_BYTES / 3)))).toBe(false);
  });

  it('applies payload defaults', () => {
    const result = decodeFrame('{"v":"mvp-0.2","type":"relay.join","id":"j","payload":{"role":"agent"}}');
    expect(result).toMatchObject({ ok: true, message: { payload: { role: 'agent', sessionId: 'default' } } });
  });

  it('names the bad field in its message', () => {
    const result = decodeFrame('{"v":"mvp-0.2","type":"session.start","id":"s","payload":{"studyId":"p"}}');
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('payload.participantId') });
  });
});

describe('createMessage', () => {
  it('builds a valid envelope and refuses an invalid payload', () => {
    expect(createMessage('tool.result', { ok: true, toolName: 'next' }, { replyTo: 'r1' })).toEqual({
      v: 'mvp-0.2',
      type: 'tool.result',
      replyTo: 'r1',
      payload: { ok: true, toolName: 'next' },
    });
    // @ts-expect-error: the code is not one of the protocol's
    expect(() => createError('NOPE', 'x')).toThrow();
  });
});

describe('message rules', () => {
  it('lets each role send only its own types', () => {
    expect(maySend('agent', 'tool.call')).toBe(true);
    expect(maySend('host', 'tool.call')).toBe(false);
    expect(maySend('agent', 'state.updated')).toBe(false);
    expect(maySend('observer', 'snapshot.get')).toBe(true);
    expect(maySend('observer', 'tool.call')).toBe(false);
    expect(maySend('host', 'relay.joined')).toBe(false);
  });

  it('pairs requests with their replies', () => {
    expect(replyTypeOf('tool.call')).toBe('tool.result');
    expect(replyTypeOf('session.end')).toBe('session.ended');
    expect(replyTypeOf('agent.message')).toBeUndefined();
  });
});
