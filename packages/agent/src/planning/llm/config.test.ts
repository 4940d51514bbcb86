import { describe, expect, it } from 'vitest';
import { DEFAULT_LLM_CONTEXT_TOKENS, DEFAULT_LLM_TIMEOUT_MS, LlmConfigError, llmConfigFromEnv } from './config.ts';

describe('llmConfigFromEnv', () => {
  it('is null when nothing is configured (the deterministic planner needs nothing)', () => {
    expect(llmConfigFromEnv({})).toBeNull();
    expect(llmConfigFromEnv({ USHER_LLM_BASE_URL: '  ', USHER_LLM_MODEL: '' })).toBeNull();
  });

  it('reads a full configuration, without a trailing slash', () => {
    expect(
      llmConfigFromEnv({
        USHER_LLM_BASE_URL: 'https://api.openai.com/v1/',
        USHER_LLM_API_KEY: 'sk-abc',
        USHER_LLM_MODEL: 'gpt-4o-mini',
      }),
    ).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-abc',
      model: 'gpt-4o-mini',
      timeoutMs: DEFAULT_LLM_TIMEOUT_MS,
      contextTokens: DEFAULT_LLM_CONTEXT_TOKENS,
    });
  });

  it('needs no key for a local server, and reads a timeout and a context window', () => {
    expect(
      llmConfigFromEnv({
        USHER_LLM_BASE_URL: 'http://127.0.0.1:8080/v1',
        USHER_LLM_MODEL: 'qwen',
        USHER_LLM_TIMEOUT_MS: '5000',
        USHER_LLM_CONTEXT_TOKENS: ' 32768 ',
      }),
    ).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: null,
      model: 'qwen',
      timeoutMs: 5000,
      contextTokens: 32768,
    });
  });

  it.each(['0', '-5', '1.5', '12k', '1e5', '99999999999999999999'])(
    'refuses USHER_LLM_CONTEXT_TOKENS=%s, naming the variable',
    (value) => {
      expect(() =>
        llmConfigFromEnv({
          USHER_LLM_BASE_URL: 'http://host/v1',
          USHER_LLM_MODEL: 'm',
          USHER_LLM_CONTEXT_TOKENS: value,
        }),
      ).toThrow(
        new LlmConfigError(`USHER_LLM_CONTEXT_TOKENS must be a positive whole number of tokens, got "${value}"`),
      );
    },
  );

  it('says clearly what is wrong with a malformed or partial configuration', () => {
    const bad = (env: Record<string, string>) => () => llmConfigFromEnv(env);
    expect(bad({ USHER_LLM_BASE_URL: 'not a url', USHER_LLM_MODEL: 'm' })).toThrow(
      /USHER_LLM_BASE_URL is not a valid URL: "not a url"/,
    );
    expect(bad({ USHER_LLM_BASE_URL: 'ftp://host/v1', USHER_LLM_MODEL: 'm' })).toThrow(/http:\/\/ or https:\/\//);
    expect(bad({ USHER_LLM_BASE_URL: 'http://host/v1?x=1', USHER_LLM_MODEL: 'm' })).toThrow(/query/);
    expect(bad({ USHER_LLM_BASE_URL: 'http://host/v1' })).toThrow(/USHER_LLM_MODEL is required/);
    expect(bad({ USHER_LLM_MODEL: 'm' })).toThrow(/USHER_LLM_BASE_URL is required when USHER_LLM_MODEL/);
    expect(bad({ USHER_LLM_API_KEY: 'sk' })).toThrow(/USHER_LLM_BASE_URL is required when USHER_LLM_API_KEY/);
    expect(bad({ USHER_LLM_BASE_URL: 'http://host/v1', USHER_LLM_MODEL: 'm', USHER_LLM_TIMEOUT_MS: '0' })).toThrow(
      /USHER_LLM_TIMEOUT_MS/,
    );
    expect(bad({ USHER_LLM_BASE_URL: 'nope', USHER_LLM_MODEL: 'm' })).toThrow(LlmConfigError);
  });

  it('never puts the API key into an error', () => {
    expect(() => llmConfigFromEnv({ USHER_LLM_API_KEY: 'sk-secret', USHER_LLM_MODEL: 'm' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('sk-secret') }),
    );
  });
});
