import { describe, expect, it } from 'vitest';
import { HOW_MANY } from './questions.ts';
import { read } from './testing.ts';

describe('what the reader could not settle', () => {
  it('asks how many when people are named without a number, until a count is given', () => {
    expect(read('pip and the comet tomorrow for me and the kids').model.questions).toEqual([HOW_MANY]);
    expect(read('pip and the comet tomorrow for me and the kids', 'sunny today').model.questions).toEqual([HOW_MANY]);
    expect(read('pip and the comet tomorrow for me and the kids', 'one adult and two children').model.questions).toBe(
      undefined,
    );
  });

  it('asks how many whenever nothing says so, rather than booking one ticket', () => {
    expect(read('something good this week').model.questions).toEqual([HOW_MANY]);
    expect(read('orbital drift tomorrow evening').model.questions).toEqual([HOW_MANY]);
    // One wheelchair space is a count: the speaker alone.
    expect(read('Second Helpings on Monday, I use a wheelchair').model.questions).toBe(undefined);
    expect(read('orbital drift tomorrow, 2 adults').model.questions).toBe(undefined);
  });

  it('reads a bare number right after "how many?" as the count', () => {
    expect(read('orbital drift tomorrow evening', '3').model.hard).toContainEqual({ kind: 'seatCount', count: 3 });
    const answer = read('pip and the comet tomorrow for me and the kids', 'two please');
    expect(answer.model.hard).toContainEqual({ kind: 'seatCount', count: 2 });
    expect(answer.model.questions).toBe(undefined);
    expect(answer.unparsed).toBe(false);
    expect(answer.unread).toEqual([]);
    // Without the question open, a lone number is still a doubt, not a count.
    expect(read('orbital drift tomorrow, 2 adults', '3').model.hard).toContainEqual({ kind: 'seatCount', count: 2 });
    // Two numbers, or a clock time, answer nothing.
    expect(read('orbital drift tomorrow', '3 or 4').model.questions).toContain(HOW_MANY);
  });

  it('asks about a number no rule read, quoting the words around it', () => {
    expect(read('orbital drift tomorrow for 7').model.questions).toEqual(['What did you mean by "tomorrow for 7"?']);
  });

  it('asks nothing about a number that ends a name: "is Lakeside 12 showing", "Stadium 16", "cinema 8"', () => {
    for (const text of [
      'What comedies is Lakeside 12 showing this week? For 2 adults.',
      'orbital drift tomorrow for 2 at Northgate Stadium 16',
      'orbital drift tomorrow for 2 at cinema 8',
    ]) {
      expect(read(text).model.questions, text).toBe(undefined);
    }
    // A day, a month or a sentence's first word before it is no name: the hour is still in doubt.
    expect(read('orbital drift for 2, Friday 7').model.questions).toEqual(['What did you mean by "2, Friday 7"?']);
    expect(read('2 adults. Tomorrow 8, orbital drift').model.questions?.length).toBe(1);
  });

  it('asks nothing when every wish is read', () => {
    expect(read('2 tickets for orbital drift tomorrow evening, not the front row').model.questions).toBe(undefined);
  });

  it('says which words it changed and which it did not use', () => {
    const understanding = read('2 tix for orbitel drift tmrw, my cat says hi');
    expect(understanding.fixes).toContainEqual({ from: 'orbitel drift', to: 'Orbital Drift' });
    expect(understanding.unread).toEqual(['cat', 'says']);
  });

  it('a number naming the hour of a time already wished for refers back to it', () => {
    const first = 'paper lanterns sunday at 11am, 2 adults 1 kid';
    expect(read(first, 'wait no 11 is too early for us, make it the afternoon').model.questions).toBe(undefined);
  });

  it('asks about a stray number only while it could be the count or the hour', () => {
    const first = 'paper lanterns sunday at 11am, 2 adults 1 kid';
    // The afternoon settles the time and the party is known: "9" can change nothing.
    expect(read(first, 'wait no 9 is too early for us, make it the afternoon').model.questions).toBe(undefined);
    // No time said yet: "7" may be the hour.
    expect(read('paper lanterns sunday, 2 adults 1 kid', 'in IMAX, and 7 would be good').model.questions).toEqual([
      'What did you mean by "IMAX, and 7 would"?',
    ]);
    // A number with a unit is never a clock time.
    expect(read('paper lanterns sunday, 2 adults', 'in IMAX, we live 8 miles out').model.questions).toBe(undefined);
  });
});

describe('an age bound of children named', () => {
  it('"two kids under 10" leaves nothing to ask', () => {
    expect(read('family of 4, two grown ups two kids under 10, saturday').model.questions).toBeUndefined();
  });
});
