import { describe, expect, it } from 'vitest';
import { hits, span } from './match.ts';
import { CONTEXT } from './testing.ts';

const words = (text: string, source: string) =>
  hits({ text, original: text, context: CONTEXT }, source, (m) => ({ ...span(m), drafts: [] })).map((h) =>
    text.slice(h.start, h.end),
  );

describe('hits', () => {
  it('matches whole words only, case-insensitively', () => {
    expect(words('Action! No transaction.', 'action')).toEqual(['Action']);
    expect(words('a non-IMAX one', 'imax')).toEqual(['IMAX']);
  });
});
