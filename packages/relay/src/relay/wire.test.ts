import { loadCorpus } from '@usher/protocol/node';
import { describe, expect, it } from 'vitest';
import { payloadSlice } from './wire.ts';

describe('payloadSlice', () => {
  it.each(loadCorpus().accepted.map((f) => [f.name, f.message] as const))(
    'slices the payload of %s',
    (_name, message) => {
      for (const text of [JSON.stringify(message), JSON.stringify(message, null, 2)]) {
        const slice = payloadSlice(text, JSON.parse(text));
        if (!slice.ok) throw new Error(`no slice of ${text}`);
        expect(JSON.parse(slice.json)).toEqual((message as { payload: unknown }).payload);
      }
    },
  );

  it('handles escaped quotes and braces inside strings before the payload', () => {
    const text = '{"v":"mvp-0.2","type":"tool.call","id":"a\\"}{\\\\","payload":{"text":"}"}}';
    expect(payloadSlice(text, JSON.parse(text))).toEqual({ ok: true, json: '{"text":"}"}' });
  });

  it('gives up, rather than guess, when the payload is not the last member', () => {
    for (const text of [
      '{"payload":{"a":1},"v":"mvp-0.2","type":"x"}',
      '{"v":"mvp-0.2","payload":{"a":1},"extra":{"b":2}}',
      '{"v":"mvp-0.2","n":"1","payload":{}}',
      // A second payload (or id) after the first: a parser keeps the last, a slice would keep the first.
      '{"v":"mvp-0.2","type":"tool.call","payload":{"toolName":"a"},"id":"x","payload":{"toolName":"b"}}',
      '{"v":"mvp-0.2","type":"x","id":"a","id":"b","payload":{}}',
    ]) {
      expect(payloadSlice(text, JSON.parse(text))).toEqual({ ok: false, tooDeep: false });
    }
  });

  it('gives up on a key named twice in any object of the payload, or written with an escape', () => {
    for (const text of [
      '{"v":"mvp-0.2","type":"x","payload":{"a":{"b":1,"c":[{"d":1,"d":2}]}}}',
      '{"v":"mvp-0.2","type":"x","payload":{"a":1,"\\u0061":2}}',
      '{"v":"mvp-0.2","type":"x","payload":{"\\u0061":1}}',
    ]) {
      expect(payloadSlice(text, JSON.parse(text))).toEqual({ ok: false, tooDeep: false });
    }
    // The same key in different objects is no duplicate; JSON's whitespace is kept as sent.
    const text = '{"v":"mvp-0.2",\n\t"type":"x",\r\n"payload": {"a":{"a":1},\t"b":[{"a":2},{"a":3}]} }\n';
    expect(payloadSlice(text, JSON.parse(text))).toEqual({ ok: true, json: '{"a":{"a":1},\t"b":[{"a":2},{"a":3}]}' });
  });

  it('bounds the payload’s nesting in the same pass', () => {
    const deep = `{"v":"mvp-0.2","type":"x","payload":{"a":${'['.repeat(100)}${']'.repeat(100)}}}`;
    expect(payloadSlice(deep, JSON.parse(deep), 63)).toEqual({ ok: false, tooDeep: true });
    const fine = `{"v":"mvp-0.2","type":"x","payload":{"a":${'['.repeat(10)}${']'.repeat(10)}}}`;
    expect(payloadSlice(fine, JSON.parse(fine), 63).ok).toBe(true);
  });
});
