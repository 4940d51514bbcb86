import './questionnaire.css';
import type { ParticipantView, QuestionnaireView } from '@usher/protocol';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  type AnswerValue,
  answerTo,
  type Draft,
  draftKey,
  missingRequired,
  readDraft,
  submittable,
  writeDraft,
} from './answers-draft.ts';
import { FlowRequestError, type ParticipantApi } from './participant-api.ts';
import { QuestionnaireItem } from './QuestionnaireItem.tsx';

interface Props {
  view: ParticipantView & { questionnaire: QuestionnaireView };
  room: string;
  api: ParticipantApi;
  /** The server took the answers: where the participant is now. */
  onAnswered: (view: ParticipantView) => void;
}

/**
 * A questionnaire, one section a screen with its progress: required answers are asked for before
 * the next screen, the answers are kept in the browser as they are given (a reload comes back to
 * the same screen with them), and sent whole, to be checked and stored, from the last screen.
 */
export function QuestionnaireCard({ view, room, api, onAnswered }: Props) {
  const { questionnaire } = view;
  const key = draftKey(room, questionnaire);
  const [draft, setDraft] = useState<Draft>(() => readDraft(window.localStorage, key, questionnaire));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const sections = questionnaire.sections;
  // No section at all only when the study changed under the participant: "Continue" moves them on.
  const section = sections[draft.section] ?? sections[0];
  const items = section?.items ?? [];
  const last = draft.section >= sections.length - 1;

  // Each new screen starts at its heading, for the eyes and for a screen reader.
  const firstScreen = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the screen changes
  useEffect(() => {
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    window.scrollTo(0, 0);
    heading.current?.focus();
  }, [draft.section]);

  const update = (next: Draft) => {
    setDraft(next);
    writeDraft(window.localStorage, key, next);
  };
  const answer = (itemId: string, value: AnswerValue) => {
    update({ ...draft, answers: { ...draft.answers, [itemId]: value } });
    if (Object.hasOwn(problems, itemId)) {
      const { [itemId]: _fixed, ...rest } = problems;
      setProblems(rest);
      if (Object.keys(rest).length === 0) setMessage(null);
    }
  };
  const showProblems = (byItem: Record<string, string>, text: string) => {
    setProblems(byItem);
    setMessage(text);
    const first = Object.keys(byItem)[0];
    // After the screen shows them: the first question needing attention gets the focus.
    requestAnimationFrame(() => {
      document.getElementById(`q-${first}`)?.querySelector<HTMLElement>('input, textarea')?.focus();
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = missingRequired(items, draft.answers);
    if (missing.length > 0) {
      showProblems(
        Object.fromEntries(missing.map((id) => [id, 'Please answer this question.'])),
        missing.length === 1
          ? 'One question on this page still needs an answer.'
          : `${missing.length} questions on this page still need an answer.`,
      );
      return;
    }
    setProblems({});
    setMessage(null);
    if (!last) {
      update({ ...draft, section: draft.section + 1 });
      return;
    }
    setBusy(true);
    try {
      const next = await api.answer({
        questionnaire: questionnaire.kind,
        answers: submittable(questionnaire, draft.answers),
        at: new Date().toISOString(),
      });
      window.localStorage.removeItem(key);
      onAnswered(next);
    } catch (err) {
      if (err instanceof FlowRequestError && err.problems.length > 0) {
        // Back to the first screen with a refused answer, each marked with the server's reason.
        const at = sections.findIndex((s) => s.items.some((i) => err.problems.some((p) => p.itemId === i.id)));
        if (at >= 0 && at !== draft.section) update({ ...draft, section: at });
        showProblems(
          Object.fromEntries(err.problems.map((p) => [p.itemId, p.message])),
          'Some answers were not accepted; please check the questions marked below.',
        );
      } else {
        setMessage(err instanceof Error ? err.message : String(err));
      }
    } finally {
      setBusy(false);
    }
  };

  const kicker =
    questionnaire.kind === 'per-task'
      ? `Task ${view.taskIndex + 1} of ${view.taskCount} · Questions`
      : 'Before you finish';
  const title =
    section?.title ??
    (questionnaire.kind === 'per-task' && view.task ? `About “${view.task.title}”` : 'About the study');
  return (
    <form
      className="flow-card questionnaire"
      aria-labelledby="flow-title"
      data-testid={`questionnaire-${questionnaire.kind}`}
      onSubmit={submit}
      noValidate
    >
      <p className="flow-kicker">{kicker}</p>
      {sections.length > 1 && (
        <div className="q-progress">
          <span data-testid="q-progress">
            Page {draft.section + 1} of {sections.length}
          </span>
          <progress max={sections.length} value={draft.section + 1} aria-label="Progress through the questions" />
        </div>
      )}
      <h1 id="flow-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {section?.intro && <p className="flow-text q-intro">{section.intro}</p>}
      {!section && <p className="flow-text q-intro">There is nothing to answer here.</p>}
      <div className="q-items">
        {items.map((item) => (
          <QuestionnaireItem
            key={item.id}
            item={item}
            value={answerTo(draft.answers, item.id)}
            onChange={(value) => answer(item.id, value)}
            problem={Object.hasOwn(problems, item.id) ? (problems[item.id] ?? null) : null}
          />
        ))}
      </div>
      <div className="flow-actions">
        {message && (
          <p className="flow-problem" role="alert">
            {message}
          </p>
        )}
        {draft.section > 0 && (
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => update({ ...draft, section: draft.section - 1 })}
          >
            Back
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {!section ? 'Continue' : last ? 'Submit answers' : 'Next'}
        </button>
      </div>
    </form>
  );
}
