import './flow.css';
import type { FlowStep, ParticipantView } from '@usher/protocol';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Brand } from '../ui/Header.tsx';
import { Checklist } from './Checklist.tsx';
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

type TaskRunModule = typeof import('./TaskRun.tsx');
let taskRunModule: TaskRunModule | null = null;

/**
 * The booking page (the booking engine, its stages and the chat) is loaded when a task starts:
 * consent, briefings and questionnaires never fetch it. "Start the task" fetches it while the
 * server starts the task, and the page moves on once both are done; a page opened on a task
 * loads it before it first shows (main.tsx).
 */
export async function loadTaskRun(): Promise<TaskRunModule> {
  taskRunModule ??= await import('./TaskRun.tsx');
  return taskRunModule;
}

export function StudyFlow({ api, initial, room, token }: Props) {
  const [view, setView] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [taskRun, setTaskRun] = useState(taskRunModule);
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
      const [next, loaded] = await Promise.all([
        api.step(stamped),
        stamped.step === 'start-task' ? loadTaskRun() : Promise.resolve(taskRunModule),
      ]);
      if (loaded) setTaskRun(loaded);
      setView(next);
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
  }, [view.status, view.taskIndex, taskRun === null]);

  // On a task the page was not sent to by "Start the task" (an experimenter's reset, say): its code now.
  useEffect(() => {
    if (view.status !== 'task' || taskRun) return;
    loadTaskRun().then(setTaskRun, (err: unknown) => setProblem(err instanceof Error ? err.message : String(err)));
  }, [view.status, taskRun]);

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
    return taskRun ? (
      <taskRun.TaskRun
        key={view.task.id}
        view={view}
        room={room}
        token={token}
        busy={busy}
        problem={problem}
        onEnd={step}
      />
    ) : (
      <TaskLoading title={view.study.title} problem={problem} />
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

/** What shows while the booking page's code arrives (a moment, on a slow network). */
function TaskLoading({ title, problem }: { title: string; problem: string | null }) {
  return (
    <FlowPage title={title}>
      <p className="flow-text" role="status">
        Loading the booking page…
      </p>
      {problem && (
        <p className="flow-problem" role="alert">
          {problem}
        </p>
      )}
    </FlowPage>
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
