import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletion, LlmError, listModels } from './client.ts';
import { type FakeLlm, startFakeLlm, textReply, toolCallReply } from './testing.ts';

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
});

const failure = async (promise: Promise<unknown>): Promise<LlmError> => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
};

describe('chatCompletion', () => {
  it('posts the model, messages, tools and temperature 0 with a bearer token, and returns the message', async () => {
    fake.enqueue(toolCallReply('next', { reason: 'go on' }));
    const tools = [
      { type: 'function' as const, function: { name: 'next', description: 'Go on', parameters: { type: 'object' } } },
    ];
    const message = await chatCompletion(fake.config(), [{ role: 'user', content: 'hi' }], {
      tools,
      toolChoice: 'required',
    });
    expect(message.tool_calls?.[0]?.function).toEqual({ name: 'next', arguments: '{"reason":"go on"}' });
    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'hi' }],
      tools,
      tool_choice: 'required',
      temperature: 0,
    });
  });

  it('sends no Authorization header without a key, and no tools when there are none', async () => {
    fake.enqueue(textReply('hello'));
    const message = await chatCompletion(fake.config({ apiKey: null }), [{ role: 'user', content: 'hi' }]);
    expect(message.content).toBe('hello');
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    expect(fake.requests[0]?.body).not.toHaveProperty('tools');
    expect(fake.requests[0]?.body).not.toHaveProperty('tool_choice');
  });

  it('turns an HTTP error into an LlmError with the status and the server message', async () => {
    fake.enqueue({ status: 429, body: { error: { message: 'Rate limit reached' } } });
    const err = await failure(chatCompletion(fake.config(), [{ role: 'user', content: 'hi' }]));
    expect(err).toMatchObject({ kind: 'http', status: 429 });
    expect(err.message).toMatch(/HTTP 429: Rate limit reached/);
  });

  it('turns invalid JSON and an unexpected shape into LlmErrors', async () => {
    fake.enqueue({ raw: '<html>oops' }, { body: { choices: [] } }, { body: { choices: [{ message: {} }] } });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect(await failure(chatCompletion(fake.config(), messages))).toMatchObject({ kind: 'bad-json' });
    const empty = await failure(chatCompletion(fake.config(), messages));
    expect(empty).toMatchObject({ kind: 'schema' });
    expect(empty.message).toMatch(/choices/);
    const noContent = await failure(chatCompletion(fake.config(), messages));
    expect(noContent.message).toMatch(/neither content nor tool_calls/);
  });

  it('times out, can be cancelled, and reports an unreachable server', async () => {
    fake.enqueue({ ...textReply('late'), delayMs: 2_000 }, { ...textReply('late'), delayMs: 2_000 });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const timedOut = await failure(chatCompletion(fake.config({ timeoutMs: 100 }), messages));
    expect(timedOut).toMatchObject({ kind: 'timeout' });
    expect(timedOut.message).toMatch(/timed out after 100 ms/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await failure(chatCompletion(fake.config(), messages, { signal: controller.signal }))).toMatchObject({
      kind: 'aborted',
    });
    const config = fake.config();
    await fake.close();
    expect(await failure(chatCompletion(config, messages))).toMatchObject({ kind: 'network' });
    fake = await startFakeLlm();
  });
});

describe('listModels', () => {
  it('lists the ids of GET /models', async () => {
    fake.models = ['a', 'b'];
    expect(await listModels(fake.config())).toEqual(['a', 'b']);
  });
});
