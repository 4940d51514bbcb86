import { MAX_JSON_DEPTH } from '@usher/protocol';
import { loadCorpus } from '@usher/protocol/node';
import { describe, expect, it } from 'vitest';
import { decodeHostFrame } from './host-frames.ts';
import { scanHostFrame, uiSpecStage } from './host-scan.ts';
import { MAX_MEMBERS, scanMembers } from './json-scan.ts';

const DEPTH = MAX_JSON_DEPTH - 1;
const bigFrames = loadCorpus()
  .accepted.filter((f) => ['state.updated', 'snapshot.state'].includes((f.message as { type: string }).type))
  .map((f) => JSON.stringify(f.message));

/** What the full decoder makes of a frame, for comparing: the message, or null when it refuses it. */
function decoded(text: string): unknown {
  const result = decodeHostFrame(text);
  return result.ok ? JSON.parse(JSON.stringify(result.message)) : null;
}

/**
 * The scan's one promise: a frame it accepts is one the full decoder accepts, with the same
 * message, and its payload text is valid JSON on one line that parses to the decoder's payload.
 */
function expectSameAsDecoder(text: string): boolean {
  const scanned = scanHostFrame(text, DEPTH);
  if (!scanned) return false;
  const full = decoded(text);
  expect(full, text).not.toBeNull();
  expect(JSON.parse(JSON.stringify(scanned.message))).toEqual(full);
  // The fields left as text read as the decoder's too.
  const payload = scanned.message.payload as Record<string, unknown>;
  const fullPayload = (full as { payload: Record<string, unknown> }).payload;
  for (const key of ['uiSpec', 'messageHistory', 'toolSchema']) expect(payload[key]).toEqual(fullPayload[key]);
  const payloadText = text.slice(scanned.payloadStart, scanned.payloadEnd);
  expect(payloadText).not.toMatch(/[\n\r]/);
  expect(JSON.parse(payloadText)).toEqual(fullPayload);
  return true;
}

/** A small deterministic generator, so a failing mutation can be found again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('scanHostFrame', () => {
  it('reads the corpus’s state.updated and snapshot.state frames as the full decoder does', () => {
    expect(bigFrames.length).toBeGreaterThanOrEqual(4);
    for (const text of bigFrames) expect(expectSameAsDecoder(text)).toBe(true);
  });

  it('reads escapes, numbers and literals in strings and values', () => {
    const text =
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":"x\\"y\\\\z\\n\\u00e9\\/","n":[-0.5e+3,0,12,1E2,true,false,null,{}]},"messageHistory":[],"toolSchema":[]}}';
    expect(expectSameAsDecoder(text)).toBe(true);
  });

  it('checks escapes again when the same text is scanned twice', () => {
    const bad =
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":"\\x"},"messageHistory":[],"toolSchema":[]}}';
    const good = bigFrames[0] as string;
    for (const text of [bad, good, bad, bad]) expect(scanHostFrame(text, DEPTH) === null).toBe(text === bad);
  });

  // Regression: the scan once remembered its text and compared it with the next frame's, and two
  // strings of equal content compare by reading both whole; a host sending the same 1 MiB state
  // twice made the relay read the whole frame again for each of its ~250,000 strings (a minute or
  // more on one core, every room stalled). Fixed, the second scan costs what the first does (tens
  // of ms); the test's timeout is the only clock here, two orders of magnitude above that.
  it('scans a frame sent again as fast as the first time: the work stays linear in its size', {
    timeout: 10_000,
  }, () => {
    const items = Array.from({ length: 250_000 }, () => 'x');
    const payload = { source: 'host', uiSpec: { stage: 'movie', items }, messageHistory: [], toolSchema: [] };
    const bytes = Buffer.from(JSON.stringify({ v: 'mvp-0.2', type: 'state.updated', payload }));
    expect(bytes.length).toBeGreaterThan(1_000_000);
    expect(bytes.length).toBeLessThan(1_100_000);
    // Each arrival is a new string of the same text, as the relay decodes each frame it receives.
    for (let arrival = 0; arrival < 3; arrival++) {
      expect(scanHostFrame(bytes.toString('utf8'), DEPTH)?.payloadEnd).toBe(bytes.length - 1);
    }
  });

  it(`reads at most ${MAX_MEMBERS} members of an envelope or a payload, so a payload of countless keys costs a bounded check`, () => {
    const object = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    expect(scanMembers(object(MAX_MEMBERS), 0, 2)?.members).toHaveLength(MAX_MEMBERS);
    expect(scanMembers(object(MAX_MEMBERS + 1), 0, 2)).toBeNull();
    const wide = `{"v":"mvp-0.2","type":"state.updated","payload":${object(200_000)}}`;
    expect(scanHostFrame(wide, DEPTH)).toBeNull();
    expect(decodeHostFrame(wide).ok).toBe(false);
  });

  it('leaves to the full decoder whatever is not plain one-line JSON with known fields', () => {
    const base = bigFrames[0] as string;
    const refused = [
      base.replace('{"v"', '{\n"v"'), // several lines: the log needs it rewritten
      base.replace('"payload":{', '"payload":{"extra":1,'), // a field the contract does not know
      base.replace('"payload":{', '"payload":{"source":"host",'), // a field twice
      base.replace('{"v"', '{"x":1,"v"'), // an envelope member the contract does not know
      base.replace('"type"', '"type":"tool.result","type"'), // an envelope member twice
      `{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":${'['.repeat(70)}${']'.repeat(70)},"messageHistory":[],"toolSchema":[]}}`,
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":"\\x"},"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":01},"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":[1,]},"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":-},"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":tru},"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"a":"\t"},"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"nobody","uiSpec":null,"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":[],"messageHistory":[],"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":null,"messageHistory":{},"toolSchema":[]}}',
      '{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":null,"messageHistory":[]}}',
      '{"v":"mvp-0.2","type":"tool.result","replyTo":"a","payload":{"success":true}}', // small frames: the full decoder
    ];
    for (const text of refused) expect(scanHostFrame(text, DEPTH), text).toBeNull();
  });

  it('never accepts a frame the full decoder refuses or reads differently (20,000 mutations)', () => {
    const next = random(20261125);
    const pieces = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '-', 'e', '.', 'n', 't', '\n', '\u0001', 'é'];
    let accepted = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = bigFrames[Math.floor(next() * bigFrames.length)] as string;
      for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
        const at = Math.floor(next() * text.length);
        const piece = pieces[Math.floor(next() * pieces.length)] as string;
        const kind = next();
        if (kind < 0.4) text = text.slice(0, at) + text.slice(at + 1);
        else if (kind < 0.8) text = text.slice(0, at) + piece + text.slice(at);
        else text = text.slice(0, at) + piece + text.slice(at + 1);
      }
      if (expectSameAsDecoder(text)) accepted += 1;
    }
    // Some mutations stay valid (a changed letter in a string): the comparison above ran on them.
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('uiSpecStage', () => {
  const frame = (uiSpec: object) =>
    JSON.stringify({
      v: 'mvp-0.2',
      type: 'state.updated',
      payload: { source: 'host', uiSpec, messageHistory: [], toolSchema: [] },
    });

  it('reads the stage off the text when it comes first, and parses the uiSpec when it does not', () => {
    const first = scanHostFrame(frame({ stage: 'seat', title: 'Pick seats', items: [{ stage: 'x' }] }), DEPTH);
    expect(uiSpecStage(first?.message.payload)).toBe('seat');
    const later = scanHostFrame(frame({ title: 'Pick seats', items: [{ stage: 'x' }], stage: 'ticket' }), DEPTH);
    expect(uiSpecStage(later?.message.payload)).toBe('ticket');
    const none = scanHostFrame(frame({ title: 'No stage here', items: [] }), DEPTH);
    expect(uiSpecStage(none?.message.payload)).toBeNull();
    // A payload the full decoder built (not scanned) is read the plain way.
    expect(uiSpecStage({ uiSpec: { stage: 'date' } })).toBe('date');
    expect(uiSpecStage({ uiSpec: null })).toBeNull();
  });
});
