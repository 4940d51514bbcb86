import { describe, expect, it } from 'vitest';
import { clauseAt, clauseStrength, DAY_BRIDGE, exampleAfter, normalize, polarity } from './text.ts';

const at = (text: string, word: string) => text.indexOf(word);

describe('normalize', () => {
  it('straightens quotes and shortens p.m. without moving any index', () => {
    const text = 'I don\u2019t want 3D \u2013 home by 10 p.m. please';
    const out = normalize(text);
    expect(out).toBe("I don't want 3D - home by 10 pm   please");
    expect(out.length).toBe(text.length);
  });
});

describe('a height is no age or count', () => {
  it.each([`I'm 6'5" and hate blocking the view`, "i'm six foot four, 1 ticket", 'he is 5 ft 2 in tall'])(
    '%s',
    (text) => {
      const read = normalize(text);
      expect(read).toHaveLength(text.length);
      expect(read).not.toMatch(/\b(?:6'5|six foot four|5 ft 2)/);
    },
  );

  it('keeps clock times and counts', () => {
    expect(normalize("at 6 o'clock, 2 tickets")).toBe("at 6 o'clock, 2 tickets");
  });
});

describe('clauses', () => {
  it('splits on punctuation and "but", not inside times or decimals', () => {
    const text = 'IMAX if possible, at 19:30, rated 7.5 but tomorrow';
    expect(text.slice(...clauseAt(text, at(text, 'IMAX')))).toBe('IMAX if possible');
    expect(text.slice(...clauseAt(text, at(text, '19:30')))).toBe(' at 19:30');
    expect(text.slice(...clauseAt(text, at(text, '7.5')))).toBe(' rated 7.5 ');
    expect(text.slice(...clauseAt(text, at(text, 'tomorrow')))).toBe(' tomorrow');
  });

  it('starts a new clause at "and" or "or" before a hedge', () => {
    const text = 'no 3d and preferably not too late';
    expect(text.slice(...clauseAt(text, at(text, '3d')))).toBe('no 3d ');
    expect(clauseStrength(text, at(text, '3d'))).toBeUndefined();
    expect(clauseStrength(text, at(text, 'late'))).toBe('soft');
    expect(polarity('no horror and ideally imax', at('no horror and ideally imax', 'imax'))).toBe('positive');
  });

  it('gives an example the strength of the clause it explains', () => {
    const text = '2 tickets, preferably not too late, like starting before 9';
    expect(clauseStrength(text, at(text, 'starting'))).toBe('soft');
    expect(clauseStrength('2 tickets, like before 9', 16)).toBeUndefined();
    expect(exampleAfter(text, at(text, ', like'))).toBe('like starting before 9');
    expect(exampleAfter(text, at(text, ', preferably'))).toBeUndefined();
  });

  it.each([
    ['IMAX if possible', 'soft'],
    ["IMAX if that's possible", 'soft'],
    ["IMAX if it's not too pricey", 'soft'],
    ["we'd love the recliner seats", undefined],
    ['we would love to see a drama', undefined],
    ['ideally IMAX', 'soft'],
    ["I'd prefer IMAX", 'soft'],
    ['maybe IMAX', 'soft'],
    ['it must be IMAX', 'hard'],
    ['we need IMAX', 'hard'],
    ['IMAX is not a must', 'soft'],
    ['IMAX', undefined],
  ] as const)('"%s" is %s', (text, strength) => {
    expect(clauseStrength(text, 0)).toBe(strength);
  });
});

describe('polarity', () => {
  it.each([
    ['no horror', 'horror', 'negative'],
    ['nothing too scary', 'scary', 'negative'],
    ['not a comedy or a drama', 'drama', 'negative'],
    ["I don't want to see anything scary", 'scary', 'negative'],
    ['no romantic comedies or horror', 'horror', 'negative'],
    ['non-IMAX', 'IMAX', 'negative'],
    ['3D instead of IMAX', 'IMAX', 'skip'],
    ['no horror, something funny', 'funny', 'positive'],
    ['nothing scary but a comedy', 'comedy', 'positive'],
    ['a comedy', 'comedy', 'positive'],
  ] as const)('"%s": %s is %s', (text, word, expected) => {
    expect(polarity(text, at(text, word))).toBe(expected);
  });

  it.each([
    ['not on monday', 'monday', 'negative'],
    ['not this coming sunday', 'sunday', 'negative'],
    ['not sunday or monday', 'monday', 'negative'],
    ['anything but horror on monday', 'monday', 'positive'],
    ['no imax in the evening', 'evening', 'positive'],
  ] as const)('"%s": with the day bridge, %s is %s', (text, word, expected) => {
    expect(polarity(text, at(text, word), 3, DAY_BRIDGE)).toBe(expected);
  });
});
