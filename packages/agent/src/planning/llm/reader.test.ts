import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_MODEL, updatePreferences } from '../../preferences/index.ts';
import { CONTEXT } from '../../preferences/testing.ts';
import { readWithLlm } from './reader.ts';
import { type FakeLlm, startFakeLlm, textReply } from './testing.ts';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());

const MESSAGE = 'me and my 8 year old, orbital drift tmrw evening';
const rules = () => updatePreferences(EMPTY_MODEL, MESSAGE, CONTEXT).model;

describe('the LLM reader (against the local fake)', () => {
  it('uses a valid answer, also in a code fence, and sends the study day, the titles and the message', async () => {
    const answer = {
      hard: [
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'ticketMix', adult: 1, child: 1 },
        { kind: 'seatCount', count: 2 },
      ],
      soft: [{ kind: 'startTime', after: '17:00' }],
      questions: ['Which day?'],
    };
    fake.enqueue(textReply(`Here you go:\n\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``));
    const read = await readWithLlm(fake.config(), EMPTY_MODEL, MESSAGE, CONTEXT);
    expect(read.source).toBe('llm');
    expect(read.model).toEqual(answer);
    expect(read.changed).toEqual(expect.arrayContaining(['title', 'ticketMix', 'startTime']));
    const sent = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect(sent).toContain('2026-11-21');
    expect(sent).toContain('Orbital Drift');
    expect(sent).toContain('tmrw evening');
  });

  it.each([
    [
      'a constraint the model refuses',
      textReply(JSON.stringify({ hard: [{ kind: 'seatCount', count: -2 }], soft: [] })),
      /constraint model/,
    ],
    ['an answer that is not JSON', textReply('two tickets for Orbital Drift'), /not JSON/],
    [
      'a day before the study day',
      textReply(JSON.stringify({ hard: [{ kind: 'date', dates: ['2026-11-20'] }], soft: [] })),
      /before the study day/,
    ],
    ['a server error', { status: 500, body: { error: { message: 'down' } } }, /http/],
  ])('falls back to the rules on %s', async (_what, reply, reason) => {
    fake.enqueue(reply);
    const read = await readWithLlm(fake.config(), EMPTY_MODEL, MESSAGE, CONTEXT);
    expect(read.source).toBe('rules');
    expect(read.fallbackReason).toMatch(reason);
    expect(read.model).toEqual(rules());
  });
});
