import { parseScenario } from '@usher/booking';
import type { FlowStep, ParticipantView } from '@usher/protocol';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { HostStore } from '../bridge/host-store.ts';
import { App } from '../ui/App.tsx';
import { AgentBar } from './AgentBar.tsx';
import { Checklist } from './Checklist.tsx';
import { ParticipantApi } from './participant-api.ts';
import { StudyText } from './StudyText.tsx';

/** One task on the booking page: its own host store (and saved booking), ended by the participant or by booking. */
export function TaskRun({
  view,
  room,
  token,
  busy,
  problem,
  onEnd,
}: {
  view: ParticipantView;
  room: string;
  token: string | null;
  busy: boolean;
  problem: string | null;
  onEnd: (step: FlowStep) => void;
}) {
  const task = view.task as NonNullable<ParticipantView['task']>;
  const [store] = useState(
    () =>
      new HostStore({
        relayUrl: location.origin.replace(/^http/, 'ws'),
        room,
        study: view.study.id,
        participant: view.participantId,
        token,
        scenario: parseScenario(task.world, task.id),
        storage: window.localStorage,
        saveAs: `${room}:${task.id}`,
      }),
  );
  useEffect(() => {
    store.connect();
    return () => store.dispose();
  }, [store]);
  const [api] = useState(() => new ParticipantApi(room, token));
  const controls = view.page.controls;
  const submitted = useSyncExternalStore(store.subscribe, () => store.getSnapshot().submitted !== null);
  // Ending a task cannot be undone, so either way out asks first. The question takes the focus
  // (on its harmless answer), and "No" gives it back to the button that asked.
  const [confirming, setConfirming] = useState<'done' | 'gave-up' | null>(null);
  const [briefingOpen, setBriefingOpen] = useState(false);
  const declined = useRef<'done' | 'gave-up' | null>(null);
  const noButton = useRef<HTMLButtonElement>(null);
  const doneButton = useRef<HTMLButtonElement>(null);
  const giveUpButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) noButton.current?.focus();
    else if (declined.current) (declined.current === 'done' ? doneButton : giveUpButton).current?.focus();
    declined.current = null;
  }, [confirming]);
  const end = (outcome: 'submitted' | 'done' | 'gave-up') =>
    onEnd({ step: 'end-task', outcome, taskIndex: view.taskIndex });
  const bar = (
    <section className="task-bar" aria-label="Your task" data-testid="task-bar">
      <div className="task-bar__text">
        <p className="flow-kicker">
          Task {view.taskIndex + 1} of {view.taskCount}
        </p>
        <h2 className="task-bar__title" tabIndex={-1} data-step-heading>
          {task.title}
        </h2>
        <Checklist items={task.checklist} compact />
        <details
          className="task-bar__briefing"
          data-testid="task-briefing"
          onToggle={(event) => setBriefingOpen(event.currentTarget.open)}
        >
          <summary>{briefingOpen ? 'Hide the whole task' : 'Show the whole task'}</summary>
          <StudyText text={task.briefing} />
        </details>
      </div>
      <div
        className="task-bar__actions"
        {...(confirming && !submitted && { role: 'group', 'aria-labelledby': 'task-end-ask' })}
      >
        {submitted ? (
          <button type="button" className="button button--primary" disabled={busy} onClick={() => end('submitted')}>
            Continue
          </button>
        ) : confirming ? (
          <>
            <span className="task-bar__ask" id="task-end-ask">
              {confirming === 'done'
                ? 'End this task without booking? You cannot come back to it.'
                : 'Give up this task? You cannot come back to it.'}
            </span>
            <button type="button" className="button button--small" disabled={busy} onClick={() => end(confirming)}>
              {confirming === 'done' ? 'Yes, I’m done' : 'Yes, give up'}
            </button>
            <button
              type="button"
              className="button button--small button--quiet"
              ref={noButton}
              onClick={() => {
                declined.current = confirming;
                setConfirming(null);
              }}
            >
              No, go on
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              ref={doneButton}
              onClick={() => setConfirming('done')}
            >
              I’m done
            </button>
            <button
              type="button"
              className="button button--small button--quiet"
              ref={giveUpButton}
              onClick={() => setConfirming('gave-up')}
            >
              Give up
            </button>
          </>
        )}
      </div>
      {problem && (
        <p className="task-bar__problem" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
  return (
    <App
      store={store}
      initialDevPanel={false}
      task={
        <>
          {bar}
          {controls && (
            <AgentBar
              store={store}
              api={api}
              controls={controls}
              initial={view.agentControl ?? { paused: false, takenOver: false }}
            />
          )}
        </>
      }
      chat={view.page.chat}
      afterBooking="This task is done. Press Continue at the top of the page to go on with the study."
    />
  );
}
