import { StorySchema } from '@usher/booking';
import { describe, expect, it } from 'vitest';
import { EMPTY_MODEL, fromStory, updatePreferences } from './index.ts';
import { assertValid, CONTEXT, read } from './testing.ts';

describe('updatePreferences', () => {
  it('says what was understood and which kinds changed', () => {
    const u = read('2 adult tickets', 'IMAX tomorrow after 6pm');
    expect(u.summary).toBe('Understood: 2 adult tickets, IMAX, tomorrow (Sun 22 Nov), starting after 18:00.');
    expect(u.changed).toEqual(['format', 'date', 'startTime']);
    expect(u.unparsed).toBe(false);
  });

  it('leaves the model as it was for an unrecognized message and asks', () => {
    const before = read('IMAX').model;
    const u = updatePreferences(before, 'hmm', CONTEXT);
    expect(u).toMatchObject({ model: before, changed: [], unparsed: true });
    expect(u.summary).toMatch(/couldn't find/);
  });

  it('is pure: the same input gives the same output and the input is untouched', () => {
    const before = read('IMAX').model;
    const copy = structuredClone(before);
    const a = updatePreferences(before, '3D instead', CONTEXT);
    const b = updatePreferences(before, '3D instead', CONTEXT);
    expect(a).toEqual(b);
    expect(before).toEqual(copy);
  });
});

describe('fromStory', () => {
  it("starts from a story's lists and lets the participant refine them", () => {
    const story = StorySchema.parse({
      text: 'Two tickets for a comedy tonight, ideally close by.',
      hard: [
        { kind: 'seatCount', count: 2 },
        { kind: 'genre', include: ['Comedy'] },
        { kind: 'date', dates: ['2026-11-21'] },
      ],
      soft: [{ kind: 'closest' }],
    });
    const model = fromStory(story);
    expect(model).toEqual({ hard: story.hard, soft: story.soft });
    const u = updatePreferences(model, 'no romantic comedies', CONTEXT);
    expect(u.model.hard).toContainEqual({ kind: 'genre', include: ['Comedy'], exclude: ['Romantic Comedy'] });
    expect(story.hard).toContainEqual({ kind: 'genre', include: ['Comedy'] });
  });
});

/** Every phrasing in this corpus, read alone and all in sequence, must give schema-valid models. */
const CORPUS = [
  'Two adults and a child, IMAX, tomorrow evening, finished by 10:30pm, not too far',
  'no romantic comedies, something highly rated, this weekend, seats together in the middle',
  'I need 3 tickets for the 24th, nothing above PG-13, home by 11',
  'within 2 miles, under €30, regular screening, rows C to F',
  'me and my wife, Sunday afternoon, the earliest showing, best rated',
  'a senior and 2 kids, suitable for kids, premium seats, between 2 and 4pm',
  'actually make it Monday; 3D instead; forget the premium seats',
  'not Orbital Drift, no horror or thrillers, at least 7/10',
  'the back row, not too late, any format is fine',
  'plus a child, max $12 per ticket',
  'whenever, anywhere, any seats',
  'at midnight',
  'a wheelchair space, 2 seats',
];

describe('schema validity', () => {
  it('produces models that validate as story constraints, message by message', () => {
    let model = EMPTY_MODEL;
    for (const text of CORPUS) {
      const alone = updatePreferences(EMPTY_MODEL, text, CONTEXT);
      assertValid(alone.model);
      expect(alone.unparsed).toBe(false);
      model = updatePreferences(model, text, CONTEXT).model;
      assertValid(model);
    }
    expect(StorySchema.parse({ text: 'x', hard: model.hard, soft: model.soft })).toBeTruthy();
  });
});
