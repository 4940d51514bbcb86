/**
 * Simulated participants (`usher pilot`, and the tests that run a study end to end): each goes
 * through a running study over real sockets as the server sees a real participant.
 */
export { seededAnswers } from './answers.ts';
export { PilotPage } from './page.ts';
export {
  type Behaviour,
  type Pace,
  type PilotParticipantOptions,
  type PilotParticipantResult,
  type PilotTaskResult,
  runPilotParticipant,
} from './participant.ts';
export { Seeded } from './seeded.ts';
