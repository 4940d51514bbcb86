import type { UiSpec } from '@usher/protocol';
import { startTestServer } from '@usher/server/testing';
import { describe, expect, it } from 'vitest';
import { loadSuite, runScenario, type StartHost } from '../suite/index.ts';
import type { PreferenceModel } from './solver/index.ts';
import { bestSurveyed, MAX_SURVEYED, measure, nextToSurvey, provenBest, startSurvey, surveyGoal } from './survey.ts';

const option = (itemId: string) => ({ itemId, label: itemId, score: 1, reason: '', why: '' });

describe('the search across theaters', () => {
  it('runs for a wish the showtime decides, unless one theater is required', () => {
    expect(surveyGoal({ hard: [], soft: [{ kind: 'earliest' }] })).toBe('earliest');
    expect(surveyGoal({ hard: [], soft: [{ kind: 'latest' }] })).toBe('latest');
    expect(surveyGoal({ hard: [], soft: [{ kind: 'closest' }] })).toBe(null);
    expect(surveyGoal({ hard: [{ kind: 'theater', is: ['Lumen'] }], soft: [{ kind: 'earliest' }] })).toBe(null);
    expect(surveyGoal({ hard: [], soft: [{ kind: 'cheapest' }] })).toBe('cheapest');
    // One format required: the seats decide the price, no theater does better by its format.
    expect(surveyGoal({ hard: [{ kind: 'format', is: ['IMAX'] }], soft: [{ kind: 'cheapest' }] })).toBe(null);
    expect(surveyGoal({ hard: [], soft: [{ kind: 'startTime', after: '17:00' }] })).toBe('window');
  });

  it("for the cheapest, looks first at theaters that advertise no premium format, then the solver's first", () => {
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
    ]);
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
    const model = { hard: [], soft: [{ kind: 'startTime' as const, after: '17:00' }] };
    expect(measure('window', spec, option('a'), model)).toBe(75);
    expect(measure('window', spec, option('b'), model)).toBe(0);
    expect(measure('cheapest', spec, option('a'), model)).toBe(1);
    expect(measure('cheapest', spec, option('b'), model)).toBe(0);
    expect(provenBest('window', 0)).toBe(true);
    expect(provenBest('window', 75)).toBe(false);
    expect(provenBest('earliest', 0)).toBe(false);
  });

  it('looks at most at MAX_SURVEYED theaters, skips those that led nowhere, and picks the best start', () => {
    const survey = startSurvey('earliest', ['a', 'b', 'c', 'd', 'e', 'f'].map(option));
    expect(survey.candidates).toHaveLength(MAX_SURVEYED);
    expect(nextToSurvey(survey, new Set(['a']))).toBe('b');
    survey.found.set('b', 1200);
    survey.found.set('c', Number.NaN);
    survey.found.set('d', 1100);
    expect(bestSurveyed(survey)).toBe('d');
    expect(bestSurveyed({ ...survey, goal: 'latest' })).toBe('b');
  });

  const run = async (prefix: string) => {
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

  it("books a Standard showing elsewhere over the first theater's IMAX when the cheapest is wanted (suite f09)", async () => {
    const report = await run('f09-');
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
  });
});
