import './flow.css';
import { parseScenario } from '@usher/booking';
import type { FlowStep, ParticipantView } from '@usher/protocol';
import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { HostStore } from '../bridge/host-store.ts';
import { App } from '../ui/App.tsx';
import { Brand } from '../ui/Header.tsx';
import type { ParticipantApi } from './participant-api.ts';
import { QuestionnaireCard } from './Questionnaire.tsx';
import { StudyText } from './StudyText.tsx';

interface Props {
  api: ParticipantApi;
  initial: ParticipantView;
  room: string;
  token: string | null;
}

/**
 * A participant's way through a study: welcome and consent → each task's briefing → the task on
 * the booking page (its checklist above it) → its questionnaire → … → the post-study
 * questionnaire → the end page with the completion code. Each step is
 * stored by the server before the page moves on, so a reload comes back to the same place.
 */
/** How often a page on a task asks the server whether the experimenter ended or reset it (ms). */
const TASK_CHECK_MS = 5000;

export function StudyFlow({ api, initial, room, token }: Props) {
  const [view, setView] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // When the page showed the current briefing, by its own clock (logged with the task's start).
  const briefingShownAt = useRef<string | null>(null);
  useEffect(() => {
    briefingShownAt.current = view.status === 'briefing' ? new Date().toISOString() : null;
  }, [view.status]);
  const step = async (next: FlowStep) => {
    setBusy(true);
    setProblem(null);
    const at = new Date().toISOString();
    const stamped: FlowStep =
      next.step === 'start-task' && briefingShownAt.current
        ? { ...next, at, briefingShownAt: briefingShownAt.current }
        : { ...next, at };
    try {
      setView(await api.step(stamped));
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  // A new step starts at its heading (focus would otherwise fall to the page's body), for the eyes
  // and for a screen reader; the page the participant opens starts at its top. A questionnaire
  // and the end page move to their own headings.
  const opened = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes, by design
  useEffect(() => {
    if (opened.current) {
      opened.current = false;
      return;
    }
    document.querySelector<HTMLElement>('[data-step-heading]')?.focus();
  }, [view.status, view.taskIndex]);

  // While on a task, the page checks now and then where the server says the participant is: an
  // experimenter may have reset the task or ended the study from the console.
  useEffect(() => {
    if (view.status !== 'task') return;
    const timer = setInterval(() => {
      api.view().then(
        (latest) => {
          if (latest && (latest.status !== view.status || latest.taskIndex !== view.taskIndex)) setView(latest);
        },
        () => {},
      );
    }, TASK_CHECK_MS);
    return () => clearInterval(timer);
  }, [api, view.status, view.taskIndex]);

  // Back on a task after a reload or a return: the server makes sure its session (and agent) run.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the view the page opened with
  useEffect(() => {
    if (initial.status === 'task') void step({ step: 'start-task' });
  }, []);

  if (view.status === 'task' && view.task) {
    return (
      <TaskRun key={view.task.id} view={view} room={room} token={token} busy={busy} problem={problem} onEnd={step} />
    );
  }
  const { questionnaire } = view;
  if ((view.status === 'task-questionnaire' || view.status === 'post-study') && questionnaire) {
    return (
      <FlowPage title={view.study.title}>
        <QuestionnaireCard
          key={`${questionnaire.kind}:${questionnaire.taskId ?? ''}`}
          view={{ ...view, questionnaire }}
          room={room}
          api={api}
          onAnswered={setView}
        />
      </FlowPage>
    );
  }
  const position = `Task ${view.taskIndex + 1} of ${view.taskCount}`;
  return (
    <FlowPage title={view.study.title}>
      {view.status === 'consent' && (
        <section className="flow-card" aria-labelledby="flow-title" data-testid="flow-consent">
          <h1 id="flow-title">Welcome</h1>
          <StudyText text={view.consent ?? ''} />
          <FlowActions problem={problem}>
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => step({ step: 'consent' })}
            >
              I agree, start the study
            </button>
          </FlowActions>
        </section>
      )}
      {view.status === 'briefing' && view.task && (
        <section className="flow-card" aria-labelledby="flow-title" data-testid="flow-briefing">
          <p className="flow-kicker">{position}</p>
          <h1 id="flow-title" tabIndex={-1} data-step-heading>
            {view.task.title}
          </h1>
          <StudyText text={view.task.briefing} />
          <Checklist items={view.task.checklist} />
          <FlowActions problem={problem}>
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => step({ step: 'start-task' })}
            >
              Start the task
            </button>
          </FlowActions>
        </section>
      )}
      {(view.status === 'done' || view.status === 'gave-up' || view.status === 'dropped') && (
        <EndCard completion={view.completion} ended={view.status === 'dropped'} />
      )}
    </FlowPage>
  );
}

/** One task on the booking page: its own host store (and saved booking), ended by the participant or by booking. */
function TaskRun({
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
      task={bar}
      chat={view.page.chat}
      afterBooking="This task is done. Press Continue at the top of the page to go on with the study."
    />
  );
}

function FlowPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flow">
      <header className="topbar">
        <div className="topbar__inner">
          <Brand>{title}</Brand>
        </div>
      </header>
      <main className="flow__main">{children}</main>
    </div>
  );
}

function FlowActions({ problem, children }: { problem: string | null; children: ReactNode }) {
  return (
    <div className="flow-actions">
      {problem && (
        <p className="flow-problem" role="alert">
          {problem}
        </p>
      )}
      {children}
    </div>
  );
}

function Checklist({ items, compact = false }: { items: string[]; compact?: boolean }) {
  if (items.length === 0) return null;
  return (
    <ul className={`checklist${compact ? ' checklist--compact' : ''}`} aria-label="What the booking needs">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

function EndCard({ completion, ended }: { completion: ParticipantView['completion']; ended: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className="flow-card" aria-labelledby="flow-title" data-testid="flow-end">
      <h1 id="flow-title" tabIndex={-1} ref={heading}>
        {ended ? 'This study has ended' : 'Thank you for taking part'}
      </h1>
      <p className="flow-text">
        {ended
          ? 'The researcher has ended your part in this study. What you did so far is saved. You can close this page.'
          : 'Your answers are saved. You can close this page.'}
      </p>
      {completion?.code && (
        <div className="completion">
          <p>Your completion code</p>
          <p className="completion__code" data-testid="completion-code">
            {completion.code}
          </p>
        </div>
      )}
      {completion?.redirect && (
        <FlowActions problem={null}>
          <a className="button button--primary" href={completion.redirect}>
            Finish and return
          </a>
        </FlowActions>
      )}
    </section>
  );
}
