import { describe, expect, it } from 'vitest';
import { updatePreferences } from './index.ts';
import { HOW_MANY } from './questions.ts';
import { CONTEXT, hard, read, soft } from './testing.ts';
import type { PreferenceModel } from './types.ts';

const theater = (text: string) => hard(text).filter((c) => c.kind === 'theater');

describe('a named theater', () => {
  it('reads "at Riverside IMAX" as that theater, not as an IMAX wish, and says it back', () => {
    const u = read('Two adults for Orbital Drift tomorrow evening at Riverside IMAX');
    expect(u.model.hard).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'ticketMix', adult: 2 },
      { kind: 'title', is: ['Orbital Drift'] },
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'startTime', after: '17:00' },
      { kind: 'theater', is: ['Riverside IMAX'] },
    ]);
    expect(u.summary).toBe(
      'Understood: 2 adult tickets, Orbital Drift, tomorrow (Sun 22 Nov), starting after 17:00, at Riverside IMAX.',
    );
  });

  it.each([
    ['at Grand Central tomorrow', 'Grand Central'],
    ['At Lumen, one ticket', 'Lumen'],
    ['at the Regent tonight', 'Regent'],
    ['in Millbrook Picture House on Monday', 'Millbrook Picture House'],
    // Without "at": a run ending in a venue word.
    ['Starlight Multiplex on Monday', 'Starlight Multiplex'],
    ['Orbital Drift, Oakwood Community Cinema', 'Oakwood Community Cinema'],
  ])('"%s" → %s', (text, name) => {
    expect(theater(text)).toEqual([{ kind: 'theater', is: [name] }]);
  });

  it('keeps IMAX a format when it is not part of the name', () => {
    expect(hard('Orbital Drift in IMAX at Riverside')).toEqual([
      { kind: 'title', is: ['Orbital Drift'] },
      { kind: 'format', is: ['IMAX'] },
      { kind: 'theater', is: ['Riverside'] },
    ]);
  });

  it('"not at Starlight Multiplex" excludes one; refusals add up; the latest positive wins', () => {
    expect(theater('Orbital Drift, not at Starlight Multiplex')).toEqual([
      { kind: 'theater', not: ['Starlight Multiplex'] },
    ]);
    expect(read('not at Starlight Multiplex', 'and not at Grand Central Cinema either').summary).toBe(
      'Understood: not at Starlight Multiplex or Grand Central Cinema.',
    );
    expect(theater('at Riverside IMAX, not at Starlight Multiplex')).toEqual([
      { kind: 'theater', is: ['Riverside IMAX'], not: ['Starlight Multiplex'] },
    ]);
    expect(hard('at Riverside IMAX', 'actually at Lumen Arthouse').filter((c) => c.kind === 'theater')).toEqual([
      { kind: 'theater', is: ['Lumen Arthouse'] },
    ]);
  });

  it('reads a theater that does not exist as named: the solver then says which theaters there are', () => {
    expect(theater('a comedy tonight at Nowhere Palace Cinema')).toEqual([
      { kind: 'theater', is: ['Nowhere Palace Cinema'] },
    ]);
  });

  it('is soft when hedged', () => {
    expect(soft('ideally at Lumen Arthouse')).toEqual([{ kind: 'theater', is: ['Lumen Arthouse'] }]);
  });

  it('reads "near Grand Central" as a place: no theater, and "Central" is not "central seats"', () => {
    const u = read('Orbital Drift near Grand Central');
    expect(u.model).toEqual({ hard: [{ kind: 'title', is: ['Orbital Drift'] }], soft: [], questions: [HOW_MANY] });
    expect(read('near Grand Central Cinema').model.hard).toEqual([{ kind: 'theater', is: ['Grand Central Cinema'] }]);
  });

  it('is withdrawn with the theater or distance wishes ("any cinema is fine", "anywhere")', () => {
    const none = { hard: [], soft: [], questions: [HOW_MANY] };
    expect(read('at Riverside IMAX within 5 km', 'any cinema is fine').model).toEqual(none);
    expect(read('at Riverside IMAX', 'anywhere').model).toEqual(none);
    expect(read('at Riverside IMAX', "I don't care about the theater").model).toEqual(none);
    expect(hard('in Millbrook on Monday')).toContainEqual({ kind: 'theater', is: ['Millbrook'] });
  });
});

describe('a theater whose name ends in its screens, before any stage lists theaters', () => {
  it('"at Lakeside 12" is the theater, not a start at 12', () => {
    const h = hard('Friday straight after work at Lakeside 12, one ticket');
    expect(h).toContainEqual({ kind: 'theater', is: ['Lakeside 12'] });
    expect(h.find((c) => c.kind === 'startTime' && c.before === '12:00')).toBeUndefined();
  });

  it('a clock after the name stays a clock', () => {
    const h = hard('at Lakeside 7pm, one ticket');
    expect(h).toContainEqual({ kind: 'theater', is: ['Lakeside'] });
    expect(h).toContainEqual(expect.objectContaining({ kind: 'startTime' }));
  });
});

describe('theaters the agent can see (the theater stage)', () => {
  const onTheaterStage = { ...CONTEXT, knownTheaters: ['Festival Dome', 'Harbour Screens', 'Old Town Cinema'] };
  const hear = (text: string, model: PreferenceModel = { hard: [], soft: [] }) =>
    updatePreferences(model, text, onTheaterStage);

  it('recognizes a listed name without "at" or a venue word, in any case', () => {
    expect(hear('make it festival dome').model.hard).toEqual([{ kind: 'theater', is: ['Festival Dome'] }]);
    expect(hear('Harbour Screens please').model.hard).toEqual([{ kind: 'theater', is: ['Harbour Screens'] }]);
    expect(hear('not Harbour Screens').model.hard).toEqual([{ kind: 'theater', not: ['Harbour Screens'] }]);
  });

  it('takes the listed name for a shorter one that names exactly one theater', () => {
    expect(hear('at Festival, two tickets').model.hard).toContainEqual({ kind: 'theater', is: ['Festival Dome'] });
    expect(hear('Old Town').summary).toBe('Understood: at Old Town Cinema.');
  });

  it('is not read as a title the list lacks', () => {
    expect(hear('Festival Dome tomorrow').model.hard.filter((c) => c.kind === 'title')).toEqual([]);
  });

  it('takes a listed name by its first word in lower case where a place is named, and a change of theater replaces', () => {
    const first = hear('2 for tomorrow night at festival pls');
    expect(first.model.hard).toContainEqual({ kind: 'theater', is: ['Festival Dome'] });
    const changed = hear('scratch that, make it harbour instead. same film same night', first.model);
    expect(changed.model.hard.filter((c) => c.kind === 'theater')).toEqual([
      { kind: 'theater', is: ['Harbour Screens'] },
    ]);
    // Before a venue word it names the theater too: "harbour cinema on sunday".
    expect(hear('harbour cinema on sunday, afternoon').model.hard).toContainEqual({
      kind: 'theater',
      is: ['Harbour Screens'],
    });
    // A first word alone elsewhere names nothing ("the festival season"), nor a short or venue word.
    expect(hear('2 tickets, it is festival season').model.hard.filter((c) => c.kind === 'theater')).toEqual([]);
  });

  it('takes a name of two words without its venue word, anywhere, and "prefer" before a first word', () => {
    const known = { ...CONTEXT, knownTheaters: ['Old Mill Cinema', 'Lakeside 12', 'Riverside Art House'] };
    const theaters = (text: string) =>
      updatePreferences({ hard: [], soft: [] }, text, known).model.hard.filter((c) => c.kind === 'theater');
    expect(theaters('old mill please')).toEqual([{ kind: 'theater', is: ['Old Mill Cinema'] }]);
    expect(theaters('not old mill')).toEqual([{ kind: 'theater', not: ['Old Mill Cinema'] }]);
    expect(
      updatePreferences({ hard: [], soft: [] }, "we'd prefer lakeside", known).model.soft.filter(
        (c) => c.kind === 'theater',
      ),
    ).toEqual([{ kind: 'theater', is: ['Lakeside 12'] }]);
  });

  it.each([
    'on second thoughts skip harbour, parking there is a nightmare',
    'not harbour please',
    'avoid harbour this time',
    "harbour's out, the parking is awful",
  ])('takes "%s" as refusing the theater by its first word', (text) => {
    const first = hear('2 for tomorrow night at harbour pls');
    expect(hear(text, first.model).model.hard.filter((c) => c.kind === 'theater')).toEqual([
      { kind: 'theater', not: ['Harbour Screens'] },
    ]);
  });
});

describe('a venue named in lower case', () => {
  it('reads "at grand central cinema" up to its venue word, and not "the local cinema"', () => {
    expect(hard('iron meridian at grand central cinema on monday')).toContainEqual({
      kind: 'theater',
      is: ['Grand Central Cinema'],
    });
    expect(hard('at the local cinema').filter((c) => c.kind === 'theater')).toEqual([]);
  });

  it('names none with "the cinema with the cafe" or "whichever cinema is nearest", even where a theater is called Cinema', () => {
    const known = { ...CONTEXT, knownTheaters: ['Old Town Cinema', 'Harbour Screens'] };
    for (const text of ['at the cinema with the cafe, tuesday', 'and at whichever cinema is nearest to us']) {
      expect(
        updatePreferences({ hard: [], soft: [] }, text, known).model.hard.filter((c) => c.kind === 'theater'),
      ).toEqual([]);
    }
  });
});

describe('a lower-case venue opening a clause', () => {
  it('reads "lakeside cinema on sunday" as a theater, and "no imax" or "any cinema" as none', () => {
    expect(theater('lakeside cinema on sunday, afternoon showing')).toEqual([
      { kind: 'theater', is: ['Lakeside Cinema'] },
    ]);
    expect(theater('2 tickets. any cinema works')).toEqual([]);
    expect(hard('no imax')).toEqual([{ kind: 'format', not: ['IMAX'] }]);
  });
});

describe('a stadium named in lower case', () => {
  it('reads "nortgate stadium" between commas as a theater, mended once the stage lists its name', () => {
    expect(theater("fri night, 2 adults, nortgate stadium. whatever they've got in 3d")).toEqual([
      { kind: 'theater', is: ['Nortgate Stadium'] },
    ]);
  });
});

describe('theaters named by their first words in a list', () => {
  it('"lakeside or riverside" names both', () => {
    const known = ['Lakeside 12', 'Riverside Art House', 'Northgate Stadium 16'];
    const theaters = (text: string) =>
      updatePreferences({ hard: [], soft: [] }, text, { ...CONTEXT, knownTheaters: known }).model.hard.filter(
        (c) => c.kind === 'theater',
      );
    expect(theaters('2 adults on sunday, lakeside or riverside')).toEqual([
      { kind: 'theater', is: ['Lakeside 12', 'Riverside Art House'] },
    ]);
    expect(theaters('2 adults on sunday, either lakeside or northgate')).toEqual([
      { kind: 'theater', is: ['Lakeside 12', 'Northgate Stadium 16'] },
    ]);
  });
});

describe('theaters refused in a list', () => {
  const WORLD = {
    ...CONTEXT,
    knownTheaters: ['Lakeside 12', 'Northgate Stadium 16', 'Riverside Art House', 'Old Mill Cinema'],
  };
  const refused = (text: string) =>
    updatePreferences({ hard: [], soft: [] }, text, WORLD).model.hard.find((c) => c.kind === 'theater');
  it.each([
    ['2 adults sat, anywhere except northgate and lakeside', ['Northgate Stadium 16', 'Lakeside 12']],
    [
      '2 adults sat, not northgate, lakeside or riverside',
      ['Northgate Stadium 16', 'Lakeside 12', 'Riverside Art House'],
    ],
    ['2 adults sat, neither northgate nor lakeside', ['Northgate Stadium 16', 'Lakeside 12']],
  ])('"%s"', (text, not) => {
    expect(refused(text)).toEqual({ kind: 'theater', not });
  });
  it('a theater wished for after a full stop is not refused with the one before', () => {
    expect(refused('2 adults sat, not northgate. lakeside please')).toEqual({
      kind: 'theater',
      is: ['Lakeside 12'],
      not: ['Northgate Stadium 16'],
    });
  });
});

describe('venue words that name no theater', () => {
  it.each([
    'If it plays in many cinemas, the nearest one please, 1 adult sunday',
    'ordinary cinema seats are agony so a recliner, 1 adult sunday',
    'it shows in several theaters I think, 1 adult sunday',
    'in the imax screen ideally, 1 adult sunday',
    'at a proper cinema for once, 1 adult sunday',
  ])('"%s" wishes for no theater', (text) => {
    expect(theater(text)).toEqual([]);
  });

  it('still reads a theater named in lower case with its venue word', () => {
    expect(theater('at grand central cinema tomorrow, 2 adults')).toEqual([
      { kind: 'theater', is: ['Grand Central Cinema'] },
    ]);
  });
});

describe('a theater said to be better, by its first word', () => {
  const WORLD = {
    ...CONTEXT,
    knownTheaters: ['Lakeside 12', 'Northgate Stadium 16', 'Riverside Art House', 'Old Mill Cinema'],
  };
  const after = (...messages: string[]) => {
    let model: PreferenceModel = { hard: [], soft: [] };
    for (const text of messages) model = updatePreferences(model, text, WORLD).model;
    return [...model.hard, ...model.soft].filter((c) => c.kind === 'theater');
  };
  it('"no wait, lakeside is nearer" replaces the theater held', () => {
    expect(after('2 adults saturday at northgate', 'no wait, lakeside is nearer')).toEqual([
      { kind: 'theater', is: ['Lakeside 12'] },
    ]);
  });
  it('"riverside would be better" is a wish for it; "lakeside is out" still refuses', () => {
    expect(after('2 adults saturday, riverside would be better')).toEqual([
      { kind: 'theater', is: ['Riverside Art House'] },
    ]);
    expect(after('2 adults saturday, lakeside is out')).toEqual([{ kind: 'theater', not: ['Lakeside 12'] }]);
  });
});
