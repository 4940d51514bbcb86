import { describe, expect, it } from 'vitest';
import { hard, read } from './testing.ts';

const kinds = (...m: string[]) => {
  const { hard, soft } = read(...m).model;
  return [...hard, ...soft].map((c) => c.kind);
};

describe('withdrawing wishes', () => {
  const FULL = 'IMAX, tomorrow after 6pm, done by 10pm, under $50, seats together, nearby, no horror';

  it.each([
    ['forget the IMAX', 'format'],
    ['never mind the IMAX', 'format'],
    ['scratch the IMAX', 'format'],
    ['ditch the IMAX', 'format'],
    ['no preference on time', 'startTime'],
    ['any time is fine', 'startTime'],
    ['whenever', 'endTime'],
    ['any day works', 'date'],
    ["the price doesn't matter", 'price'],
    ["I don't care about the distance", 'closest'],
    ["we don't need to sit together", 'adjacent'],
    ['horror is fine, forget the horror thing', 'genre'],
  ])('"%s" removes %s', (text, kind) => {
    expect(kinds(FULL)).toContain(kind);
    expect(kinds(FULL, text)).not.toContain(kind);
  });

  it('"scratch the IMAX, regular is fine": the format said next replaces the one withdrawn', () => {
    expect(read('orbital drift in imax saturday, 2 adults', 'scratch the IMAX, regular is fine').model).toMatchObject({
      hard: expect.arrayContaining([{ kind: 'format', is: ['Standard'] }]),
      soft: [],
    });
  });

  it('keeps the wish a condition states: "don\'t mind what time as long as it\'s not in the morning"', () => {
    expect(hard("tomorrow, i don't mind what time as long as it's not in the morning")).toContainEqual({
      kind: 'startTime',
      after: '12:00',
    });
    expect(kinds('IMAX', "don't care about the format, just not 3D")).toEqual(['format']);
    expect(hard('IMAX', "don't care about the format, just not 3D")).toEqual([{ kind: 'format', not: ['3D'] }]);
    // Without a condition the kind is withdrawn.
    expect(kinds('after 6pm', "i don't mind what time")).toEqual([]);
  });

  it('removes only the named value of a list', () => {
    const { hard } = read('IMAX', 'no 3D', 'forget the IMAX').model;
    expect(hard).toEqual([{ kind: 'format', not: ['3D'] }]);
  });

  it('"I don\'t mind horror" takes horror off the refusals', () => {
    const { hard } = read('no horror or thrillers', "I don't mind horror").model;
    expect(hard).toEqual([{ kind: 'genre', exclude: ['Thriller'] }]);
  });

  it('keeps the wish a fallback follows as a preference: "after 7pm would be best, otherwise any time works"', () => {
    for (const text of [
      "If there's a showing after 7pm that'd be best, otherwise any time works.",
      'after 7pm would be best, if not whenever',
      'ideally after 7pm, otherwise any time is fine',
    ]) {
      const { model } = read(`2 adults tomorrow. ${text}`);
      expect(model.soft, text).toContainEqual({ kind: 'startTime', after: '19:00' });
      expect(
        model.hard.map((c) => c.kind),
        text,
      ).not.toContain('startTime');
    }
    // A period said at the same rank as the withdrawal stands too.
    expect(read('2 adults tomorrow, evening if possible, otherwise whenever').model.soft).toContainEqual({
      kind: 'startTime',
      after: '17:00',
    });
    // An earlier message's time is what the fallback withdraws.
    const { model } = read('2 adults tomorrow after 9pm', 'ideally after 7pm, otherwise any time works');
    expect(model.hard.map((c) => c.kind)).not.toContain('startTime');
    expect(model.soft).toContainEqual({ kind: 'startTime', after: '19:00' });
  });

  it('"any time" removes every time wish but keeps the rest', () => {
    expect(kinds('tomorrow, around 7pm, done by 10, the earliest', 'any time is fine')).toEqual(['date']);
  });
});

describe('withdrawing what a pronoun stands for', () => {
  it('"forget them" after the recliners are named drops the seat kind, not the price', () => {
    const k = kinds(
      'two recliner seats for encore saturday evening',
      'just seen what the recliners cost. forget them, give us the cheapest seats going',
    );
    expect(k).not.toContain('seatKind');
    expect(k).toContain('cheapest');
  });
  it('"forget it" after IMAX is named drops IMAX', () => {
    expect(kinds('2 for encore saturday in imax', 'imax is too pricey, forget it, the earliest one')).not.toContain(
      'format',
    );
  });
  it('"forget it" on a condition is of the whole booking, not of what was named', () => {
    expect(kinds('encore tonight, 1 ticket', "can they come to encore? if it's not allowed just forget it")).toContain(
      'title',
    );
  });
  it('"forget it" with nothing named before withdraws nothing', () => {
    expect(read('2 for encore saturday', "forget it, we'll go another time").unparsed).toBe(true);
  });
});

describe('any theater, the closest', () => {
  it('"whichever cinema is closest" after a theater held: no theater, the closest wished for', () => {
    const u = read('Giggle Factory on Monday for 2. It HAS to be at the Old Mill', 'whichever cinema is closest now');
    expect(u.model.hard.filter((c) => c.kind === 'theater')).toEqual([]);
    expect(u.model.soft).toContainEqual({ kind: 'closest' });
  });
});

describe('any time, bounded', () => {
  it('"any time after lunch" is a bound, not any time at all', () => {
    expect(read('2 adults sunday, any time after lunch').model.hard).toContainEqual({
      kind: 'startTime',
      after: '12:00',
    });
    expect(read('2 adults saturday, any time before 6').model.hard).toContainEqual({
      kind: 'startTime',
      before: '18:00',
    });
    expect(
      read('2 adults saturday evening', 'any time is fine actually').model.hard.filter((c) => c.kind === 'startTime'),
    ).toEqual([]);
  });
});
