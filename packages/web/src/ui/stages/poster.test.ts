import { describe, expect, it } from 'vitest';
import { initialsOf, posterArt } from './poster.ts';

describe('posterArt', () => {
  it('is the same for a title every time, and differs between titles', () => {
    expect(posterArt('Orbital Drift')).toEqual(posterArt('Orbital Drift'));
    expect(posterArt('Orbital Drift').from).not.toBe(posterArt('Night Ledger').from);
  });

  it('takes initials from the words that matter', () => {
    expect(initialsOf('The Quiet Harbor')).toBe('QH');
    expect(initialsOf('Pip and the Comet')).toBe('PC');
    expect(initialsOf('Encore')).toBe('EN');
  });
});
