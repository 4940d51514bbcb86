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

describe('price limits through the LLM reader', () => {
  const PRICED = 'orbital drift tmrw, 2 adults, under 20 a ticket';
  const base = [
    { kind: 'title', is: ['Orbital Drift'] },
    { kind: 'seatCount', count: 2 },
    { kind: 'ticketMix', adult: 2 },
  ];

  it('uses a limit given as the total, and tells the model a per-ticket limit is a total', async () => {
    fake.enqueue(textReply(JSON.stringify({ hard: [...base, { kind: 'price', maxTotal: 40 }], soft: [] })));
    const read = await readWithLlm(fake.config(), EMPTY_MODEL, PRICED, CONTEXT);
    expect(read.source).toBe('llm');
    expect(read.model.hard).toContainEqual({ kind: 'price', maxTotal: 40 });
    const system = JSON.stringify(fake.requests.at(-1)?.body.messages[0]);
    expect(system).toContain('price {maxTotal}');
    expect(system).toContain('per ticket');
  });

  it('keeps a soft limit soft', async () => {
    fake.enqueue(textReply(JSON.stringify({ hard: base, soft: [{ kind: 'price', maxTotal: 25 }] })));
    const read = await readWithLlm(
      fake.config(),
      EMPTY_MODEL,
      'orbital drift tmrw, 2 adults, ideally under 25',
      CONTEXT,
    );
    expect(read.source).toBe('llm');
    expect(read.model.soft).toEqual([{ kind: 'price', maxTotal: 25 }]);
  });

  it.each([
    ['a per-ticket field the model does not have', { kind: 'price', maxPerTicket: 20 }],
    ['a negative limit', { kind: 'price', maxTotal: -40 }],
    ['a limit that is not a number', { kind: 'price', maxTotal: '40' }],
  ])('falls back to the rules on %s, which read the limit themselves', async (_what, price) => {
    fake.enqueue(textReply(JSON.stringify({ hard: [...base, price], soft: [] })));
    const read = await readWithLlm(fake.config(), EMPTY_MODEL, PRICED, CONTEXT);
    expect(read.source).toBe('rules');
    expect(read.fallbackReason).toMatch(/constraint model/);
    expect(read.model.hard).toContainEqual({ kind: 'price', maxTotal: 40 });
  });
});
