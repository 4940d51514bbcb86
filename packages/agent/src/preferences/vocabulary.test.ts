import { describe, expect, it } from 'vitest';
import { genreLexicon, titleLexicon } from './vocabulary.ts';

describe('genre lexicon', () => {
  it('maps synonyms to genre names, most specific first', () => {
    const genres = genreLexicon();
    const find = (text: string) => genres.lookup(new RegExp(genres.source, 'i').exec(text)?.[0] ?? '');
    expect(find('romantic comedies')).toBe('Romantic Comedy');
    expect(find('something funny')).toBe('Comedy');
    expect(find('a cartoon')).toBe('Animation');
    expect(find('scary')).toBe('Horror');
    expect(find('science fiction')).toBe('Sci-Fi');
    expect(find('a family film')).toBe('Family');
    expect(find('me and my family')).toBeUndefined();
  });

  it("uses the visible genres' own spelling and learns genres it lacks", () => {
    const genres = genreLexicon(['Science Fiction', 'Western']);
    expect(genres.lookup('sci-fi')).toBe('Science Fiction');
    expect(genres.lookup('westerns')).toBe('Western');
  });
});

describe('title lexicon', () => {
  it('matches titles case-insensitively, with or without a leading article', () => {
    const titles = titleLexicon(['The Quiet Harbor', 'Encore']);
    const re = new RegExp(titles.source, 'i');
    expect(titles.lookup(re.exec('quiet harbor please')?.[0] ?? '')).toBe('The Quiet Harbor');
    expect(titles.lookup(re.exec('THE QUIET HARBOR')?.[0] ?? '')).toBe('The Quiet Harbor');
    expect(titleLexicon([]).source).toBe('');
  });
});
