import { describe, expect, it } from 'vitest';
import { HOW_MANY } from './questions.ts';
import { hard, read, soft } from './testing.ts';
import { clock, parseClock } from './times.ts';

const start = (...m: string[]) => hard(...m).find((c) => c.kind === 'startTime');
const end = (...m: string[]) => hard(...m).find((c) => c.kind === 'endTime');

describe('parseClock', () => {
  it.each([
    ['6pm', '18:00'],
    ['7:30 pm', '19:30'],
    ['19:30', '19:30'],
    ['8', '20:00'],
    ['11', '23:00'],
    ['12', '12:00'],
    ['noon', '12:00'],
    ['midnight', '24:00'],
    ['1am', '25:00'],
    ['10am', '10:00'],
    ["seven o'clock", '19:00'],
  ])('%s → %s', (text, expected) => {
    expect(clock(parseClock(text)?.minutes ?? -1)).toBe(expected);
  });

  it('reads bare hours as morning in a morning clause, and bare numbers as not explicit', () => {
    expect(parseClock('10:30', true)?.minutes).toBe(630);
    expect(parseClock('8')?.explicit).toBe(false);
    expect(parseClock('8pm')?.explicit).toBe(true);
    expect(parseClock('25')).toBeUndefined();
  });
});

describe('start time phrasings', () => {
  it.each([
    ['after 6pm', { after: '18:00' }],
    ['not before 7', { after: '19:00' }],
    ['before 8', { before: '20:00' }],
    ['7pm at the latest', { before: '19:00' }],
    ['in the evening', { after: '17:00' }],
    ['tomorrow night', { after: '17:00' }],
    ['in the afternoon', { after: '12:00', before: '17:00' }],
    ['a matinee', { after: '12:00', before: '17:00' }],
    ['thursday daytime', { before: '17:00' }],
    ['sometime during the day', { before: '17:00' }],
    ['in the morning', { before: '12:00' }],
    ['a late show', { after: '21:00' }],
    ['around 7pm', { after: '18:30', before: '19:30' }],
    ['8ish', { after: '19:30', before: '20:30' }],
    ['at 19:30', { after: '19:30', before: '19:30' }],
    ['the 7pm showing', { after: '19:00', before: '19:00' }],
    ['between 6 and 8pm', { after: '18:00', before: '20:00' }],
    ['6-9pm', { after: '18:00', before: '21:00' }],
    ['at 10:30 in the morning', { after: '10:30', before: '10:30' }],
    ['after 6pm but before 9', { after: '18:00', before: '21:00' }],
    // A unit after a number must be a whole word: "start" is not "stars".
    ['before 8pm start', { before: '20:00' }],
    ['an after 7 start', { after: '19:00' }],
  ])('"%s"', (text, expected) => {
    expect(start(text)).toEqual({ kind: 'startTime', ...expected });
  });

  it('does not take counts, amounts or ratings for times', () => {
    expect(start('2 adults, within 5 km, under $15, rated at least 7, for 7 people')).toBeUndefined();
    expect(start('from 8 stars up, after 3 kids')).toBeUndefined();
  });

  it('applies a named period before a clock time wherever each is written', () => {
    expect(start('at 8pm tomorrow evening')).toEqual({ kind: 'startTime', after: '20:00', before: '20:00' });
    expect(start('tomorrow evening, after 7')).toEqual({ kind: 'startTime', after: '19:00' });
  });
});

describe('end time phrasings', () => {
  it.each([
    ['done by 10pm', { before: '22:00' }],
    ['finish before 22:30', { before: '22:30' }],
    ['finished by 10:30pm', { before: '22:30' }],
    ['home by 11', { before: '23:00' }],
    ['out by midnight', { before: '24:00' }],
    ['back before 1am', { before: '25:00' }],
    ['ending after 9', { after: '21:00' }],
  ])('"%s"', (text, expected) => {
    expect(end(text)).toEqual({ kind: 'endTime', ...expected });
  });

  it('"not too late" is a soft end before 23:00', () => {
    expect(soft('not too late')).toEqual([{ kind: 'endTime', before: '23:00' }]);
  });

  it('an example of "not too late" says what it means instead, as firmly as it was said', () => {
    expect(read('preferably not too late, like starting before 9').model).toMatchObject({
      hard: [],
      soft: [{ kind: 'startTime', before: '21:00' }],
    });
    expect(hard('not too late, say home by 10')).toEqual([{ kind: 'endTime', before: '22:00' }]);
    // An example that names no time leaves the vague wish as it was.
    expect(soft('2 tickets, not too late, like the two of us')).toEqual([{ kind: 'endTime', before: '23:00' }]);
  });
});

describe('earliest and latest', () => {
  it.each([
    ['the earliest showing', 'earliest'],
    ['as early as possible', 'earliest'],
    ['the latest one', 'latest'],
    ['the last showing', 'latest'],
  ])('"%s" → soft %s', (text, kind) => {
    expect(soft(text)).toEqual([{ kind }]);
  });

  it('"the last IMAX showing", "the last Orbital Drift showing": the first or last of a format or a film', () => {
    expect(read('the first imax showing of orbital drift on friday, 2 adults').model).toMatchObject({
      hard: expect.arrayContaining([{ kind: 'format', is: ['IMAX'] }]),
      soft: [{ kind: 'earliest' }],
    });
    expect(read('whatever the last Orbital Drift showing is tomorrow, 1 seat').model).toMatchObject({
      hard: expect.arrayContaining([{ kind: 'title', is: ['Orbital Drift'] }]),
      soft: [{ kind: 'latest' }],
    });
    expect(read('the last 3D show on saturday for 3').model).toMatchObject({
      hard: expect.arrayContaining([{ kind: 'format', is: ['3D'] }]),
      soft: [{ kind: 'latest' }],
    });
  });

  it('"teatime" is late afternoon into the early evening', () => {
    expect(start('2 for orbital drift saturday teatime')).toEqual({
      kind: 'startTime',
      after: '16:00',
      before: '18:00',
    });
  });

  it('"at the latest" is a bound, not a preference', () => {
    expect(soft('by 9 at the latest')).toEqual([]);
    expect(start('by 9 at the latest')).toEqual({ kind: 'startTime', before: '21:00' });
  });
});

describe('time refinements', () => {
  it('a single bound adjusts its side and keeps a compatible other side', () => {
    expect(start('in the evening', 'before 9')).toEqual({ kind: 'startTime', after: '17:00', before: '21:00' });
  });

  it('a single bound that contradicts the other side replaces it', () => {
    expect(start('in the afternoon', 'after 6pm')).toEqual({ kind: 'startTime', after: '18:00' });
  });

  it('a named window replaces both bounds', () => {
    expect(start('between 6 and 8pm', 'around 9pm')).toEqual({ kind: 'startTime', after: '20:30', before: '21:30' });
  });
});

describe('direction and refusal of a time', () => {
  const times = (...m: string[]) => read(...m).model;

  it.each([
    ["we can't start before 6:30 pm", { kind: 'startTime', after: '18:30' }],
    ['we cannot get there before 7:15pm', { kind: 'startTime', after: '19:15' }],
    ['nothing that starts after 9pm', { kind: 'startTime', before: '21:00' }],
    ['we dont want anything that finishes after 11', { kind: 'endTime', before: '23:00' }],
    ["we don't want a film that ends later than 10:30", { kind: 'endTime', before: '22:30' }],
    ['nothing that ends before 9', { kind: 'endTime', after: '21:00' }],
    ['not earlier than 7', { kind: 'startTime', after: '19:00' }],
    ['need to be out by half past ten', { kind: 'endTime', before: '22:30' }],
    ['home by quarter to eleven', { kind: 'endTime', before: '22:45' }],
    ['morning or early afternoon', { kind: 'startTime', before: '15:00' }],
  ])('"%s"', (text, constraint) => {
    // Nothing says how many are coming, so the reader also asks.
    expect(times(text)).toEqual({ hard: [constraint], soft: [], questions: [HOW_MANY] });
  });

  it('"preferably evening, afternoon works too": afternoon or evening, evening preferred', () => {
    expect(times('preferably evening, afternoon works too')).toEqual({
      hard: [{ kind: 'startTime', after: '12:00' }],
      soft: [{ kind: 'startTime', after: '17:00' }],
      questions: [HOW_MANY],
    });
  });

  it('a refusal of a genre or format does not reach the day and part of the day after it', () => {
    const model = read('anything but horror on monday evening, 2 tix').model;
    expect(model.hard).toContainEqual({ kind: 'genre', exclude: ['Horror'] });
    expect(model.hard).toContainEqual({ kind: 'date', dates: ['2026-11-23'] });
    expect(model.hard).toContainEqual({ kind: 'startTime', after: '17:00' });
    expect(hard('no 3d on sunday afternoon')).toEqual([
      { kind: 'format', not: ['3D'] },
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'startTime', after: '12:00', before: '17:00' },
    ]);
  });

  it('a refusal of a day reaches across other days and its part of the day', () => {
    expect(read('tomorrow', 'not monday evening').model.hard).toEqual([{ kind: 'date', dates: ['2026-11-22'] }]);
  });

  it('a refusal of a film does not reach the day after it', () => {
    const model = read('anything but the hollow house tonight').model;
    expect(model.hard).toContainEqual({ kind: 'date', dates: ['2026-11-21'] });
    expect(model.hard).toContainEqual({ kind: 'title', not: ['The Hollow House'] });
  });

  it('a part of the day refused as such leaves the rest of the day', () => {
    expect(start("any day is ok as long as it's not in the morning")).toEqual({ kind: 'startTime', after: '12:00' });
    expect(start('sunday, not the morning')).toEqual({ kind: 'startTime', after: '12:00' });
    expect(start('no evening shows on friday')).toEqual({ kind: 'startTime', before: '17:00' });
    expect(start('nothing late at night please')).toEqual({ kind: 'startTime', before: '21:00' });
    // The afternoon refused leaves two windows, which one start time cannot say.
    expect(start('not in the afternoon')).toBeUndefined();
  });
});

describe('"latest" after a time', () => {
  it('means "at the latest", not the latest showing', () => {
    const model = read('we need to be out by 10.15 latest').model;
    expect(model.hard).toContainEqual({ kind: 'endTime', before: '22:15' });
    expect(model.soft).not.toContainEqual({ kind: 'latest' });
    expect(soft('home by 11pm latest')).not.toContainEqual({ kind: 'latest' });
    expect(soft('the latest showing, home by 11 at the latest')).toContainEqual({ kind: 'latest' });
    expect(soft('latest one you have, 2 tickets')).toContainEqual({ kind: 'latest' });
  });
});

describe('a clock said of something else', () => {
  it.each([
    ["gets me out by 11, last train's at 11.15", { kind: 'endTime', before: '23:00' }],
    ['dinner is at 8 so it has to be over by 7.30pm', { kind: 'endTime', before: '19:30' }],
  ])('"%s" is the reason for a wish, not a start', (text, wish) => {
    expect(start(text)).toBeUndefined();
    expect(end(text)).toEqual(wish);
  });

  it.each([
    ["the one that's at 9pm", '21:00'],
    ["it's at 7", '19:00'],
  ])('"%s" still names the showing', (text, at) => {
    expect(start(text)).toEqual({ kind: 'startTime', after: at, before: at });
  });
});

describe('"by then"', () => {
  it.each([
    ['i have to be back in the office for 12 so it has to have finished by then', '12:00'],
    ['my shift starts at 6pm so it must be done by then', '18:00'],
  ])('"%s" ends by the clock said before', (text, before) => {
    expect(end(text)).toEqual({ kind: 'endTime', before });
    expect(start(text)).toBeUndefined();
  });
});

describe("another errand's clock", () => {
  it.each([
    'I pick the kids up from school at half 3 so the film has to be over by 3pm',
    'we have dinner at 8 so it must be over by 7.30pm',
  ])('"%s" is no start time', (text) => {
    expect(start(text)).toBeUndefined();
    expect(end(text)).toBeDefined();
  });

  it('keeps "after work at 6" a start', () => {
    expect(start('2 tickets after work at 6')).toEqual({ kind: 'startTime', after: '18:00', before: '18:00' });
  });
});

describe('a leaning said of oneself', () => {
  it.each([
    ["I'm not a morning person", { kind: 'startTime', after: '12:00' }],
    ["i'm a night owl", { kind: 'startTime', after: '17:00' }],
    ['not really a night person', { kind: 'startTime', before: '17:00' }],
  ])('"%s" is a preference, never a bound', (text, wish) => {
    expect(start(`${text}, 2 tickets`)).toBeUndefined();
    expect(soft(`${text}, 2 tickets`)).toContainEqual(wish);
  });
});

describe('out of the cinema by a clock, and as late as we can', () => {
  it('"out of the cinema by 6pm at the latest" ends by 18:00, it does not start by it', () => {
    expect(end('we have to be out of the cinema by 6pm at the latest')).toEqual({ kind: 'endTime', before: '18:00' });
    expect(start('we have to be out of the cinema by 6pm at the latest')).toBeUndefined();
  });

  it.each([
    ['start as late as we can', 'latest'],
    ['as early as I can on sunday', 'earliest'],
  ])('"%s"', (text, kind) => {
    expect(soft(text)).toContainEqual({ kind });
  });
});

describe('the last of a day', () => {
  it.each(['whatever is on last tonight', 'the last one tonight please', "what's on last today"])(
    '"%s" is the latest',
    (text) => {
      expect(soft(text)).toContainEqual({ kind: 'latest' });
    },
  );

  it('"we saw the last film" is not', () => {
    expect(soft('we saw the last film on friday, 2 tickets saturday')).not.toContainEqual({ kind: 'latest' });
  });
});

describe('a clock someone is busy until, and "after that"', () => {
  it('starts after the clock the busy clause names', () => {
    expect(start('comedy tmrw, our lecture doesnt finish til 5 so after that')).toEqual({
      kind: 'startTime',
      after: '17:00',
    });
    expect(start('dinner at 8 and a film after that')).toEqual({ kind: 'startTime', after: '20:00' });
  });

  it.each([
    ["I'm at work until 5 that day", '17:00'],
    ['working till 6 on friday', '18:00'],
    ["we're busy until 7pm", '19:00'],
  ])('"%s": nobody can start before then', (text, after) => {
    expect(start(text)).toEqual({ kind: 'startTime', after });
  });

  it('is no end time, and "for 2" is no clock', () => {
    expect(end('our lecture doesnt finish till 5 so after that')).toBeUndefined();
    expect(start('iron tempest tomorrow for 2, and after that we go home')).toBeUndefined();
  });
});

describe('an early start the next day', () => {
  it('is a reason, not a wish for the earliest or for that day', () => {
    const u = read(
      "latest showing of orbital drift on saturday that's finished by half eleven? just me, got an early start sunday",
    );
    expect(u.model.soft).toEqual([{ kind: 'latest' }]);
    expect(u.model.hard).toContainEqual({ kind: 'date', dates: ['2026-11-21'] });
    expect(u.model.hard).toContainEqual({ kind: 'endTime', before: '23:30' });
  });
});

describe('a clock with "or later" after "at"', () => {
  it.each([
    ['starting at 8pm or later', { after: '20:00' }],
    ['at 7 or later', { after: '19:00' }],
    ['(starting at 5 pm or later)', { after: '17:00' }],
    ['at 9pm at the latest', { before: '21:00' }],
  ])('"%s" is a bound, not an exact start', (text, bound) => {
    expect(start(`2 adults, ${text}`)).toEqual({ kind: 'startTime', ...bound });
  });
});

describe('clocks that are not the time wished for', () => {
  const starts = (...m: string[]) => hard(...m).filter((c) => c.kind === 'startTime' || c.kind === 'endTime');
  it('a clock said of which showing it is gives way to the wish after it', () => {
    expect(
      starts(
        '2 tickets for Courtside tomorrow at 10.30am',
        "wait, 10.30 is the morning one isn't it? I meant the evening, sorry! any evening showing is fine",
      ),
    ).toEqual([{ kind: 'startTime', after: '17:00' }]);
    expect(starts("the 7pm's the late showing, right? an afternoon one then")).toEqual([
      { kind: 'startTime', after: '12:00', before: '17:00' },
    ]);
  });

  it("someone's nap is the reason for a wish, not a time", () => {
    expect(starts('it needs to be a morning showing, the little one naps after lunch')).toEqual([
      { kind: 'startTime', before: '12:00' },
    ]);
    expect(starts('morning please, she sleeps in the afternoon')).toEqual([{ kind: 'startTime', before: '12:00' }]);
  });

  it.each([
    ['any sci-fi on thursday after my last lecture? it finishes at 3.30', '15:30'],
    ['after my shift, it ends at 6', '18:00'],
    ['after work, which finishes at 5.30', '17:30'],
  ])('"%s": an errand ending is when the showing may start', (text, after) => {
    expect(starts(text)).toEqual([{ kind: 'startTime', after }]);
  });

  it('"after school", "once school\'s out": after half past three', () => {
    for (const text of [
      'after school on friday, me and my 2 kids (7, 9)',
      "a family film on Tuesday once school's out, 3",
    ])
      expect(starts(text)).toEqual([{ kind: 'startTime', after: '15:30' }]);
  });

  it('"before dinner … we eat at 7": over by then; without "before", a reason', () => {
    expect(starts('before dinner on saturday, we eat at 7, 2 adults')).toEqual([{ kind: 'endTime', before: '19:00' }]);
    expect(starts('saturday, we eat at 7 so anything after that, 2 adults')).toEqual([
      { kind: 'startTime', after: '19:00' },
    ]);
  });

  it('"on Tuesday once school\'s out" keeps the day', () => {
    expect(hard("a family film on Tuesday once school's out, so not before half three")).toContainEqual({
      kind: 'date',
      dates: ['2026-11-24'],
    });
  });
});

describe('"the later one", "something earlier"', () => {
  const starts = (...m: string[]) => read(...m).model;
  it('moves past the time held', () => {
    expect(starts('2 for courtside at 6 on friday', 'no, the later one').hard).toContainEqual({
      kind: 'startTime',
      after: '18:01',
    });
    expect(starts('2 for courtside at 8 on friday', 'can we do an earlier one').hard).toContainEqual({
      kind: 'startTime',
      before: '19:59',
    });
  });

  it('is no wish to move when said as a fallback accepted', () => {
    const m = read(
      'courtside friday in the evening. we would prefer a late one that starts after 9pm, but an earlier evening show is ok if that is all there is',
    ).model;
    expect(m.hard).toContainEqual({ kind: 'startTime', after: '17:00' });
    expect(m.soft).toContainEqual({ kind: 'startTime', after: '21:00' });
    expect(m.soft.some((c) => c.kind === 'earliest')).toBe(false);
  });

  it('within a window, or said with the window, is the earliest or latest there', () => {
    const m = starts('2 for courtside friday evening', 'the earlier one please');
    expect(m.hard).toContainEqual({ kind: 'startTime', after: '17:00' });
    expect(m.soft).toEqual([{ kind: 'earliest' }]);
    const same = starts('courtside, friday or saturday night, whichever is the earlier showing. 2 tix');
    expect(same.hard).toContainEqual({ kind: 'startTime', after: '17:00' });
    expect(same.soft).toEqual([{ kind: 'earliest' }]);
  });

  it('with no time held, prefers the latest or the earliest', () => {
    const m = starts('courtside saturday for 2', 'a later showing please');
    expect(m.soft).toEqual([{ kind: 'latest' }]);
    expect(m.hard.some((c) => c.kind === 'startTime')).toBe(false);
  });
});

describe('the clock of something else, said with "before" or "after"', () => {
  it.each([
    ['1 ticket saturday, after my shift ends at 4', '16:00', undefined],
    ['1 ticket saturday, before the football at 3', undefined, '15:00'],
    ['1 ticket saturday, before we eat at 7', undefined, '19:00'],
    ["1 ticket saturday, I'm free from 2 till 6", '14:00', '18:00'],
    ['1 ticket saturday, free between 2 and 6', '14:00', '18:00'],
  ])('"%s": starting after %s, over by %s', (text, after, before) => {
    expect(start(text)).toEqual(after ? { kind: 'startTime', after } : undefined);
    expect(end(text)).toEqual(before ? { kind: 'endTime', before } : undefined);
  });
});

describe('a later or an earlier showing, said loosely', () => {
  it.each([
    [['orbital drift saturday, 2 adults', 'something a bit later?'], 'latest'],
    [['orbital drift saturday, 2 adults', 'later would be better'], 'latest'],
    [['orbital drift saturday evening, 2 adults', 'earlier if possible'], 'earliest'],
    [['orbital drift saturday, 2 adults', 'could we go a little earlier'], 'earliest'],
  ])('%j → %s', (messages, kind) => {
    expect(soft(...messages)).toContainEqual({ kind });
  });
  it('"I finish later than that" is the speaker, not the showing', () => {
    expect(soft('i finish later than that on friday, 2 tickets')).not.toContainEqual({ kind: 'latest' });
  });
});

describe("a clock said of something else's end", () => {
  it.each([
    [
      "Saturday: the match finishes at quarter to 5 and it's half an hour into town, so nothing starting before 5:15. 2 adults",
      '17:15',
    ],
    ['the game ends at 3, so after 4 please, 2 adults', '16:00'],
  ])('"%s" starts after %s and sets no end', (text, after) => {
    expect(start(text)).toEqual({ kind: 'startTime', after });
    expect(end(text)).toBeUndefined();
  });

  it('the film said to finish by a time is still its end', () => {
    expect(end('the film finishes by 10pm, 2 adults')).toEqual({ kind: 'endTime', before: '22:00' });
  });
});

describe('a part of the day refused among others, and the latest of the day', () => {
  it.each([
    ['One ticket for thursday, but not one of the late-night showings, I always nod off', { before: '21:00' }],
    ['1 ticket, not one of the morning ones, saturday', { after: '12:00' }],
  ])('"%s"', (text, bound) => {
    expect(start(text)).toEqual({ kind: 'startTime', ...bound });
  });

  it('"as late in the day as you can" is the latest, not the daytime', () => {
    const text = 'One ticket thursday, not one of the late-night showings. Otherwise as late in the day as you can.';
    expect(start(text)).toEqual({ kind: 'startTime', before: '21:00' });
    expect(soft(text)).toContainEqual({ kind: 'latest' });
    expect(soft('1 ticket saturday, as early in the day as possible')).toContainEqual({ kind: 'earliest' });
    expect(start('1 ticket saturday, as early in the day as possible')).toBeUndefined();
  });

  it('"whichever starts first (last)" is the earliest (latest)', () => {
    expect(soft('Saturday for 2, Night Ledger or Encore, whichever starts first')).toContainEqual({ kind: 'earliest' });
    expect(soft('saturday for 2, whichever one starts last')).toContainEqual({ kind: 'latest' });
    expect(soft('2 tickets, the later of the two night ledger showings on friday')).toContainEqual({ kind: 'latest' });
    expect(soft('2 tickets, the earlier of the two showings on friday')).toContainEqual({ kind: 'earliest' });
  });

  it('"the soonest" is the earliest', () => {
    expect(soft('2 adults saturday, cheapest please, and if a few cost the same, the soonest of those')).toContainEqual(
      {
        kind: 'earliest',
      },
    );
  });
});

describe('from held-out set 9, once judged', () => {
  it('"he doesn\'t like being out at night" refuses the night; "an afternoon showing" stands', () => {
    const text = "it has to be an afternoon showing, he doesn't like being out at night, monday for 2";
    expect(start(text)).toEqual({ kind: 'startTime', after: '12:00', before: '17:00' });
  });
  it('"so like 5:30 onwards" is a start after 17:30', () => {
    expect(start('can i get 2 on thursday after work? so like 5:30 onwards')).toEqual({
      kind: 'startTime',
      after: '17:30',
    });
  });
});
