import type { Story } from '@usher/booking';

/** A participant's wish the default scenario can meet, in their words and as the checker's truth. */
export const ORBITAL_IMAX_PAIR: Story = {
  text: 'Two adults for Orbital Drift tomorrow evening in IMAX, seats together',
  hard: [
    { kind: 'title', is: ['Orbital Drift'] },
    { kind: 'date', dates: ['2026-11-22'] },
    { kind: 'startTime', after: '17:00' },
    { kind: 'format', is: ['IMAX'] },
    { kind: 'seatCount', count: 2 },
    { kind: 'adjacent' },
    { kind: 'ticketMix', adult: 2 },
  ],
  soft: [],
};
