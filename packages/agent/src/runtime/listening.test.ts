import type { UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import type { PerceivedContext } from '../perception/perceive.ts';
import { Listening } from './listening.ts';

/* What the agent's listening keeps between stages: places named loosely, and what a theater must offer. */

const theaterStage = (theaters: Array<{ name: string; amenities?: string[] }>): PerceivedContext =>
  ({
    sessionId: 's',
    stage: 'theater',
    uiSpec: {
      stage: 'theater',
      meta: { today: '2026-11-21' },
      state: { booking: {} },
      items: theaters.map((t, i) => ({ id: `t${i}`, value: t.name, name: t.name, amenities: t.amenities ?? [] })),
    } as unknown as UiSpec,
    toolSchema: [],
    lastUserMessage: null,
    messageHistoryTail: [],
    source: 'host',
    lastAction: null,
    revision: 1,
    tagsActions: true,
    chosen: {},
  }) as unknown as PerceivedContext;

function listening(said: string): Listening {
  const l = new Listening({ hard: [], soft: [] }, { clock: () => new Date('2026-11-21T10:00:00Z'), log: () => {} });
  l.saw(theaterStage([]));
  expect(l.adopt(l.read(said, theaterStage([])))).toBe(true);
  return l;
}

describe('a place named loosely', () => {
  it('rules out a theater stage that does not list it, and names the theater where one does', () => {
    const l = listening('2 adults for orbital drift tomorrow, at the old mil');
    const ruledOut = l.saw(theaterStage([{ name: 'Lakeside 12' }]));
    expect(ruledOut?.model.hard).toContainEqual({ kind: 'theater', not: ['Lakeside 12'] });
    expect(ruledOut?.summary).toBe(
      "I don't see “old mil” among Lakeside 12, so I will look at where other films play.",
    );
    expect(l.placesUnmatched).toEqual(['old mil']);
    const named = l.saw(theaterStage([{ name: 'Lakeside 12' }, { name: 'Old Mill Cinema' }]));
    expect(named?.model.hard.filter((c) => c.kind === 'theater')).toEqual([
      { kind: 'theater', is: ['Old Mill Cinema'] },
    ]);
    expect(l.placesUnmatched).toEqual([]);
  });

  it('rules out nothing for words after "at" or "in" that name no cinema', () => {
    for (const text of [
      'something fun in town tonight for 2',
      '2 tickets tonight, in the mood for a comedy',
      "somewhere within 5 miles, my car's in the shop",
      'I only go out in daylight these days, 1 ticket',
    ]) {
      const l = listening(text);
      expect(l.saw(theaterStage([{ name: 'Lakeside 12' }]))).toBeNull();
    }
  });

  it('forgets the place once a theater wish is said or withdrawn', () => {
    const l = listening('tonight at kingsway, 2 of us');
    l.saw(theaterStage([{ name: 'Lakeside 12' }]));
    expect(l.adopt(l.read('any cinema would do', theaterStage([{ name: 'Lakeside 12' }])))).toBe(true);
    expect(l.placesUnmatched).toEqual([]);
    expect(l.model.hard.filter((c) => c.kind === 'theater')).toEqual([]);
  });

  it('does not take back a theater the same words turn down', () => {
    const stage = theaterStage([{ name: 'Northgate Stadium 16' }, { name: 'Riverside Art House' }]);
    for (const text of [
      "wait, northgate's miles away. anywhere within 5 miles instead, same film, same evening",
      'northgate is too far, any cinema within 5 miles',
    ]) {
      const l = listening('2 tickets for orbital drift on monday evening at Northgate please');
      l.saw(stage);
      expect(l.model.hard.filter((c) => c.kind === 'theater')).toEqual([{ kind: 'theater', is: ['Northgate'] }]);
      expect(l.adopt(l.read(text, stage))).toBe(true);
      expect(l.model.hard.filter((c) => c.kind === 'theater' && c.is)).toEqual([]);
      // Back on the theater stage, the place of the turned-down words names no theater again.
      const again = l.saw(stage);
      expect(again?.model.hard.filter((c) => c.kind === 'theater' && c.is) ?? []).toEqual([]);
    }
  });
});

describe('a theater wished for by what it offers', () => {
  it('names the theaters the stage lists with it', () => {
    const l = listening('2 adults for orbital drift tomorrow, wherever has free parking');
    const named = l.saw(
      theaterStage([
        { name: 'Lakeside 12', amenities: ['IMAX'] },
        { name: 'Old Mill Cinema', amenities: ['Free Parking'] },
      ]),
    );
    expect(named?.model.hard).toContainEqual({ kind: 'theater', is: ['Old Mill Cinema'] });
  });
});

describe('a theater wished for by what it offers, on a stage where no theater offers it', () => {
  it('rules those theaters out, keeps the wish, and names the theater where a later stage lists one', () => {
    const l = listening('2 adults for anything in IMAX on friday, at the cinema with the cafe');
    const lacking = l.saw(
      theaterStage([
        { name: 'Lakeside 12', amenities: ['IMAX'] },
        { name: 'Northgate Stadium 16', amenities: ['IMAX', '3D'] },
      ]),
    );
    expect(lacking?.model.hard).toContainEqual({ kind: 'theater', not: ['Lakeside 12', 'Northgate Stadium 16'] });
    const named = l.saw(
      theaterStage([
        { name: 'Old Mill Cinema', amenities: ['Free Parking'] },
        { name: 'Riverside Art House', amenities: ['Cafe'] },
      ]),
    );
    expect(named?.model.hard).toContainEqual({ kind: 'theater', is: ['Riverside Art House'] });
  });
});

describe('words only the theater stage can match', () => {
  it('are noticed in the message that says them, so a page past that stage goes back to it', () => {
    const l = listening('Giggle Factory on Saturday for 3');
    expect(l.theaterWordsJustSaid).toBe(false);
    expect(l.adopt(l.read('oh, and it has to be at the art house with the café', theaterStage([])))).toBe(true);
    expect(l.theaterWordsJustSaid).toBe(true);
    expect(l.adopt(l.read('2 adults and a child', theaterStage([])))).toBe(true);
    expect(l.theaterWordsJustSaid).toBe(false);
  });

  it('are a wish even when no rule reads anything else in the message', () => {
    const l = listening('Giggle Factory on Saturday for 3');
    const heard = l.read('we have vouchers for the cinema with the café', theaterStage([]));
    expect(heard.understanding.unparsed).toBe(true);
    expect(l.adopt(heard)).toBe(true);
    expect(l.theaterWordsJustSaid).toBe(true);
    expect(l.adopt(l.read('hmm', theaterStage([])))).toBe(false);
  });
});

describe('what the page holds', () => {
  it('is what "that\'s too far, somewhere closer" turns down when no theater was named', () => {
    const l = new Listening({ hard: [], soft: [] }, { clock: () => new Date('2026-11-21T10:00:00Z'), log: () => {} });
    const stage = theaterStage([{ name: 'Lakeside 12' }, { name: 'Northgate Stadium 16' }]);
    l.saw(stage);
    expect(l.adopt(l.read('2 adults saturday', stage))).toBe(true);
    const chosen = {
      ...stage,
      chosen: { theater: { id: 't1', value: 'Northgate Stadium 16', name: 'Northgate Stadium 16' } },
    };
    expect(l.adopt(l.read("that's too far, somewhere closer", chosen as PerceivedContext))).toBe(true);
    expect(l.model.hard).toContainEqual({ kind: 'theater', not: ['Northgate Stadium 16'] });
    expect(l.model.soft).toContainEqual({ kind: 'closest' });
  });
});
