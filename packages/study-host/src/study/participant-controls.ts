import type { AgentControlState, ParticipantControl } from '@usher/protocol';
import type { Relay } from '@usher/relay';
import type { Participant } from '@usher/study';
import type { AgentControl } from '../console/study-console.ts';
import type { StudyMode } from './study-mode.ts';

/**
 * The participant's controls over the agent beside them (the study page): pause and resume (the
 * agent holds still, keeping what it was doing), take over and hand back (the agent leaves the page
 * to them, the console's Wizard-of-Oz step-in under the participant's name, and reads the page as it
 * is when handed it back). Each press is a `participant.control` record in the task's study log,
 * with what the agent was doing. A condition can turn either pair off.
 */
export class ParticipantControls {
  constructor(
    private readonly mode: StudyMode,
    private readonly relay: Relay,
    private readonly agents: () => AgentControl | null,
  ) {}

  /** Where the controls stand in the participant's room. */
  state(participant: Participant): AgentControlState {
    const agents = this.agents();
    return {
      paused: agents?.isHeld(participant.room) ?? false,
      takenOver: agents?.pausedBy(participant.room) === 'participant',
    };
  }

  /** Presses `control` for the participant; a {@link ControlError} when it cannot be pressed now (nothing changes). */
  press(participant: Participant, control: ParticipantControl): AgentControlState {
    if (participant.status !== 'task') throw new ControlError('OUT_OF_STEP', 'the participant is not on a task');
    const condition = this.mode.conditionOf(participant);
    const pair = control === 'pause' || control === 'resume' ? 'pause' : 'takeOver';
    if (!condition?.controls[pair]) {
      throw new ControlError(
        'CONTROL_OFF',
        `this condition has no ${pair === 'pause' ? 'pause' : 'take over'} control`,
      );
    }
    const agents = this.agents();
    const room = participant.room;
    if (!agents) throw new ControlError('OUT_OF_STEP', 'no agent works beside this participant');
    // What the agent was doing when pressed: read before the press changes it.
    const agentActivity = agents.activity(room);
    const state = this.state(participant);
    const refuse = (why: string) => {
      throw new ControlError('OUT_OF_STEP', why);
    };
    switch (control) {
      case 'pause':
        if (state.takenOver) refuse('the participant has taken over; hand back first');
        if (state.paused) refuse('the agent is paused already');
        if (!agents.hold(room)) refuse('no agent works beside this participant now');
        break;
      case 'resume':
        if (!agents.release(room)) refuse('the agent is not paused');
        break;
      case 'take-over': {
        if (state.takenOver) refuse('the participant has taken over already');
        if (agents.pausedBy(room) !== null) refuse('the experimenter has taken over');
        // A paused agent is let go first: taking over ends the pause.
        agents.release(room);
        if (!agents.pause(room, 'participant')) refuse('no agent works beside this participant now');
        break;
      }
      case 'hand-back':
        if (!state.takenOver) refuse('the participant has not taken over');
        agents.resume(room, 'participant');
        break;
    }
    this.relay.record(room, 'participant.control', { control, by: 'participant', agentActivity });
    return this.state(participant);
  }
}

/** A control press that cannot be done now; `code` is the API's error code. */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  constructor(
    readonly code: 'OUT_OF_STEP' | 'CONTROL_OFF',
    message: string,
  ) {
    super(message);
  }
}
