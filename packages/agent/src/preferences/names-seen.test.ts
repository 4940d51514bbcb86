import { describe, expect, it } from 'vitest';
import {
  looselyNamed,
  matchTheaters,
  placeLike,
  placesAnnounced,
  placesInsisted,
  placesNamed,
  theaterFromPlaces,
} from './names-seen.ts';

const THEATERS = [
  { id: 'th-river', name: 'Riverside Art House' },
  { id: 'th-mill', name: 'Old Mill Cinema' },
  { id: 'th-lake', name: 'Lakeside 12' },
  { id: 'th-north', name: 'Northgate Stadium 16' },
];

describe('theaters named before the theater stage', () => {
  it.each([
    ['riverside arthouse', 'Riverside Art House'],
    ['Riversde Art House', 'Riverside Art House'],
    ['the old mil', 'Old Mill Cinema'],
    ['north gate stadium', 'Northgate Stadium 16'],
    ['norhtgate', 'Northgate Stadium 16'],
    ['riversde', 'Riverside Art House'],
  ])('"%s" is %s', (wanted, name) => {
    const model = matchTheaters({ hard: [{ kind: 'theater', is: [wanted] }], soft: [] }, THEATERS);
    expect(model?.hard).toEqual([{ kind: 'theater', is: [name] }]);
  });

  it('leaves a name the checker already matches, one that fits none, and one that fits several', () => {
    expect(matchTheaters({ hard: [{ kind: 'theater', is: ['Riverside'] }], soft: [] }, THEATERS)).toBeNull();
    expect(matchTheaters({ hard: [{ kind: 'theater', is: ['Grand Odeon'] }], soft: [] }, THEATERS)).toBeNull();
    const twins = [
      { id: 'a', name: 'Park Cinema 1' },
      { id: 'b', name: 'Park Cinema 2' },
    ];
    expect(matchTheaters({ hard: [{ kind: 'theater', is: ['park cinema'] }], soft: [] }, twins)).toBeNull();
  });

  it('reads refusals the same way, and keeps short words apart', () => {
    const model = matchTheaters({ hard: [{ kind: 'theater', not: ['lakeside12'] }], soft: [] }, THEATERS);
    expect(model?.hard).toEqual([{ kind: 'theater', not: ['Lakeside 12'] }]);
    expect(looselyNamed('ab', 'Abbey Road Cinema')).toBe(false);
  });
});

describe('places named in lower case', () => {
  it('remembers unread words after "at" or "in", and names a theater only once the stage lists one it fits', () => {
    const places = placesNamed('cheapest comedy for 2 adults on monday, at the old mil', ['old', 'mil']);
    expect(places).toEqual(['old mil']);
    expect(theaterFromPlaces(places, THEATERS)).toBe('Old Mill Cinema');
    // Words a rule read ("the evening", "imax") are no place; a place that fits no theater names none.
    expect(placesNamed('in the evening, in imax', [])).toEqual([]);
    expect(theaterFromPlaces(['the mall'], THEATERS)).toBeNull();
    // Some words of the name: "at the art house with the café".
    expect(theaterFromPlaces(['art house'], THEATERS)).toBe('Riverside Art House');
    // A venue word alone names no theater.
    expect(theaterFromPlaces(['cinema'], THEATERS)).toBeNull();
    expect(theaterFromPlaces(['riverside arthouse on friday'], THEATERS)).toBe('Riverside Art House');
  });

  it('remembers a name written with a capital inside a sentence, not a sentence’s first word', () => {
    const text = 'What IMAX showings has Lakeside got on Saturday?';
    expect(placesNamed(text, ['what', 'showings', 'has', 'lakeside', 'got'])).toEqual(['lakeside']);
    // A capital a rule read (a title, a day) is no place.
    expect(placesNamed(text, ['what', 'showings', 'has', 'got'])).toEqual([]);
    // Where someone is from or lives is no cinema.
    const from = "I'm in town from Denver for a conference, and we live in Leeds";
    expect(placesNamed(from, ['denver', 'conference', 'leeds'])).toEqual([]);
  });

  it('remembers a place said on its own between commas, misspelt', () => {
    const places = placesNamed('fri night, 2 adults, nortgate stadium. whatever they have', ['nortgate', 'stadium']);
    expect(places).toEqual(['nortgate stadium']);
    expect(theaterFromPlaces(places, THEATERS)).toBe('Northgate Stadium 16');
  });
});

describe('places named loosely, more than once or before a venue word', () => {
  it('takes the newest place that names a theater: a later message replaces an earlier one', () => {
    const first = placesNamed('2 for overtime heroes friday night at lakeside pls', ['lakeside', 'pls']);
    const later = placesNamed('scratch that, make it northgate instead', ['northgate']);
    expect(theaterFromPlaces([...later, ...first], THEATERS)).toBe('Northgate Stadium 16');
  });

  it('remembers unread words before a venue word ("lakeside cinema on sunday"), not "the" or "local"', () => {
    expect(placesNamed('lakeside cinema on sunday, afternoon showing', ['lakeside', 'cinema'])).toEqual(['lakeside']);
    expect(theaterFromPlaces(['lakeside'], THEATERS)).toBe('Lakeside 12');
    expect(placesNamed('the local cinema on sunday', ['the', 'local', 'cinema'])).toEqual([]);
  });
});

describe('a theater named with a venue word its name lacks', () => {
  it('takes "Lakeside Cinema" as Lakeside 12 once the stage lists it, and not where it lists no Lakeside', () => {
    const model = { hard: [{ kind: 'theater' as const, is: ['Lakeside Cinema'] }], soft: [] };
    expect(matchTheaters(model, THEATERS)?.hard).toEqual([{ kind: 'theater', is: ['Lakeside 12'] }]);
    expect(
      matchTheaters(
        model,
        THEATERS.filter((t) => !t.name.startsWith('Lakeside')),
      ),
    ).toBeNull();
  });
});

describe('a misspelt stadium', () => {
  it('takes "Nortgate Stadium" as Northgate Stadium 16', () => {
    const model = { hard: [{ kind: 'theater' as const, is: ['Nortgate Stadium'] }], soft: [] };
    expect(matchTheaters(model, THEATERS)?.hard).toEqual([{ kind: 'theater', is: ['Northgate Stadium 16'] }]);
  });
});

describe('a place opening a clause', () => {
  it('remembers "Lakeside" of "Lakeside tomorrow, whatever starts at 4pm", matched once the stage lists it', () => {
    const places = placesNamed('Lakeside tomorrow, whatever starts at 4pm. Two adults.', ['lakeside', 'whatever']);
    expect(theaterFromPlaces(places, THEATERS)).toBe('Lakeside 12');
  });
});

describe('what could be a cinema’s name', () => {
  it.each(['northgate', 'old mil', 'kingsway', 'the regal'])('"%s" could', (place) => {
    expect(placeLike(place)).toBe(true);
  });
  it.each([
    'town',
    'the mood',
    'advance',
    'home all day',
    'same row',
    'cinema',
    'the cinema',
    'particular',
    'october',
    'the same time then',
    'least',
    'the very',
    'the door',
    'the box office',
    'the kiosk',
  ])('"%s" could not', (place) => {
    expect(placeLike(place)).toBe(false);
  });

  it('takes "I\'ll" or "I\'m" inside a sentence for the speaker, not a name', () => {
    expect(placesAnnounced("two of us. just show me, I'll book it myself", ['book', 'it', 'myself'])).toEqual([]);
    expect(placesAnnounced('what has Lakeside got on Saturday?', ['lakeside', 'got'])).toEqual(['lakeside']);
    expect(placesInsisted("we're taking our granddaughter Lily to the pictures", ['lily'])).toEqual([]);
    expect(placesInsisted('not at either end, at the place with free parking', ['either', 'end', 'place'])).toEqual([]);
  });
});

describe('a place opening the message right before the day', () => {
  it.each([
    ['lakeside fri night for me and my gf', ['lakeside'], 'Lakeside 12'],
    ['northgate tmrw night, 2 of us', ['northgate'], 'Northgate Stadium 16'],
    ['2 adults please. old mill tonight, anything funny', ['old', 'mill', 'anything', 'funny'], 'Old Mill Cinema'],
  ])('"%s" names a place said as a cinema is named', (text, unread, theater) => {
    const insisted = placesInsisted(text, unread);
    expect(insisted.length).toBe(1);
    expect(theaterFromPlaces(insisted, THEATERS)).toBe(theater);
  });
  it.each([
    ['sorry friday is no good', ['sorry', 'good']],
    ['looking for something saturday', ['looking', 'something']],
    ['honestly tonight works best', ['honestly', 'works', 'best']],
    ['ok so tomorrow then', ['ok', 'so', 'then']],
    ["school's shut today so I've got the twins", ["school's", 'shut', "i've", 'got']],
    ['late shows saturday, for 2', ['late', 'shows']],
  ])('"%s" names none', (text, unread) => {
    expect(placesInsisted(text, unread)).toEqual([]);
  });
});

describe('a word in capitals', () => {
  it('is stress, not a name: "something LONG", "NOT the recliners"', () => {
    expect(placesInsisted('i want something LONG, 2 hours plus', ['long'])).toEqual([]);
    expect(placesInsisted('2 of us but NOT the recliners', ['not'])).toEqual([]);
    expect(placesInsisted('what has Lakeside got on Saturday?', ['lakeside', 'got'])).toEqual(['lakeside']);
  });
});

describe('a place refused', () => {
  it('is no place to go to: "anywhere except Northgate", "not at the old mill"', () => {
    expect(placesAnnounced('Iron Tempest on Sunday. Anywhere except Northgate please', ['northgate'])).toEqual([]);
    expect(placesInsisted('2 adults, not at the old mil', ['old', 'mil'])).toEqual([]);
    expect(placesInsisted('2 adults, at the old mil', ['old', 'mil'])).toEqual(['old mil']);
  });
});
