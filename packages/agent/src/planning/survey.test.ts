import { startTestServer } from '@usher/server/testing';
import { describe, expect, it } from 'vitest';
import { loadSuite, runScenario, type StartHost } from '../suite/index.ts';
import { bestSurveyed, MAX_SURVEYED, nextToSurvey, startSurvey, surveyGoal } from './survey.ts';

const option = (itemId: string) => ({ itemId, label: itemId, score: 1, reason: '', why: '' });

describe('the search across theaters', () => {
  it('runs for a wish the showtime decides, unless one theater is required', () => {
    expect(surveyGoal({ hard: [], soft: [{ kind: 'earliest' }] })).toBe('earliest');
    expect(surveyGoal({ hard: [], soft: [{ kind: 'latest' }] })).toBe('latest');
    expect(surveyGoal({ hard: [], soft: [{ kind: 'closest' }] })).toBe(null);
    expect(surveyGoal({ hard: [{ kind: 'theater', is: ['Lumen'] }], soft: [{ kind: 'earliest' }] })).toBe(null);
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

  it('books the earliest showing of every theater, not of the first one that fits (suite d20)', async () => {
    const startHost: StartHost = async (world) => {
      const server = await startTestServer({ headlessHost: true, scenario: world });
      return {
        url: server.url,
        room: 'default',
        submitted: () => server.headlessHost?.submitted() ?? null,
        close: async () => {},
      };
    };
    const entry = loadSuite().find((e) => e.file.startsWith('d20-'));
    if (!entry) throw new Error('d20 is missing');
    const report = await runScenario(entry, startHost);
    expect(report.passed).toBe(true);
    expect(report.best).toBe(true);
    // Each theater looked at besides the last costs at most six calls (select, next, date, next, two prev).
    expect(report.toolCalls).toBeLessThanOrEqual((report.minimumToolCalls ?? 0) + 6 * (MAX_SURVEYED - 1));
  });
});
