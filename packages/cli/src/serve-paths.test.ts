import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodesDir } from './serve.ts';

describe('where usher serve writes its agents’ episode logs', () => {
  it('beside the study logs by default, wherever --logs points, and where --episodes says when given', () => {
    expect(episodesDir({ logs: './logs/study' })).toBe(resolve('logs/agent'));
    expect(episodesDir({ logs: '/srv/study-7/logs/study' })).toBe('/srv/study-7/logs/agent');
    expect(episodesDir({ logs: '/srv/study-7/study-logs', episodes: '/var/usher/episodes' })).toBe(
      '/var/usher/episodes',
    );
  });
});
