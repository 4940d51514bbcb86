import { describe, expect, it } from 'vitest';
import { correct } from './spelling.ts';
import { CONTEXT, hard } from './testing.ts';

const text = (message: string) => correct(message, CONTEXT).text;

describe('what people type, before the rules read it', () => {
  it.each([
    ['2 tix tmrw', '2 tickets tomorrow'],
    ['2nite, me n my bf', 'tonight, me and my boyfriend'],
    ['smth scary 4 me', 'something scary for me'],
    ['just me and the missus', 'just me and my wife'],
    ['pip & the comet', 'pip and the comet'],
    ['sunday arvo', 'sunday afternoon'],
    ['1 ticket 4 encore tmrw morn', '1 ticket for encore tomorrow morning'],
    ['wanna see sumthin scary', 'want to see something scary'],
    ['2 tix satday nite', '2 tickets saturday night'],
    ['tmw evng for 2', 'tomorrow evening for 2'],
    ['thursdy, 1 adlt', 'thursday, 1 adults'],
    ['wensday or fridya', 'wednesday or friday'],
    ['sun am, me + 3 kds', 'sun morning, me + 3 kids'],
    ['dust n thunder @ riverside', 'dust and thunder at riverside'],
    ['row n please', 'row n please'],
    ['sry not 2moro, my cuz is in', 'sorry not tomorrow, my cousin is in'],
    ['soz, cuz i was late', 'sorry, cuz i was late'],
    ['any chance of 2 for something funny', 'could we get 2 for something funny'],
    [
      'somethin w/ good reviews this wknd for me and the mrs',
      'something with good reviews this weekend for me and my wife',
    ],
  ])('"%s" → "%s"', (typed, read) => {
    expect(text(typed)).toBe(read);
  });

  it('turns larger number words into digits', () => {
    expect(text('under forty dollars')).toBe('under 40 dollars');
    expect(text('half a dozen tickets')).toBe('6 tickets');
    expect(text('on the twenty-fourth')).toBe('on the 24th');
  });

  it('mends a misspelt title into the title on screen', () => {
    expect(text('orbitel drift tomorrow')).toBe('Orbital Drift tomorrow');
    expect(text('the quiet harbur')).toBe('the Quiet Harbor');
    expect(text('deep blu cities')).toBe('Deep Blue Cities');
    expect(text('the hollow hosue')).toBe('the Hollow House');
  });

  it('mends a misspelt booking word, a swap of two letters included', () => {
    expect(text('saterday')).toBe('saturday');
    expect(text('wensday aftenoon')).toBe('wednesday afternoon');
    expect(text('fridya')).toBe('friday');
    expect(text('2 adluts and 1 chlid')).toBe('2 adults and 1 child');
    expect(text('a comdey')).toBe('a comedy');
  });

  it('leaves ordinary words alone, those near booking words too', () => {
    for (const word of [
      'not earlier than 7',
      'right next to it',
      'my son comes too',
      'a short walk',
      'there are three',
    ])
      expect(text(word)).toBe(word);
  });

  it('says each word it changed', () => {
    expect(correct('orbitel drift tmrw', CONTEXT).fixes).toEqual([
      { from: 'tmrw', to: 'tomorrow' },
      { from: 'orbitel drift', to: 'Orbital Drift' },
    ]);
  });

  it('so the rules read what was meant', () => {
    expect(hard('2 tix for orbitel drift saterday the 28th')).toEqual([
      { kind: 'seatCount', count: 2 },
      { kind: 'title', is: ['Orbital Drift'] },
      { kind: 'date', dates: ['2026-11-28'] },
    ]);
  });
});
