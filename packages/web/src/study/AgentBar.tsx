import { describeStep } from '@usher/booking';
import type { AgentControlState, ParticipantControl, ParticipantView } from '@usher/protocol';
import { useState, useSyncExternalStore } from 'react';
import type { HostStore } from '../bridge/host-store.ts';
import type { ParticipantApi } from './participant-api.ts';

/**
 * The participant's controls over the agent, above the booking (on a phone too): Pause / Resume and
 * Take over / Hand back, as the condition allows; and, where each step is approved, the step the
 * agent proposes in one line with Approve and Reject (a yes or a no typed in the chat works too).
 * Each control is one button, reachable by keyboard; what it did is said to screen readers.
 */
export function AgentBar({
  store,
  api,
  controls,
  initial,
}: {
  store: HostStore;
  api: ParticipantApi;
  controls: NonNullable<ParticipantView['page']['controls']>;
  initial: AgentControlState;
}) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [state, setState] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const press = async (control: ParticipantControl) => {
    setBusy(true);
    setProblem(null);
    try {
      setState(await api.control(control));
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const proposal = state.paused || state.takenOver ? null : snapshot.proposal;
  const booked = snapshot.submitted !== null;
  if (booked || (!controls.pause && !controls.takeOver && !proposal)) return null;
  const status = state.takenOver
    ? 'You have the booking: the assistant watches and does nothing until you hand it back.'
    : state.paused
      ? 'The assistant is paused: it does nothing until you resume it.'
      : snapshot.agentWorking
        ? 'The assistant is working on the booking.'
        : 'The assistant is ready.';
  return (
    <section className="agent-bar" aria-label="The assistant" data-testid="agent-bar">
      {proposal && (
        <fieldset className="agent-bar__proposal" aria-labelledby="agent-proposal" data-testid="agent-proposal">
          <p id="agent-proposal" className="agent-bar__step">
            <strong>Next step: {describeStep(proposal.tool, proposal.args, snapshot.view.uiSpec)}.</strong>{' '}
            <span className="agent-bar__why">{proposal.reason}</span>
          </p>
          <div className="agent-bar__decide">
            <button
              type="button"
              className="button button--small button--primary"
              onClick={() => store.decide('approve')}
            >
              Approve
            </button>
            <button type="button" className="button button--small" onClick={() => store.decide('reject')}>
              Reject
            </button>
          </div>
        </fieldset>
      )}
      <div className="agent-bar__controls">
        <p className="agent-bar__status" aria-live="polite" data-testid="agent-status">
          <span
            className={`agent-bar__dot${state.paused || state.takenOver ? ' agent-bar__dot--off' : ''}`}
            aria-hidden
          />
          {status}
        </p>
        {controls.pause && !state.takenOver && (
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            aria-pressed={state.paused}
            onClick={() => void press(state.paused ? 'resume' : 'pause')}
            data-testid="agent-pause"
          >
            {state.paused ? 'Resume the assistant' : 'Pause the assistant'}
          </button>
        )}
        {controls.takeOver && (
          <button
            type="button"
            className="button button--small button--quiet"
            disabled={busy}
            aria-pressed={state.takenOver}
            onClick={() => void press(state.takenOver ? 'hand-back' : 'take-over')}
            data-testid="agent-take-over"
          >
            {state.takenOver ? 'Hand back to the assistant' : 'Take over'}
          </button>
        )}
      </div>
      {problem && (
        <p className="agent-bar__problem" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
