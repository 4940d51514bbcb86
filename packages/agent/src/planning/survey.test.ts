import type { UiSpec } from '@usher/protocol';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import { loadSuite, runScenario, type StartHost, type SuiteEntry } from '../suite/index.ts';
import type { PreferenceModel } from './solver/index.ts';
import {
  bestSurveyed,
  betterFinding,
  datesToLook,
  MAX_DATES,
  MAX_SURVEYED,
  measure,
  nextToSurvey,
  partyCost,
  provenBest,
  repriced,
  slotKey,
  startSurvey,
  surveyGoal,
} from './survey.ts';

const option = (itemId: string) => ({ itemId, label: itemId, score: 1, reason: '', why: '' });

describe('the search across theaters', () => {
  it('runs for a wish the showtime decides, unless one theater is required', () => {
    expect(surveyGoal({ hard: [], soft: [{ kind: 'earliest' }] })).toBe('earliest');
    expect(surveyGoal({ hard: [], soft: [{ kind: 'latest' }] })).toBe('latest');
    // The closest theater that has a showing, compared across films; for one film named, the theater order serves it.
    expect(surveyGoal({ hard: [], soft: [{ kind: 'closest' }] })).toBe('closest');
    expect(surveyGoal({ hard: [{ kind: 'title', is: ['Encore'] }], soft: [{ kind: 'closest' }] })).toBe(null);
    expect(surveyGoal({ hard: [{ kind: 'theater', is: ['Lumen'] }], soft: [{ kind: 'earliest' }] })).toBe(null);
    expect(surveyGoal({ hard: [], soft: [{ kind: 'cheapest' }] })).toBe('cheapest');
    // One format required: the seats decide the price, no theater does better by its format.
    expect(surveyGoal({ hard: [{ kind: 'format', is: ['IMAX'] }], soft: [{ kind: 'cheapest' }] })).toBe(null);
    expect(surveyGoal({ hard: [], soft: [{ kind: 'startTime', after: '17:00' }] })).toBe('window');
  });

  it('for the cheapest, looks first at theaters that advertise no premium format, then the others', () => {
    const spec = {
      items: [
        { id: 'dome', value: 'Dome', isDisabled: false, amenities: ['IMAX', 'bar'] },
        { id: 'harbour', value: 'Harbour', isDisabled: false, amenities: ['3D'] },
        { id: 'oldtown', value: 'Old Town', isDisabled: false, amenities: ['bar'] },
      ],
    } as unknown as UiSpec;
    expect(startSurvey('cheapest', ['dome', 'harbour', 'oldtown'].map(option), spec).candidates).toEqual([
      'oldtown',
      'dome',
      'harbour',
    ]);
  });

  it('compares days for the cheapest, a window and the latest, only the first day for earliest', () => {
    const days = ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24'].map(option);
    expect(datesToLook('cheapest', days)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    expect(datesToLook('window', days)).toHaveLength(MAX_DATES);
    expect(datesToLook('earliest', days)).toEqual(['2026-11-21']);
    expect(datesToLook('latest', days)).toHaveLength(MAX_DATES);
    // One theater is enough to search when days are to be compared.
    expect(startSurvey('cheapest', [option('a')]).done).toBe(false);
    expect(startSurvey('earliest', [option('a')]).done).toBe(true);
  });

  it('prices premium formats by what their tickets cost, and names the ones not seen yet', () => {
    const spec = {
      state: { booking: { date: '2026-11-26' } },
      items: [
        { id: 'imax', value: '11:00', isDisabled: false, startMinutes: 660, format: 'IMAX' },
        { id: '3d', value: '16:00', isDisabled: false, startMinutes: 960, format: '3D' },
      ],
    } as unknown as UiSpec;
    const model: PreferenceModel = { hard: [], soft: [{ kind: 'cheapest' }] };
    const options = ['imax', '3d'].map(option);
    expect(measure('cheapest', spec, options, model).unpriced).toEqual([
      { itemId: 'imax', format: 'IMAX' },
      { itemId: '3d', format: '3D' },
    ]);
    expect(measure('cheapest', spec, options, model).priced).toBe(false);
    const prices = new Map([
      ['IMAX', 50],
      ['3D', 44],
    ]);
    expect(measure('cheapest', spec, options, model, prices)).toMatchObject({ value: 44, itemId: '3d', priced: true });
    const tickets = [
      { id: 'adult', value: 'Adult', isDisabled: false, price: 22 },
      { id: 'child', value: 'Child', isDisabled: false, price: 16 },
    ];
    expect(partyCost({ hard: [{ kind: 'ticketMix', adult: 1, child: 2 }], soft: [] }, tickets)).toBe(54);
    // A list seen before any price was known is priced again once one is read elsewhere.
    const seen = measure('cheapest', spec, options, model);
    const finding = { theater: 't', date: '2026-11-26', ...seen, value: Number.NaN };
    expect(repriced(finding, new Map()).priced).toBe(false);
    expect(repriced(finding, new Map([['3D', 44]]))).toMatchObject({ value: 44, itemId: '3d', priced: true });
    expect(repriced(finding, prices)).toMatchObject({ value: 44, itemId: '3d' });
    expect(partyCost({ hard: [{ kind: 'seatCount', count: 2 }], soft: [] }, tickets)).toBe(44);
  });

  it('leaves out theaters that do not advertise the premium format required, but not those that list no amenities', () => {
    const spec = {
      items: [
        { id: 'dome', value: 'Dome', isDisabled: false, amenities: ['IMAX', 'bar'] },
        { id: 'harbour', value: 'Harbour', isDisabled: false, amenities: ['3D'] },
        { id: 'plain', value: 'Plain', isDisabled: false },
      ],
    } as unknown as UiSpec;
    const ids = ['dome', 'harbour', 'plain'].map(option);
    const imax: PreferenceModel = { hard: [{ kind: 'format', is: ['IMAX'] }], soft: [{ kind: 'earliest' }] };
    expect(startSurvey('earliest', ids, spec, imax).candidates).toEqual(['dome', 'plain']);
    const imaxOrStandard: PreferenceModel = { hard: [{ kind: 'format', is: ['IMAX', 'Standard'] }], soft: [] };
    expect(startSurvey('earliest', ids, spec, imaxOrStandard).candidates).toEqual(['dome', 'harbour', 'plain']);
  });

  it('measures how far a showing lies outside a soft window, and stops at one inside it or in Standard', () => {
    const spec = {
      state: { booking: { date: '2026-11-23' } },
      items: [
        { id: 'a', value: '15:45', isDisabled: false, startMinutes: 945, endTime: '17:40', format: '3D' },
        { id: 'b', value: '17:00', isDisabled: false, startMinutes: 1020, endTime: '18:55', format: 'Standard' },
      ],
    } as unknown as UiSpec;
    const model = { hard: [], soft: [{ kind: 'startTime' as const, after: '18:00' }] };
    // Outside by 135 minutes: 100 plus the minutes; inside a plain clock window: 0.
    expect(measure('window', spec, [option('a')], model).value).toBe(235);
    expect(
      measure('window', spec, [option('b')], { hard: [], soft: [{ kind: 'startTime', after: '16:30' }] }).value,
    ).toBe(0);
    // Inside the evening, the distance from a typical evening start: 17:00 scores 0.5, so 50.
    const evening: PreferenceModel = { hard: [], soft: [{ kind: 'startTime', after: '17:00' }] };
    expect(measure('window', spec, [option('b')], evening).value).toBe(50);
    expect(measure('cheapest', spec, [option('a')], model).priced).toBe(false);
    expect(measure('cheapest', spec, [option('a'), option('b')], model)).toMatchObject({ value: 0, itemId: 'b' });
    expect(provenBest('window', 0)).toBe(true);
    expect(provenBest('window', 75)).toBe(false);
    expect(provenBest('earliest', 0)).toBe(false);
  });

  it('looks at most at MAX_SURVEYED theaters, skips those that led nowhere, and picks the best start', () => {
    const survey = startSurvey('earliest', ['a', 'b', 'c', 'd', 'e', 'f'].map(option));
    expect(survey.candidates).toHaveLength(MAX_SURVEYED);
    expect(nextToSurvey(survey, new Set(['a']))).toEqual({ theater: 'b' });
    const look = (theater: string, value: number) => {
      survey.dates.set(theater, ['2026-11-22']);
      survey.found.set(slotKey(theater, '2026-11-22'), { theater, date: '2026-11-22', value, priced: true });
    };
    look('b', 1200);
    look('c', Number.NaN);
    look('d', 1100);
    expect(bestSurveyed(survey)?.theater).toBe('d');
    expect(bestSurveyed({ ...survey, goal: 'latest' })?.theater).toBe('b');
    expect(nextToSurvey(survey, new Set())).toEqual({ theater: 'a' });
  });

  const run = async (prefix: string, change?: (world: SuiteEntry['world']) => void) => {
    const startHost: StartHost = async (world) => {
      const server = await startTestServer({ headlessHost: true, scenario: world });
      return {
        url: server.url,
        room: 'default',
        submitted: () => server.headlessHost?.submitted() ?? null,
        close: async () => {},
      };
    };
    const entry = loadSuite().find((e) => e.file.startsWith(prefix));
    if (!entry) throw new Error(`${prefix} is missing`);
    change?.(entry.world);
    return runScenario(entry, startHost);
  };

  it('books the earliest showing of every theater, not of the first one that fits (suite d20)', async () => {
    const report = await run('d20-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
    // Each theater looked at besides the last costs at most six calls (select, next, date, next, two prev).
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 6 * (MAX_SURVEYED - 1));
  });

  it('books an evening showing at another theater when the first has daytime ones only (suite d33)', async () => {
    const report = await run('d33-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 6 * (MAX_SURVEYED - 1));
  });

  it('books the cheaper of two premium formats, reading one price on its ticket stage (suite f01)', async () => {
    const report = await run('f01-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
    // One trip to a ticket stage (select, next, a seat, next, two prev) and one other theater looked at.
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 6 + 6);
  });

  it('compares the days of the weekend for the cheapest, not only the first day (suite f10)', async () => {
    const report = await run('f10-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
    // Three lists (a theater's price is read only after its last day: the second showed Standard), one trip to a ticket stage.
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 3 * 6 + 6);
  });

  it('books a typical evening start, not the first showing after 17:00 (suite d34)', async () => {
    const report = await run('d34-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
    expect(report.booking?.time).toBe('20:10');
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 6 * (MAX_SURVEYED - 1));
  });

  it('finds the one evening showing of the weekend, on the second day at the second theater (suite f11)', async () => {
    const report = await run('f11-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 4 * 6);
  });

  it('goes back to the format whose price it read when the last one turns out dearer (f01 with IMAX cheaper than 3D)', async () => {
    const report = await run('f01-', (world) => {
      world.formatSurcharges = { ...world.formatSurcharges, IMAX: 2, '3D': 4 };
    });
    expect(report.passed).toBe(true);
    expect(report.booking?.format).toBe('IMAX');
    expect(report.best).toBe(true);
    // The trip for IMAX's price (6), the other theater (6), its showtime and seats (5), back from
    // its ticket stage (4), and the first theater and day again (4).
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 6 + 6 + 5 + 4 + 4);
  });

  it("books a Standard showing elsewhere over the first theater's IMAX when the cheapest is wanted (suite f09)", async () => {
    const report = await run('f09-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
  });
});

describe('the earliest and the latest are a day and a time', () => {
  it('"the very last screening this weekend" is the later day’s, at the same clock', () => {
    const saturday = { date: '2026-12-05', value: 21 * 60 + 30 };
    const sunday = { date: '2026-12-06', value: 21 * 60 + 30 };
    expect(betterFinding('latest', sunday, saturday)).toBe(true);
    expect(betterFinding('latest', saturday, sunday)).toBe(false);
    expect(betterFinding('earliest', { ...sunday, value: 600 }, saturday)).toBe(false);
    expect(betterFinding('earliest', saturday, { ...sunday, value: 600 })).toBe(true);
    // On one day, the clock decides.
    expect(betterFinding('latest', saturday, { ...saturday, value: 600 })).toBe(true);
  });
});

describe('the closest theater and a time of its films', () => {
  it('"the last one tonight at my closest cinema" searches for the closest, the time deciding between its films', () => {
    const wishes: PreferenceModel = {
      hard: [{ kind: 'date', dates: ['2026-11-21'] }],
      soft: [{ kind: 'closest' }, { kind: 'latest' }],
    };
    expect(surveyGoal(wishes)).toBe('closest');
    expect(surveyGoal({ ...wishes, soft: [{ kind: 'latest' }] })).toBe('latest');
    // A film named: its theaters in the solver's order already serve the closest; the time is searched.
    expect(surveyGoal({ ...wishes, hard: [...wishes.hard, { kind: 'title', is: ['Orbital Drift'] }] })).toBe('latest');
  });
});

describe('a preference said only to break a tie', () => {
  it('"the latest … if a few cinemas tie, the nearest one" searches for the latest', () => {
    const wishes: PreferenceModel = { hard: [], soft: [{ kind: 'closest' }, { kind: 'latest' }] };
    expect(surveyGoal(wishes)).toBe('closest');
    expect(surveyGoal(wishes, false, ['closest'])).toBe('latest');
  });
});
