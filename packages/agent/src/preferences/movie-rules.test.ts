import { describe, expect, it } from 'vitest';
import { updatePreferences } from './index.ts';
import { HOW_MANY } from './questions.ts';
import { CONTEXT, hard, read, soft } from './testing.ts';

const only = (text: string, kind: string) => hard(text).find((c) => c.kind === kind);

describe('title', () => {
  it.each([
    ['Orbital Drift', { is: ['Orbital Drift'] }],
    ["let's see orbital drift", { is: ['Orbital Drift'] }],
    ['Quiet Harbor', { is: ['The Quiet Harbor'] }],
    ['not Orbital Drift', { not: ['Orbital Drift'] }],
    ['Paper Lanterns or Pip and the Comet', { is: ['Paper Lanterns', 'Pip and the Comet'] }],
  ])('"%s"', (text, expected) => {
    expect(only(text, 'title')).toEqual({ kind: 'title', ...expected });
  });

  it('reads words inside a title as the title only ("Midnight Static" is not a time)', () => {
    expect(hard('Midnight Static please')).toEqual([{ kind: 'title', is: ['Midnight Static'] }]);
  });

  it('falls back to quoted text when no titles are visible', () => {
    const u = updatePreferences({ hard: [], soft: [] }, 'Two for "Some Film"', { today: '2026-11-21' });
    expect(u.model.hard).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'title', is: ['Some Film'] },
    ]);
  });

  it('does not guess at descriptions ("the lantern one": no title has the word "lantern")', () => {
    expect(hard('the lantern one')).toEqual([]);
  });

  it.each([
    ['we should like to see the harbor film on monday', 'The Quiet Harbor'],
    ['that cartographer movie', 'The Last Cartographer'],
    ['the comet one, please', 'Pip and the Comet'],
    ["I'd like to see that film about the cartographer", 'The Last Cartographer'],
    ['the movie with the comet', 'Pip and the Comet'],
  ])('a film called by one word of its title and what it is: "%s"', (text, title) => {
    expect(only(text, 'title')).toEqual({ kind: 'title', is: [title] });
  });

  it('a word too common, or in several titles, names no film', () => {
    expect(only('the night film', 'title')).toBeUndefined();
    expect(only('the new one', 'title')).toBeUndefined();
  });
});

describe('a title the visible list does not hold', () => {
  /** What the agent reads on a movie stage that lists only these titles. */
  const showing = (text: string, knownTitles = ['Orbital Drift', 'Night Ledger']) =>
    updatePreferences({ hard: [], soft: [] }, text, { today: '2026-11-21', knownTitles }).model;

  it.each([
    ['Winter Kings tomorrow, the earliest showing, one ticket', 'Winter Kings'],
    ["let's see Dune on Sunday", 'Dune'],
    ['two tickets for Pip and the Comet', 'Pip and the Comet'],
    ['Is Winter Kings on tomorrow evening?', 'Winter Kings'],
    ['Actually, make it Night Ledger', 'Night Ledger'],
  ])('"%s" names %s', (text, title) => {
    expect(showing(text, []).hard.find((c) => c.kind === 'title')).toEqual({ kind: 'title', is: [title] });
  });

  it('reads "Night Ledger" as a title, not as a night showing, when no list is visible', () => {
    expect(showing('Actually, make it Night Ledger', [])).toEqual({
      hard: [{ kind: 'title', is: ['Night Ledger'] }],
      soft: [],
      questions: [HOW_MANY],
    });
  });

  it('excludes one that is refused', () => {
    expect(showing('not Winter Kings, something else').hard).toEqual([{ kind: 'title', not: ['Winter Kings'] }]);
  });

  it('keeps listed titles as listed and adds the unlisted one', () => {
    expect(showing('Orbital Drift or Winter Kings').hard).toEqual([
      { kind: 'title', is: ['Orbital Drift', 'Winter Kings'] },
    ]);
  });

  it.each([
    'Sunday Evening, two adults',
    'Tomorrow Night in IMAX',
    'at Grand Central tomorrow',
    'Starlight Multiplex on Monday',
    'a Romantic Comedy tonight',
    'Me and my Wife, rows C and D',
    'Cheapest seats please',
    'I want two tickets for Monday',
  ])('names no title in "%s"', (text) => {
    expect(showing(text).hard.filter((c) => c.kind === 'title')).toEqual([]);
  });
});

describe('genre', () => {
  it.each([
    ['a comedy', { include: ['Comedy'] }],
    ['something sci-fi', { include: ['Sci-Fi'] }],
    ['something funny', { include: ['Comedy'] }],
    ['something for a good laugh', { include: ['Comedy'] }],
    ['a weepie', { include: ['Drama'] }],
    ['the film with the cowboys', { include: ['Western'] }],
    ['a proper tear-jerker', { include: ['Drama'] }],
    ['an animated film', { include: ['Animation'] }],
    ['a family movie', { include: ['Family'] }],
    ['a comedy or a drama', { include: ['Comedy', 'Drama'] }],
    ['no romantic comedies', { exclude: ['Romantic Comedy'] }],
    ['nothing scary', { exclude: ['Horror'] }],
    ["I don't want anything scary", { exclude: ['Horror'] }],
    ['no romantic comedies or horror', { exclude: ['Romantic Comedy', 'Horror'] }],
    ['no horror, something funny', { include: ['Comedy'], exclude: ['Horror'] }],
  ])('"%s"', (text, expected) => {
    expect(only(text, 'genre')).toEqual({ kind: 'genre', ...expected });
  });
});

describe('rating', () => {
  it.each([
    ['rated at least 7', 7],
    ['a rating above 8', 8],
    ['rated 8 or higher', 8],
    ['at least 7/10', 7],
    ['a 7.5+ rating', 7.5],
  ])('"%s" → min %s', (text, min) => {
    expect(only(text, 'rating')).toEqual({ kind: 'rating', min });
  });

  it('"good reviews" in a catalog rated out of 5 is the same share of 5', () => {
    const stars = {
      ...CONTEXT,
      knownFilms: [
        { title: 'Encore', genres: ['Musical'], rating: 4.2 },
        { title: 'Courtside', genres: ['Drama'], rating: 3.6 },
      ],
    };
    expect(updatePreferences({ hard: [], soft: [] }, 'something with good reviews', stars).model.soft).toEqual([
      { kind: 'rating', min: 3.75 },
    ]);
  });

  it.each([
    ['nothing scoring below 8 out of 10', 4],
    ['at least 8/10', 4],
    ['rated 7 out of 10 or higher', 3.5],
    ['nothing under 4 stars', 4],
    ['only stuff that scores 4 or more', 4],
    ['rated 4.5 or more', 4.5],
    ['rated 9 or more', 4.5],
    ['nothing with a tomatometer below 70 percent', 3.5],
    ['nothing less than 70% on rotten tomatoes', 3.5],
    ['at least 80% on rotten tomatoes', 4],
  ])('"%s" in a catalog rated out of 5 → min %s', (text, min) => {
    const stars = { ...CONTEXT, knownFilms: [{ title: 'Encore', genres: ['Musical'], rating: 4.2 }] };
    expect(updatePreferences({ hard: [], soft: [] }, text, stars).model.hard).toEqual([{ kind: 'rating', min }]);
  });

  it('"4 stars" in a catalog rated out of 10 is 8', () => {
    const tens = { ...CONTEXT, knownFilms: [{ title: 'Encore', genres: ['Musical'], rating: 7.9 }] };
    expect(updatePreferences({ hard: [], soft: [] }, 'nothing under 4 stars', tens).model.hard).toEqual([
      { kind: 'rating', min: 8 },
    ]);
  });

  it('"highly rated" is a soft 7.5 unless insisted on', () => {
    expect(soft('something highly rated')).toEqual([{ kind: 'rating', min: 7.5 }]);
    expect(hard('it must be highly rated')).toEqual([{ kind: 'rating', min: 7.5 }]);
  });

  it('"best rated" is the soft highestRated preference', () => {
    expect(soft('the best rated one')).toEqual([{ kind: 'highestRated' }]);
    expect(hard('it must be the top-rated one')).toEqual([]);
  });

  it('"2 or more tickets" is not a rating', () => {
    expect(only('2 or more tickets', 'rating')).toBeUndefined();
  });
});

describe('running time', () => {
  it.each([
    ['nothing longer than 100 minutes, i cant sit still longer than that', { maxMinutes: 100 }],
    ['under 2 hours please', { maxMinutes: 120 }],
    ["I can't sit for more than an hour and a half", { maxMinutes: 90 }],
    ['max 2hrs long', { maxMinutes: 120 }],
    ['something short, under 90 mins', { maxMinutes: 90 }],
    ['nothing over 2 hours', { maxMinutes: 120 }],
    ['no more than 1h45', { maxMinutes: 105 }],
    ['a film at least 2 hours long', { minMinutes: 120 }],
    ['something over 2 hours long', { minMinutes: 120 }],
    ['something longer than 2 hours', { minMinutes: 120 }],
    ['i want something LONG, 2 hours plus', { minMinutes: 120 }],
    ['a 2+ hours epic', { minMinutes: 120 }],
    ['two hours or more', { minMinutes: 120 }],
    ["i can't sit through more than 2 hours", { maxMinutes: 120 }],
    ['anything over 2 hours is too long', { maxMinutes: 120 }],
    ['nothing that runs longer than an hour and three quarters', { maxMinutes: 105 }],
    ['no more than an hour and a quarter', { maxMinutes: 75 }],
    ['two and a quarter hours max', { maxMinutes: 135 }],
    ['under one and three quarter hours', { maxMinutes: 105 }],
  ])('"%s" → %j', (text, bounds) => {
    expect(only(text, 'runtime')).toEqual({ kind: 'runtime', ...bounds });
  });

  it.each([
    'the cinema is 20 minutes away',
    'we have over 2 hours to kill',
    'less than 2 hours before my train',
    'starting within 2 hours',
    "i'm free for 2 hours plus",
  ])('"%s" is not about the film', (text) => {
    expect(only(text, 'runtime')).toBeUndefined();
  });
});

describe('age rating', () => {
  it.each([
    ['suitable for kids', ['G', 'PG']],
    ['it should be kid-friendly', ['G', 'PG']],
    ['appropriate for a 7-year-old', ['G', 'PG']],
    ['nothing above PG-13', ['G', 'PG', 'PG-13']],
    ['PG or lower', ['G', 'PG']],
    ['no R-rated movies', ['G', 'PG', 'PG-13']],
    ['rated PG13', ['PG-13']],
    ['PG-13 is fine but nothing R', ['G', 'PG', 'PG-13']],
    ['anything G or PG on monday', ['G', 'PG']],
    ['rated PG or PG-13', ['PG', 'PG-13']],
    ['G/PG only', ['G', 'PG']],
    ['no PG-13 or R', ['G', 'PG']],
    ["my 11yo wants an action film, PG-13's ok", ['G', 'PG', 'PG-13']],
  ])('"%s"', (text, allowed) => {
    expect(only(text, 'ageRating')).toEqual({ kind: 'ageRating', allowed });
  });
});

describe('ratings as people ask for them', () => {
  it.each(["whatever's rated highest", "what's good on sunday", 'any good sci-fi'])(
    '"%s" → highest rated',
    async (text) => {
      const { soft } = await import('./testing.ts');
      expect(soft(text)).toContainEqual({ kind: 'highestRated' });
    },
  );

  it('"nothing rated below 7" is a minimum of 7', () => {
    expect(hard('nothing rated below 7')).toEqual([{ kind: 'rating', min: 7 }]);
  });
});

describe('a film someone else put forward', () => {
  it('is no wish when the speaker sets it aside ("someone mentioned X but honestly just whatever\'s rated best")', () => {
    const { model } = read("someone mentioned Orbital Drift but honestly just whatever's rated best, 4 of us");
    expect(model.hard.filter((c) => c.kind === 'title')).toEqual([]);
    expect(model.soft).toContainEqual({ kind: 'highestRated' });
  });

  it('is still the film when the speaker does not set it aside', () => {
    expect(hard('my friend recommended Orbital Drift, 2 tickets')).toContainEqual({
      kind: 'title',
      is: ['Orbital Drift'],
    });
  });
});

describe('refusals said as a mood', () => {
  it.each(['not in the mood for anything funny or romantic, one ticket', 'sick of comedies, one ticket'])(
    '"%s" excludes the genres',
    (text) => {
      const genre = hard(text).find((c) => c.kind === 'genre');
      expect(genre).toMatchObject({ exclude: expect.arrayContaining(['Comedy']) });
      expect(genre).not.toHaveProperty('include');
    },
  );
});

describe('the film held turned down in a later message', () => {
  const titles = (...m: string[]) => hard(...m).filter((c) => c.kind === 'title' || c.kind === 'genre');
  it.each([
    [
      "ah wait, my mate's already seen that one. can you find us a different thriller instead?",
      [
        { kind: 'title', not: ['Orbital Drift'] },
        { kind: 'genre', include: ['Thriller'] },
      ],
    ],
    ['something else please, we saw it last week', [{ kind: 'title', not: ['Orbital Drift'] }]],
    ["we've already seen it", [{ kind: 'title', not: ['Orbital Drift'] }]],
    [
      'not that one, a comedy',
      [
        { kind: 'title', not: ['Orbital Drift'] },
        { kind: 'genre', include: ['Comedy'] },
      ],
    ],
  ])('"%s"', (text, want) => {
    expect(titles('Orbital Drift on Saturday for 2', text)).toEqual(want);
  });

  it('keeps the film for "a different day" or "another showing"', () => {
    for (const text of ['can we do a different day? sunday', 'another showing, later if possible'])
      expect(titles('Orbital Drift on Saturday for 2', text)).toEqual([{ kind: 'title', is: ['Orbital Drift'] }]);
  });
});

describe('kinds of film a catalog may not list', () => {
  it.each([
    ['my grandad only watches war films, is there a war film on friday?', 'War'],
    ['2 tickets for a superhero movie saturday', 'Superhero'],
    ['a fantasy film sunday for 1', 'Fantasy'],
    ['a biopic tonight', 'Biography'],
  ])('"%s" asks for %s, which a world without it cannot meet', (text, genre) => {
    expect(only(text, 'genre')).toEqual({ kind: 'genre', include: [genre] });
  });
  it('"a war of words" is no kind of film', () => {
    expect(only('we had a war of words about it, 2 for orbital drift', 'genre')).toBeUndefined();
  });
});
