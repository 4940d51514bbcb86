import { describe, expect, it } from 'vitest';
import { HOW_MANY } from './questions.ts';
import { read } from './testing.ts';

describe('what the reader could not settle', () => {
  it('asks how many when people are named without a number, until a count is given', () => {
    expect(read('pip and the comet tomorrow for me and the kids').model.questions).toEqual([HOW_MANY]);
    expect(read('pip and the comet tomorrow for me and the kids', 'sunny today').model.questions).toEqual([HOW_MANY]);
    expect(read('pip and the comet tomorrow for me and the kids', 'one adult and two children').model.questions).toBe(
      undefined,
    );
  });

  it('asks about a number no rule read, quoting the words around it', () => {
    expect(read('orbital drift tomorrow for 7').model.questions).toEqual(['What did you mean by "tomorrow for 7"?']);
  });

  it('asks nothing when every wish is read', () => {
    expect(read('2 tickets for orbital drift tomorrow evening, not the front row').model.questions).toBe(undefined);
  });

  it('says which words it changed and which it did not use', () => {
    const understanding = read('2 tix for orbitel drift tmrw, my cat says hi');
    expect(understanding.fixes).toContainEqual({ from: 'orbitel drift', to: 'Orbital Drift' });
    expect(understanding.unread).toEqual(['cat', 'says']);
  });
});
