import { loadCorpus } from '@usher/protocol/node';
import { describe, expect, it } from 'vitest';
import { payloadSlice } from './wire.ts';

describe('payloadSlice', () => {
  it.each(loadCorpus().accepted.map((f) => [f.name, f.message] as const))(
    'slices the payload of %s',
    (_name, message) => {
      for (const text of [JSON.stringify(message), JSON.stringify(message, null, 2)]) {
        const slice = payloadSlice(text, JSON.parse(text));
        expect(slice).toBeDefined();
        expect(JSON.parse(slice as string)).toEqual((message as { payload: unknown }).payload);
      }
    },
  );

  it('handles escaped quotes and braces inside strings before the payload', () => {
    const text = '{"v":"mvp-0.2","type":"tool.call","id":"a\\"}{\\\\","payload":{"text":"}"}}';
    expect(payloadSlice(text, JSON.parse(text))).toBe('{"text":"}"}');
  });

  it('gives up, rather than guess, when the payload is not the last member', () => {
    for (const text of [
      '{"payload":{"a":1},"v":"mvp-0.2","type":"x"}',
      '{"v":"mvp-0.2","payload":{"a":1},"extra":{"b":2}}',
      '{"v":"mvp-0.2","n":"1","payload":{}}',
    ]) {
      expect(payloadSlice(text, JSON.parse(text))).toBeUndefined();
    }
  });
});
