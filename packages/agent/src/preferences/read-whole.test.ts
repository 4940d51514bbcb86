import { defaultScenario } from '@usher/booking';
import { describe, expect, it } from 'vitest';
import { updatePreferences } from './index.ts';
import { CONTEXT, read } from './testing.ts';
import type { PreferenceModel } from './types.ts';

/*
 * Wishes people write that the reader once dropped or turned into a question about its own
 * parse. Each case is a class of phrasing, not one sentence: the same wish said another way.
 */

const hard = (...messages: string[]) => read(...messages).model.hard;
const soft = (...messages: string[]) => read(...messages).model.soft;
const kinds = (...messages: string[]) => hard(...messages).map((c) => c.kind);

describe('a distance refused as "more than"', () => {
  it.each([
    ["I'd rather not drive more than 8 miles, 2 adults tomorrow", 12.9],
    ["2 adults tomorrow, we won't travel over 6 miles", 9.7],
    ['2 adults tomorrow, not more than 5 km away', 5],
  ])('%s', (text, km) => {
    expect(hard(text)).toContainEqual({ kind: 'distance', maxKm: km });
    expect(read(text).model.questions).toBeUndefined();
  });

  it('is no wish when nothing refuses it', () => {
    expect(kinds('2 adults tomorrow, we live more than 5 miles out')).not.toContain('distance');
  });
});

describe('rows by number, recliners, and parts of the day around meals', () => {
  it('reads "rows 8 to 10" and "row 4 or 5" as row letters', () => {
    expect(hard('4 adults for orbital drift, rows 8 to 10')).toContainEqual({ kind: 'rows', allowed: ['H', 'I', 'J'] });
    expect(hard('2 adults for orbital drift, row 4 or 5')).toContainEqual({ kind: 'rows', allowed: ['D', 'E'] });
  });

  it('reads recliners as the premium seats, with their count', () => {
    const model = read('2 recliners for orbital drift tomorrow').model;
    expect(model.hard).toContainEqual({ kind: 'seatKind', seatKind: 'premium' });
    expect(model.hard).toContainEqual({ kind: 'seatCount', count: 2 });
    expect(hard('no recliners, 2 adults')).toContainEqual({ kind: 'seatKind', seatKind: 'standard' });
  });

  it('reads "after lunch", "lunchtime" and "after dinner", firmly or softly as said', () => {
    expect(hard('2 adults tomorrow after lunch')).toContainEqual({ kind: 'startTime', after: '12:00' });
    expect(soft('2 adults tomorrow, ideally after lunch')).toContainEqual({ kind: 'startTime', after: '12:00' });
    expect(hard('2 adults tomorrow after dinner')).toContainEqual({ kind: 'startTime', after: '19:00' });
  });

  it('reads a minimum in stars said after the number', () => {
    expect(hard('2 adults, 4 stars or more')).toContainEqual({ kind: 'rating', min: 4 });
    expect(hard('2 adults, 4.5 star films only')).toContainEqual({ kind: 'rating', min: 4.5 });
  });
});

describe('who is coming', () => {
  it('gives boys, girls and lads a child ticket, and sons and daughters one when the message speaks of kids', () => {
    expect(hard('me, my wife and our 2 boys, something for the kids on sunday')).toContainEqual({
      kind: 'ticketMix',
      adult: 2,
      child: 2,
    });
    expect(hard("my lad's 9 and wants to see orbital drift sunday, me and him")).toContainEqual({
      kind: 'ticketMix',
      adult: 1,
      child: 1,
    });
    expect(hard('my husband, me and our 3 sons, a family film')).toContainEqual({
      kind: 'ticketMix',
      adult: 2,
      child: 3,
    });
    // A son of no stated age, with no word of kids, may be grown up: no child ticket is guessed.
    expect(kinds('me and my son tomorrow')).not.toContain('ticketMix');
  });

  it('takes counts by type said first as the whole party, the people named after them among them', () => {
    expect(hard('3 tickets tomorrow', "sorry, make that 2 adults and 2 kids, we're bringing my nephew")).toContainEqual(
      {
        kind: 'ticketMix',
        adult: 2,
        child: 2,
      },
    );
    expect(hard('2 adults and a child: me, my wife and our son, on sunday')).toContainEqual({
      kind: 'ticketMix',
      adult: 2,
      child: 1,
    });
    // Named first, the speaker is one more than the counts after them.
    expect(hard('me and 2 kids and 1 adult friend, tomorrow')).toContainEqual({
      kind: 'ticketMix',
      adult: 2,
      child: 2,
    });
  });
});

describe('corrections replace', () => {
  it('a day refused after it is named drops it ("thursday\'s no good", "doesn\'t work", "can\'t do")', () => {
    expect(hard('2 adults thursday evening', "thursday's no good, tuesday?")).toContainEqual({
      kind: 'date',
      dates: ['2026-11-24'],
    });
    expect(hard("thursday doesn't work for us, 2 adults, what about friday")).toContainEqual({
      kind: 'date',
      dates: ['2026-11-27'],
    });
    expect(hard('2 adults friday', "can't do friday, make it saturday")).toContainEqual({
      kind: 'date',
      dates: ['2026-11-21'],
    });
    // "Bad", "awkward", "tricky", "a problem": refused too.
    for (const text of [
      "hmm tuesday's bad, monday?",
      'tuesday is a bit awkward, monday instead',
      "tuesday's a problem, monday",
    ]) {
      expect(hard('2 adults on tuesday', text), text).toContainEqual({ kind: 'date', dates: ['2026-11-23'] });
    }
    expect(hard('2 adults tuesday, IMAX is a problem')).toContainEqual({ kind: 'format', not: ['IMAX'] });
  });

  it('a film named by genre after its title replaces the title, and the other way round', () => {
    const toComedy = read(
      '2 for Night Ledger on sunday evening',
      "wait no, she can't stand thrillers. a comedy instead",
    );
    expect(toComedy.model.hard.filter((c) => c.kind === 'title')).toEqual([]);
    expect(toComedy.model.hard).toContainEqual({ kind: 'genre', include: ['Comedy'], exclude: ['Thriller'] });
    const toTitle = read('a comedy tomorrow for 2', 'make it Orbital Drift');
    expect(toTitle.model.hard.filter((c) => c.kind === 'genre')).toEqual([]);
    expect(toTitle.model.hard).toContainEqual({ kind: 'title', is: ['Orbital Drift'] });
    // Genres given as a choice still replace the film.
    const either = read('2 for Night Ledger on sunday evening', "let's do a comedy or a drama instead");
    expect(either.model.hard.filter((c) => c.kind === 'title')).toEqual([]);
    // Said to add, it adds.
    const both = read('Orbital Drift tomorrow for 2', 'a comedy would be fine too');
    expect(both.model.hard.map((c) => c.kind)).toContain('title');
  });
});

describe('a film it cannot find', () => {
  it('is asked about by name, and never dropped for another film', () => {
    expect(read('2 adults to see the dark hollow tomorrow').model.questions).toEqual([
      'I could not find a film called "dark hollow" among the films showing. Which film do you mean?',
    ]);
    // Filler after "see" names no film; a film it knows is read as the title.
    expect(read('2 adults, we want to see something funny tomorrow').model.questions).toBeUndefined();
    expect(read('2 adults to see orbital drift tomorrow').model.questions).toBeUndefined();
  });
});

describe('a film named before, ruled out by a later wish', () => {
  const films = defaultScenario().movies.map((m) => ({
    title: m.title,
    genres: m.genres,
    ageRating: m.ageRating,
    rating: m.rating,
  }));
  const context = { ...CONTEXT, knownFilms: films };
  const after = (...messages: string[]) => {
    let model: PreferenceModel = { hard: [], soft: [] };
    for (const text of messages) model = updatePreferences(model, text, context).model;
    return model;
  };

  it('gives way when the film is what the new wish refuses (Iron Meridian is Action, PG-13)', () => {
    const model = after(
      '2 tickets for Iron Meridian saturday afternoon',
      'oh she is only 7, nothing above PG and no action',
    );
    expect(model.hard.filter((c) => c.kind === 'title')).toEqual([]);
    expect(model.hard).toContainEqual({ kind: 'genre', exclude: ['Action'] });
  });

  it('stays when the film still fits, or when nothing is known of it', () => {
    const fits = after('2 tickets for Paper Lanterns saturday afternoon', 'nothing above PG please');
    expect(fits.hard).toContainEqual({ kind: 'title', is: ['Paper Lanterns'] });
    const unknown = updatePreferences(
      updatePreferences({ hard: [], soft: [] }, '2 tickets for Iron Meridian saturday', CONTEXT).model,
      'no action please',
      CONTEXT,
    ).model;
    expect(unknown.hard).toContainEqual({ kind: 'title', is: ['Iron Meridian'] });
  });
});

describe('days named around the weekend', () => {
  // The default scenario opens on Saturday 21 November 2026.
  const dates = (text: string) => hard(text).find((c) => c.kind === 'date');
  it('reads "before the weekend", "after the weekend", weekdays and "in two days"', () => {
    expect(dates('2 adults on tuesday')).toEqual({ kind: 'date', dates: ['2026-11-24'] });
    expect(dates('2 adults after the weekend')).toEqual({
      kind: 'date',
      dates: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'],
    });
    expect(dates('2 adults on a weekday evening')).toEqual({
      kind: 'date',
      dates: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'],
    });
    expect(dates('2 adults in two days')).toEqual({ kind: 'date', dates: ['2026-11-23'] });
    // Said on a Saturday, nothing is left before the weekend: no day is read, never the weekend itself.
    expect(dates('2 adults sometime before the weekend')).toBeUndefined();
  });
});

describe('early and late without a clock', () => {
  it('reads "something early" and "a late one" as the earliest and latest showing, and leaves "early evening" a period', () => {
    expect(soft('2 adults tomorrow, something early')).toContainEqual({ kind: 'earliest' });
    expect(soft('2 adults tomorrow, a late one please')).toContainEqual({ kind: 'latest' });
    expect(hard('2 adults tomorrow, something early evening')).toContainEqual({
      kind: 'startTime',
      after: '17:00',
      before: '19:00',
    });
  });
});

describe('near the front', () => {
  it('is softly the first rows, and "not too close to the screen" still the opposite', () => {
    expect(soft('2 adults tomorrow, near the front')).toContainEqual({ kind: 'rows', allowed: ['A', 'B', 'C', 'D'] });
    expect(soft('2 adults tomorrow, not too close to the screen')).toContainEqual({ kind: 'rows', notFirst: 3 });
  });
});

describe('refusals, named days and ranges said as people say them', () => {
  it('reads "we don\'t do action films or thrillers" as a refusal of both', () => {
    expect(hard("Any film as long as it's not violent: we don't do action films or thrillers.")).toContainEqual({
      kind: 'genre',
      exclude: ['Action', 'Thriller'],
    });
  });

  it('reads a format that "gives me a migraine" as refused', () => {
    expect(hard('just a regular screening, 3D gives me a migraine')).toContainEqual({
      kind: 'format',
      is: ['Standard'],
      not: ['3D'],
    });
  });

  it.each([
    ['he found the 3D glasses uncomfortable last time, a regular screening instead', '3D'],
    ['we hated the IMAX last time, a normal one please', 'IMAX'],
    ['3D was awful for us, a standard showing please', '3D'],
  ])('reads a format someone had a bad time with as refused: "%s"', (text, refused) => {
    expect(hard(text)).toContainEqual({ kind: 'format', is: ['Standard'], not: [refused] });
  });

  it.each([
    ['we already saw The Quiet Harbor last month, the next best one then', 'The Quiet Harbor'],
    ["we've seen orbital drift, something else on friday", 'Orbital Drift'],
  ])('reads a film already seen as refused: "%s"', (text, title) => {
    expect(hard(text)).toContainEqual({ kind: 'title', not: [title] });
  });

  it('"never seen" is no refusal', () => {
    expect(hard("I've never seen Orbital Drift, 2 tickets")).toContainEqual({ kind: 'title', is: ['Orbital Drift'] });
  });

  it.each<[string, object]>([
    ['My husband and I are both in our seventies, a documentary on friday', { kind: 'ticketMix', senior: 2 }],
    ["Harbor Lights on saturday, one senior ticket (I'm 77)", { kind: 'ticketMix', senior: 1 }],
    ['2 seats on friday, not in the front five rows', { kind: 'rows', notFirst: 5 }],
    [
      "please don't put me in one of those reclining chairs, just an ordinary seat",
      { kind: 'seatKind', seatKind: 'standard' },
    ],
    ["We're going to the Grand Central because of the parking, 2 adults", { kind: 'theater', is: ['Grand Central'] }],
  ])('reads "%s"', (text, wish) => {
    expect(hard(text)).toContainEqual(wish);
  });

  it('reads a whodunnit as a mystery', () => {
    expect(hard('fancy a whodunnit monday night')).toContainEqual({ kind: 'genre', include: ['Mystery'] });
  });

  it('reads "on Christmas Eve" as the date, not a film', () => {
    const h = hard('Could I book Orbital Drift on Christmas Eve for me and my three children (5, 7 and 10)?');
    expect(h).toContainEqual({ kind: 'date', dates: ['2026-12-24'] });
    expect(h).toContainEqual({ kind: 'title', is: ['Orbital Drift'] });
  });

  it('reads "any weeknight" as weekdays in the evening, and "Friday to Sunday" as the three days', () => {
    expect(hard('any weeknight works')).toContainEqual({ kind: 'startTime', after: '17:00' });
    // The default scenario's today is Saturday 21 November 2026.
    expect(hard('friday to sunday, 2 adults')).toContainEqual({
      kind: 'date',
      dates: ['2026-11-27', '2026-11-28', '2026-11-29'],
    });
    expect(hard('saturday evenings, 2 adults')).toContainEqual({ kind: 'startTime', after: '17:00' });
  });
});

describe('a correction that names the new choice by reference', () => {
  it('reads "I\'m working friday. the day after" as the Saturday, replacing the Friday', () => {
    // The default scenario's today is Saturday 21 November 2026.
    const h = hard(
      '2 tickets for orbital drift this friday evening',
      "no wait, I'm working friday. the day after, same sort of time",
    );
    expect(h).toContainEqual({ kind: 'date', dates: ['2026-11-28'] });
    expect(h).toContainEqual({ kind: 'startTime', after: '17:00' });
  });

  it('drops the film named before for "changed my mind, whatever\'s rated highest instead"', () => {
    const u = read(
      'book me orbital drift tonight, 1 seat',
      "meh changed my mind. whatever's rated highest tonight instead",
    );
    expect(u.model.hard.filter((c) => c.kind === 'title')).toEqual([]);
    expect(u.model.soft).toContainEqual({ kind: 'highestRated' });
  });
});

describe('more wishes as people say them (spent held-out set z)', () => {
  it('reads "before lunchtime" as a start by 12:00', () => {
    expect(hard('Paper Lanterns this weekend, before lunchtime, 2 adults')).toContainEqual({
      kind: 'startTime',
      before: '12:00',
    });
  });

  it('reads cowboy films as westerns, and "a film that isn\'t a documentary" as a refusal', () => {
    expect(hard('he is mad about cowboy films')).toContainEqual({ kind: 'genre', include: ['Western'] });
    expect(hard("the best-rated film that isn't a documentary")).toContainEqual({
      kind: 'genre',
      exclude: ['Documentary'],
    });
  });

  it('reads "the nearer one" as the closest, and "as late a showing as possible" as the latest', () => {
    expect(soft('if more than one cinema is showing it, the nearer one')).toContainEqual({ kind: 'closest' });
    expect(soft('As late a showing as possible within that.')).toContainEqual({ kind: 'latest' });
  });

  it('does not take a day someone "was going to say", or the day a visitor lands', () => {
    const h = hard(
      "we want Orbital Drift in IMAX. I was going to say Friday, but she doesn't land until Friday night, so make it Saturday. Two adults",
    );
    expect(h).toContainEqual({ kind: 'date', dates: ['2026-11-21'] });
    expect(h.filter((c) => c.kind === 'startTime')).toEqual([]);
  });

  it('does not ask about "which" in "see which films are on"', () => {
    expect(
      read("I'd only like to see which films are on tomorrow afternoon. It's just me.").model.questions,
    ).toBeUndefined();
  });
});

describe('a later message that adds rather than replaces', () => {
  it('a film, genre or theater said as also acceptable widens those wanted, which stay preferred', () => {
    for (const text of [
      'a drama would be ok too',
      'or a drama, either is fine',
      'or a drama',
      'also a drama is fine',
    ]) {
      const { model } = read('a comedy tomorrow, 2 adults', text);
      expect(model.hard, text).toContainEqual({ kind: 'genre', include: ['Comedy', 'Drama'] });
      expect(model.soft, text).toContainEqual({ kind: 'genre', include: ['Comedy'] });
    }
    // Two said as either in one message are a list, neither preferred.
    expect(read("orbital drift or night ledger, either's fine, sunday, 2").model).toMatchObject({
      hard: expect.arrayContaining([{ kind: 'title', is: ['Orbital Drift', 'Night Ledger'] }]),
      soft: [],
    });
    // A change of mind still replaces.
    expect(read('a comedy tomorrow, 2 adults', 'actually make it a drama').model.hard).toContainEqual({
      kind: 'genre',
      include: ['Drama'],
    });
    // "Too" as a degree is no "also".
    expect(read('a comedy tomorrow, 2 adults', 'a drama, comedies are too silly').model.hard).not.toContainEqual(
      expect.objectContaining({ kind: 'genre', include: expect.arrayContaining(['Comedy']) }),
    );
  });

  it('"and our daughter", "oh and my mum": someone added to the party known', () => {
    const party = (...m: string[]) => hard(...m).find((c) => c.kind === 'ticketMix');
    expect(party('orbital drift sunday, me and my wife', "oh and our daughter, she's 10")).toEqual({
      kind: 'ticketMix',
      adult: 2,
      child: 1,
    });
    expect(party('orbital drift sunday, me and my wife', 'and my mum')).toEqual({ kind: 'ticketMix', adult: 3 });
    expect(party('orbital drift sunday, me and my wife', "oh and my mum's coming")).toEqual({
      kind: 'ticketMix',
      adult: 3,
    });
  });

  it.each([
    "oh and my husband's hard of hearing, he likes being near the screen",
    'and my wife has a bad back, so seats together',
    'oh and my husband uses a cane',
  ])('"%s": said of someone already counted, nobody added', (second) => {
    expect(hard('orbital drift sunday, 2 adults', second)).toContainEqual({ kind: 'seatCount', count: 2 });
  });

  it('"we can stretch to 40", "budget is now 40": a new price limit', () => {
    for (const text of ['ok we can stretch to 40', 'budget is now 40', 'we can go up to 40']) {
      expect(hard('orbital drift sunday 2 adults under $30', text), text).toContainEqual({
        kind: 'price',
        maxTotal: 40,
      });
    }
  });
});

describe('an amount said roughly is the amount', () => {
  it.each([
    ['nothing further than about 4 km from me', 4],
    ['no further than approx 3 miles', 4.8],
    ['within around 5 miles', 8],
    ['not more than roughly 3 miles away', 4.8],
  ])('"%s" is a distance limit', (text, km) => {
    expect(hard(text)).toContainEqual({ kind: 'distance', maxKm: km });
  });

  it('"nothing longer than about 2 hours" is the film\'s length, never a time of day', () => {
    expect(hard('nothing longer than about 2 hours')).toEqual([{ kind: 'runtime', maxMinutes: 120 }]);
    expect(kinds('for around 2 hours, 2 adults')).not.toContain('startTime');
  });
});

describe('chat shorthand', () => {
  it('reads "1 tkt", "smthn w action, nt a western", "aftr 6"', () => {
    expect(hard('tues eve, 1 tkt')).toContainEqual({ kind: 'seatCount', count: 1 });
    const model = read('2 ppl, smthn w action, nt a western tho. aftr 6').model;
    expect(model.hard).toContainEqual({ kind: 'genre', include: ['Action'], exclude: ['Western'] });
    expect(model.hard).toContainEqual({ kind: 'startTime', after: '18:00' });
  });

  it.each(['whatevers got the most stars', 'the one with the most stars', 'the most highly rated film'])(
    '"%s" is the highest rated',
    (text) => {
      expect(soft(`${text}, 2 tickets`)).toContainEqual({ kind: 'highestRated' });
    },
  );
});

describe('"at the very latest" bounds a time', () => {
  it.each(['finished by half 3 at the very latest, 1 seat', 'out by 10 at the latest, 1 seat'])(
    'and asks for no latest showing: "%s"',
    (text) => {
      expect(soft(text)).not.toContainEqual({ kind: 'latest' });
      expect(read(text).model.questions).toBeUndefined();
    },
  );
});

describe('days counted and weekends after weekends', () => {
  it.each([
    ['three days from today, 2 adults', '2026-11-24'],
    ['2 days time please, 2 adults', '2026-11-23'],
    ['four days after today, 2 adults', '2026-11-25'],
  ])('"%s"', (text, date) => {
    expect(hard(text)).toContainEqual({ kind: 'date', dates: [date] });
  });

  it('"the weekend after this one" is the weekend a week on; "after next" two', () => {
    // The context's today is Saturday 21 Nov: this weekend is 21–22.
    expect(hard('2 tix the weekend after this one')).toContainEqual({
      kind: 'date',
      dates: ['2026-11-28', '2026-11-29'],
    });
    expect(hard('2 tix the weekend after next')).toContainEqual({ kind: 'date', dates: ['2026-12-05', '2026-12-06'] });
  });

  it('"they\'re at their dad\'s on thursday … the next day after that" refuses Thursday and wants the first day after', () => {
    const { model } = read(
      'Orbital Drift thursday afternoon for me and my 2 nephews (6 and 8)',
      "oh hang on, they're at their dad's on thursday. whichever is the next day after that with an afternoon showing then",
    );
    const date = model.hard.find((c) => c.kind === 'date');
    expect(date?.kind === 'date' && date.dates[0]).toBe('2026-11-27');
    expect(date?.kind === 'date' && date.dates).not.toContain('2026-11-26');
    expect(model.soft).toContainEqual({ kind: 'earliest' });
  });

  it.each([
    ["she's busy on thursday", '2026-11-26'],
    ["he's away thursday", '2026-11-26'],
    ["the kids are at their gran's on friday", '2026-11-27'],
  ])('"%s, 2 tickets" refuses the day', (text, refused) => {
    const date = hard(text).find((c) => c.kind === 'date');
    expect(date?.kind === 'date' && date.dates).not.toContain(refused);
  });
});

describe('a change of mind in a message that also gives its reason', () => {
  it('the day said with "instead" replaces the one held, not the one in the reason', () => {
    const { model } = read(
      'Orbital Drift on Sunday evening please, for me and my mum',
      "Oh no, Mum's just told me her choir rehearsal has moved to Sunday. Could we do exactly the same but on the Saturday instead?",
    );
    expect(model.hard).toContainEqual({ kind: 'date', dates: ['2026-11-21'] });
  });

  it('a refusal said with it stays', () => {
    expect(hard("she can't stand thrillers. a comedy instead")).toContainEqual({
      kind: 'genre',
      include: ['Comedy'],
      exclude: ['Thriller'],
    });
  });
});

describe('the film held', () => {
  it.each(["actually only if it's got at least 4 stars. if not, don't bother", "as long as it's rated 4 or more"])(
    'stays under a condition on it: "%s"',
    (second) => {
      const { model } = read('Orbital Drift tonight for 1 please', second);
      expect(model.hard).toContainEqual({ kind: 'title', is: ['Orbital Drift'] });
      expect(model.hard).toContainEqual({ kind: 'rating', min: 4 });
    },
  );

  it.each([
    "that one's probably too grown-up for her. pick something that's PG or under instead",
    'find us something for kids instead',
  ])('is turned down by "something … instead": "%s"', (second) => {
    const { model } = read('Orbital Drift tonight, 2 seats', second);
    expect(model.hard.filter((c) => c.kind === 'title' && c.is?.length)).toEqual([]);
  });
});

describe('seat kinds withdrawn', () => {
  it.each(['on second thoughts forget the recliners', "the premium seats don't matter", 'scrap the vip seats'])(
    '"%s"',
    (second) => {
      const model = read('2 premium seats for Orbital Drift tomorrow', second).model;
      expect([...model.hard, ...model.soft].filter((c) => c.kind === 'seatKind')).toEqual([]);
    },
  );
});

describe('who is coming', () => {
  it.each([
    ['my little boy is 4, a film for him and me', { adult: 1, child: 1 }],
    ['our eldest daughter is 9, for her and me', { adult: 1, child: 1 }],
    ['my big sister is 70, me and her', { adult: 1, senior: 1 }],
  ])('"%s": a word before the relation does not hide the age', (text, mix) => {
    expect(hard(text)).toContainEqual({ kind: 'ticketMix', ...mix });
  });

  it('"him and me" with no one named is two; with someone named, "him" is that one', () => {
    expect(hard('a family film on sunday for him and me')).toContainEqual({ kind: 'seatCount', count: 2 });
    expect(hard('me and her, sunday')).toContainEqual({ kind: 'seatCount', count: 2 });
    expect(hard('my son is 9, for him and me')).toContainEqual({ kind: 'seatCount', count: 2 });
  });

  it('"my boy is 4" after "me and my son" is the child already counted', () => {
    expect(hard('2 tickets for my son and me', 'my boy is 4')).toContainEqual({
      kind: 'ticketMix',
      adult: 1,
      child: 1,
    });
    // An adult who is the only one left is the speaker: the child's age retypes no one.
    expect(hard('2 tickets for me and my mum', 'my mum is 75')).toContainEqual({
      kind: 'ticketMix',
      adult: 1,
      senior: 1,
    });
  });

  it.each([
    'This coming Monday, once the kids are in bed. For my husband and me',
    'while my son is at school, a film for me and my husband',
  ])('people in a clause about when are not coming: "%s"', (text) => {
    const { model } = read(text);
    expect(model.hard).toContainEqual({ kind: 'seatCount', count: 2 });
    expect(model.questions).toBeUndefined();
  });
});

describe("a theater named by its name's last words", () => {
  const known = { ...CONTEXT, knownTheaters: ['Old Mill Cinema', 'Lakeside 12', 'Riverside Art House'] };
  const theater = (text: string) => {
    const { model } = updatePreferences({ hard: [], soft: [] }, text, known);
    return [...model.hard, ...model.soft].filter((c) => c.kind === 'theater');
  };

  it.each(['actually the art house would be nicer', 'the arthouse please', "let's go to the Art House"])(
    '"%s"',
    (text) => {
      expect(theater(text)).toEqual([{ kind: 'theater', is: ['Riverside Art House'] }]);
    },
  );

  it('not without "the", and not before "film"', () => {
    expect(theater('an art house film at lakeside')).toEqual([{ kind: 'theater', is: ['Lakeside 12'] }]);
  });
});

describe('suitability asked for someone named', () => {
  it.each([
    "I'm 77 and I'll have my grandson, who's 5, on Thursday. Which films would be suitable for him?",
    'me and my grandson (5), anything ok for him on thursday',
    'something the kids can watch, me and my 2 kids (6, 8)',
    'nothing too grown-up, me and my daughter (9)',
    'me and my son (9), something appropriate for his age',
    "me and my son (9), nothing he's too young for",
  ])('makes the rating their age implies firm: "%s"', (text) => {
    expect(hard(text)).toContainEqual({ kind: 'ageRating', allowed: ['G', 'PG'] });
  });

  it('"nothing above a PG" is a limit', () => {
    expect(hard('2 adults, nothing above a PG')).toContainEqual({ kind: 'ageRating', allowed: ['G', 'PG'] });
  });
});

describe('a length with its limit said after it', () => {
  it.each([
    ['2 adults, 90 mins tops', 90],
    ['2 hours max, 2 adults', 120],
    ['2 adults, two hours or less please', 120],
  ])('"%s"', (text, minutes) => {
    expect(hard(text)).toContainEqual({ kind: 'runtime', maxMinutes: minutes });
  });

  it('not a journey or a wait', () => {
    expect(kinds("we'll be there in 20 minutes tops, 2 adults")).not.toContain('runtime');
  });
});

describe('a wish corrected in the same breath', () => {
  it.each([
    ['2 tix fri, no wait, thurs', '2026-11-26'],
    ['2 tix friday. sorry, I mean thursday', '2026-11-26'],
    ['saturday, or rather sunday, 2 adults', '2026-11-22'],
  ])('"%s": the day said last', (text, date) => {
    expect(hard(text)).toContainEqual({ kind: 'date', dates: [date] });
  });

  it.each([
    ['for 3, no sorry 4', 4],
    ['2 tickets, no wait, 3', 3],
  ])('"%s": the count said last', (text, count) => {
    expect(hard(text)).toContainEqual({ kind: 'seatCount', count });
  });

  it('"sorry" before an amount of time is no correction', () => {
    expect(hard('sorry 5 minutes late, 2 tickets')).toContainEqual({ kind: 'seatCount', count: 2 });
  });

  it('a theater named alone in its clause: "lakeside please. hmm, no, northgate"', () => {
    const known = { ...CONTEXT, knownTheaters: ['Lakeside 12', 'Northgate Stadium 16', 'Old Mill Cinema'] };
    const { model } = updatePreferences({ hard: [], soft: [] }, 'lakeside please. hmm, no, northgate', known);
    expect(model.hard).toContainEqual({ kind: 'theater', is: ['Northgate Stadium 16'] });
  });
});

describe("the speaker's own day and an event's clock in brackets", () => {
  it.each(['straight after work, i finish at 5:30', 'we get off at 5.30, 2 adults', 'after work (5.30) 2 adults'])(
    '"%s" starts the showing after it',
    (text) => {
      expect(hard(text)).toContainEqual({ kind: 'startTime', after: '17:30' });
      expect(kinds(text)).not.toContain('endTime');
    },
  );

  it('"before the kids\' bedtime (7:30)" ends it before', () => {
    expect(hard("before the kids' bedtime (7:30), 3 tickets")).toContainEqual({ kind: 'endTime', before: '19:30' });
    expect(kinds("before the kids' bedtime (7:30), 3 tickets")).not.toContain('startTime');
  });
});

describe('an age rating limit said after the rating', () => {
  it.each([
    ['me and my 2 kids, 7 and 10, so PG at most', ['G', 'PG']],
    ['pg-13 tops, 2 adults', ['G', 'PG', 'PG-13']],
  ])('"%s"', (text, allowed) => {
    expect(hard(text)).toContainEqual({ kind: 'ageRating', allowed });
  });
});

describe('a documentary said short', () => {
  it.each(['any docs on saturday? 1 adult', 'a docu about space, 1 adult', 'a doc about birds please, 1 adult'])(
    '"%s"',
    (text) => {
      expect(hard(text)).toContainEqual({ kind: 'genre', include: ['Documentary'] });
    },
  );

  it('not "doc\'s orders"', () => {
    expect(kinds("doc's orders, 2 adults sunday")).not.toContain('genre');
  });
});

describe('a budget raised, a day turned down', () => {
  it.each([
    ['up the budget to 40', 40],
    ['raise the budget to 50', 50],
    ['bump the limit up to 45', 45],
  ])('"%s" is the new limit', (second, max) => {
    expect(hard('2 adults friday, max 30', second)).toContainEqual({ kind: 'price', maxTotal: max });
  });

  it.each([
    "friday's a pain for us, saturday then",
    "friday's no longer possible, saturday",
    'friday is not great for us, saturday',
  ])('"%s" replaces the day', (second) => {
    expect(hard('2 adults friday', second)).toContainEqual({ kind: 'date', dates: ['2026-11-21'] });
  });
});

describe('two starts offered', () => {
  it.each([
    ['3 tickets for thursday at 7 or half 7', '19:00', '19:30'],
    ['2 adults, at 6:30 or 7pm', '18:30', '19:00'],
    ['at 9 or 10 am, 2 adults', '09:00', '10:00'],
  ])('"%s" is any start between them', (text, after, before) => {
    expect(hard(text)).toContainEqual({ kind: 'startTime', after, before });
  });
});

describe('a group counted with no one before it', () => {
  it.each([
    ['2 students, cheapest imax thing on the weekend', 2],
    ['four colleagues from work, thursday', 4],
    ['me and 3 friends, friday', 4],
  ])('"%s"', (text, count) => {
    expect(hard(text)).toContainEqual({ kind: 'seatCount', count });
  });
});

describe('ratings and rows said in passing', () => {
  it.each([
    ["he's fine with anything G, 2 adults", ['G']],
    ['2 adults, anything PG-13', ['G', 'PG', 'PG-13']],
    ['something PG please, 2 adults', ['G', 'PG']],
  ])('"%s"', (text, allowed) => {
    expect(hard(text)).toContainEqual({ kind: 'ageRating', allowed });
  });

  it('"not the front" keeps away from the screen, as "not at the front" does', () => {
    expect(soft('4 of us, not the front')).toContainEqual({ kind: 'rows', notFirst: 3 });
    expect(hard('2 adults, not the front row')).toContainEqual({ kind: 'rows', notFirst: 1 });
  });
});

describe('the party changed in a later message', () => {
  it.each([
    ['one of them is a senior actually', { adult: 2, senior: 1 }],
    ["1 of them is a kid, she's 9", { adult: 2, child: 1 }],
  ])('"%s": of the party known, that many change ticket', (second, mix) => {
    expect(hard('3 adults thursday', second)).toContainEqual({ kind: 'ticketMix', ...mix });
  });

  it('"two of us are pensioners"', () => {
    expect(hard('4 adults friday', 'two of us are pensioners')).toContainEqual({
      kind: 'ticketMix',
      adult: 2,
      senior: 2,
    });
  });

  it('"back to 2"', () => {
    expect(hard('2 adults sunday', 'can we make it 3?', "actually he can't, back to 2")).toContainEqual({
      kind: 'seatCount',
      count: 2,
    });
  });

  it('"is there anything earlier?" asks for an earlier showing', () => {
    expect(soft('harbor lights saturday 2 adults', 'is there anything earlier?')).toContainEqual({ kind: 'earliest' });
  });
});

describe('"anywhere but", "any day but": a refusal, not a wish', () => {
  const known = { ...CONTEXT, knownTheaters: ['Lakeside 12', 'Northgate Stadium 16', 'Old Mill Cinema'] };
  const theaters = (text: string) =>
    updatePreferences({ hard: [], soft: [] }, text, known).model.hard.filter((c) => c.kind === 'theater');

  it.each([
    ['anywhere but northgate, 2 adults friday', 'Northgate Stadium 16'],
    ['any cinema but lakeside, 2 adults', 'Lakeside 12'],
  ])('"%s"', (text, name) => {
    expect(theaters(text)).toEqual([{ kind: 'theater', not: [name] }]);
  });

  it('"any day but friday" keeps every other day', () => {
    const date = hard('2 adults, any day but friday').find((c) => c.kind === 'date');
    expect(date?.kind === 'date' && date.dates.length).toBeGreaterThan(5);
    expect(date?.kind === 'date' && date.dates).not.toContain('2026-11-27');
  });

  it('"i like anything but it has to be sunday" still wants the Sunday', () => {
    expect(hard('i like anything but it has to be sunday, 2 adults')).toContainEqual({
      kind: 'date',
      dates: ['2026-11-22'],
    });
  });
});

describe('ranges of weekdays and "next" said once for two days', () => {
  // Today in the context is Saturday 21 Nov 2026.
  it.each([
    ['2 adults, mon-wed next week', ['2026-11-23', '2026-11-24', '2026-11-25']],
    ['2 adults, fri-sun', ['2026-11-27', '2026-11-28', '2026-11-29']],
    ['2 adults, tues to thurs', ['2026-11-24', '2026-11-25', '2026-11-26']],
  ])('"%s"', (text, dates) => {
    expect(hard(text)).toContainEqual({ kind: 'date', dates });
  });

  it('"next saturday or sunday" said on a Saturday is the next weekend, both days', () => {
    expect(hard('one adult, next saturday or sunday')).toContainEqual({
      kind: 'date',
      dates: ['2026-11-28', '2026-11-29'],
    });
  });
});

describe('"between lunch and dinner"', () => {
  it('is the afternoon up to the evening meal, not lunchtime', () => {
    expect(hard('2 adults, sometime between lunch and dinner')).toContainEqual({
      kind: 'startTime',
      after: '12:00',
      before: '18:00',
    });
  });
});

describe('a recent film named by words no rule reads', () => {
  it('"the new bond film" is asked about, never booked as another film', () => {
    expect(read('2 adults for the new bond film friday').model.questions).toEqual([
      'I could not find a film called "bond" among the films showing. Which film do you mean?',
    ]);
  });

  it('"that latest pixar movie" is a genre, not the latest showing', () => {
    expect(soft('that latest pixar movie, 2 adults sunday')).not.toContainEqual({ kind: 'latest' });
  });
});

describe('from held-out set 7', () => {
  it('"the night before" a day named is the day before it', () => {
    expect(
      hard(
        'Orbital Drift Sunday night, two adults',
        "we've got a wedding on Sunday. Can we do the night before instead?",
      ),
    ).toContainEqual({ kind: 'date', dates: ['2026-11-21'] });
  });

  it('"New Year\'s Eve" is a date, never a film', () => {
    const h = hard("two seats for Orbital Drift on New Year's Eve, in the evening, for my wife and me");
    expect(h).toContainEqual({ kind: 'date', dates: ['2026-12-31'] });
    expect(h).toContainEqual({ kind: 'title', is: ['Orbital Drift'] });
  });

  it('"the cowboy one" is a western', () => {
    expect(hard('2 adults tomorrow, the cowboy one')).toContainEqual({ kind: 'genre', include: ['Western'] });
  });

  it('"I\'m out at 5.30" starts it after; the babysitter\'s clock is a reason', () => {
    const h = hard(
      "Tuesday after work, I'm out at 5.30, and we need to be home for the babysitter at half nine so the film has to have finished by 9.30. Two adults",
    );
    expect(h).toContainEqual({ kind: 'startTime', after: '17:30' });
    expect(h).toContainEqual({ kind: 'endTime', before: '21:30' });
  });

  it('"start after 9 and finish by 1" is the morning', () => {
    expect(hard('the film has to start after 9 and finish by 1. just me')).toContainEqual({
      kind: 'startTime',
      after: '09:00',
    });
    expect(hard('after 7, finished by 10, 2 adults')).toContainEqual({ kind: 'startTime', after: '19:00' });
  });
});

describe('the theater held, turned down without naming another', () => {
  const theaterOf = (...messages: string[]) => {
    const { model } = read(...messages);
    return {
      hard: model.hard.filter((c) => c.kind === 'theater'),
      closest: model.soft.some((c) => c.kind === 'closest'),
    };
  };
  it.each([
    ['northgate is a trek tbh. anywhere nearer than that, same film', true],
    ['somewhere closer than that please', true],
    ['a different cinema please', false],
    ['somewhere else', false],
    ["it's too far away", false],
  ])('"%s" refuses it', (text, closest) => {
    expect(theaterOf('orbital drift at riverside cinema saturday for 2', text)).toEqual({
      hard: [{ kind: 'theater', not: ['Riverside Cinema'] }],
      closest,
    });
  });
  it('a theater named instead replaces it', () => {
    const { hard } = theaterOf(
      'orbital drift at riverside cinema saturday for 2',
      'somewhere else, at the starlight cinema instead',
    );
    expect(hard).toEqual([{ kind: 'theater', is: [expect.stringMatching(/starlight/i)] }]);
  });
});

describe('what the page holds, turned down when the participant named none', () => {
  const onPage = { film: 'Orbital Drift', theater: 'Riverside IMAX' };
  const reply = (text: string) => {
    const first = updatePreferences({ hard: [], soft: [] }, 'a sci-fi film saturday, 2 adults', CONTEXT).model;
    return updatePreferences(first, text, { ...CONTEXT, onPage });
  };
  it('"that\'s too far, somewhere closer" refuses the theater on the page and wishes for the closest', () => {
    const { model, unparsed } = reply("that's too far, somewhere closer");
    expect(unparsed).toBe(false);
    expect(model.hard).toContainEqual({ kind: 'theater', not: ['Riverside IMAX'] });
    expect(model.soft).toContainEqual({ kind: 'closest' });
  });
  it('"we\'ve seen that one" refuses the film on the page', () => {
    expect(reply("we've seen that one").model.hard).toContainEqual({ kind: 'title', not: ['Orbital Drift'] });
  });
  it('"something on sunday instead" keeps the film and changes the day', () => {
    const { model } = reply('can we do something on sunday instead');
    expect(model.hard.some((c) => c.kind === 'title')).toBe(false);
    expect(model.hard.find((c) => c.kind === 'date')).toEqual({ kind: 'date', dates: ['2026-11-22'] });
  });
});

describe('a film named later that a kind refused before rules out', () => {
  const context = {
    ...CONTEXT,
    knownFilms: defaultScenario().movies.map((m) => ({ title: m.title, genres: m.genres })),
  };
  const after = (...messages: string[]) => {
    let model: PreferenceModel = { hard: [], soft: [] };
    for (const text of messages) model = updatePreferences(model, text, context).model;
    return model;
  };

  it('is the wish, and the refusal gives way (Iron Meridian is Action)', () => {
    const model = after(
      'date night saturday, 2 seats together. anything except action or horror, she hates them',
      "she's just told me she really wants to see iron meridian, so that one please",
    );
    expect(model.hard).toContainEqual({ kind: 'title', is: ['Iron Meridian'] });
    // Only the kind the film is gives way; the other refusal stays.
    expect(model.hard).toContainEqual({ kind: 'genre', exclude: ['Horror'] });
  });

  it('a refusal said in the same message stands, and so does one the film does not meet', () => {
    expect(after('no action, iron meridian saturday for 2').hard).toContainEqual({
      kind: 'genre',
      exclude: ['Action'],
    });
    const other = after('no horror please, saturday for 2', 'iron meridian then');
    expect(other.hard).toContainEqual({ kind: 'genre', exclude: ['Horror'] });
  });
});

describe('a film or a kind of film, said as alternatives', () => {
  const context = {
    ...CONTEXT,
    knownFilms: defaultScenario().movies.map((m) => ({ title: m.title, genres: m.genres })),
  };
  const said = (text: string) => updatePreferences({ hard: [], soft: [] }, text, context).model;

  it('"Night Ledger or the cartoon one" is that film or any animated one', () => {
    const model = said('Saturday for 2: Night Ledger or the cartoon one, whichever starts first');
    expect(model.hard).toContainEqual({ kind: 'title', is: ['Night Ledger', 'Paper Lanterns', 'Pip and the Comet'] });
    expect(model.hard.filter((c) => c.kind === 'genre')).toEqual([]);
  });

  it('said as both, or with no films known, both stay', () => {
    const both = said('Night Ledger and a comedy, saturday for 2');
    expect(both.hard).toContainEqual({ kind: 'title', is: ['Night Ledger'] });
    expect(both.hard).toContainEqual({ kind: 'genre', include: ['Comedy'] });
    const unknown = updatePreferences(
      { hard: [], soft: [] },
      'Night Ledger or a comedy, saturday for 2',
      CONTEXT,
    ).model;
    expect(unknown.hard).toContainEqual({ kind: 'genre', include: ['Comedy'] });
  });
});
