import { parseScenario, type Replay, replayStudyLog } from '@usher/booking';
import type { ConsoleStudy, ParticipantRow, SessionSummary } from '@usher/protocol';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ChatMessage } from '../ui/ChatMessage.tsx';
import { Confirmation } from '../ui/Confirmation.tsx';
import { StageView } from '../ui/StageView.tsx';
import { useOverflow } from '../ui/use-overflow.ts';
import type { ConsoleApi } from './console-api.ts';
import { formatSpan } from './ParticipantTable.tsx';
import { viewOf } from './room-socket.ts';
import { Scroller } from './Scroller.tsx';

const NO_TOOLS: ReadonlySet<string> = new Set();
const SPEEDS = [1, 4, 16] as const;

/** Finished (and running) sessions of the study, and one replayed from its log alone. */
export function ReplayPanel({
  api,
  study,
  participants,
}: {
  api: ConsoleApi;
  study: ConsoleStudy;
  /** The study's participants, to name each session's as the participant list does. */
  participants: readonly ParticipantRow[];
}) {
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api
      .sessions()
      .then((r) => setSessions(r.sessions))
      .catch((err: Error) => setProblem(err.message));
  }, [api]);
  const wrap = useRef<HTMLElement>(null);
  const scrolls = useOverflow(wrap);
  const participant = (id: string) => {
    const row = participants.find((r) => r.id === id);
    return row?.externalId ?? id;
  };
  const label = (kind: 'conditions' | 'tasks', id: string) =>
    kind === 'conditions'
      ? (study.conditions.find((c) => c.id === id)?.label ?? id)
      : (study.tasks.find((t) => t.id === id)?.title ?? id);

  if (chosen) return <ReplaySession api={api} sessionId={chosen} onBack={() => setChosen(null)} />;
  return (
    <section
      className="console-card console-table-wrap"
      aria-label="Sessions"
      ref={wrap}
      tabIndex={scrolls ? 0 : undefined}
    >
      {problem && <p className="banner">{problem}</p>}
      {sessions === null ? (
        <p className="muted">Loading the study logs…</p>
      ) : sessions.length === 0 ? (
        <div className="console-empty">
          <h2>No sessions yet</h2>
          <p className="muted">Each participant task is one study session; it appears here once it starts.</p>
        </div>
      ) : (
        <table className="console-table" data-testid="sessions">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Participant</th>
              <th scope="col">Condition</th>
              <th scope="col">Task</th>
              <th scope="col">Started</th>
              <th scope="col">Size</th>
              <th scope="col">
                <span className="sr-only">Replay</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {[...sessions].reverse().map((s) => (
              <tr key={s.sessionId}>
                <td className="mono">{s.sessionId}</td>
                <td className="mono">{participant(s.participantId)}</td>
                <td>{label('conditions', s.conditionId)}</td>
                <td>{label('tasks', s.taskId)}</td>
                <td className="mono">{s.startedAt.replace('T', ' ').slice(0, 19)}</td>
                <td className="num">{Math.max(1, Math.round(s.bytes / 1024))} KB</td>
                <td>
                  <button type="button" className="button button--small" onClick={() => setChosen(s.sessionId)}>
                    Replay
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** One session on a timeline: the page and the chat as the participant saw them at each record, and what happened. */
function ReplaySession({ api, sessionId, onBack }: { api: ConsoleApi; sessionId: string; onBack: () => void }) {
  const [replay, setReplay] = useState<Replay | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [at, setAt] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(4);

  useEffect(() => {
    api
      .session(sessionId)
      .then(({ log, world }) => {
        if (!world) throw new Error('the task of this session is not in the study file any more');
        const built = replayStudyLog(parseScenario(world, 'the task’s scenario'), log);
        setReplay(built);
        setAt(Math.max(0, built.frames.length - 1));
      })
      .catch((err: Error) => setProblem(err.message));
  }, [api, sessionId]);

  const times = useMemo(() => replay?.frames.map((f) => Date.parse(f.record.timestamp)) ?? [], [replay]);

  // Plays at the log's own pace, sped up: each record shows for as long as it lasted (capped at 2 s).
  useEffect(() => {
    if (!playing || !replay) return;
    if (at >= replay.frames.length - 1) {
      setPlaying(false);
      return;
    }
    const gap = Math.min(2000, Math.max(0, (times[at + 1] ?? 0) - (times[at] ?? 0))) / speed;
    const timer = setTimeout(() => setAt((i) => i + 1), Math.max(16, gap));
    return () => clearTimeout(timer);
  }, [playing, at, replay, times, speed]);

  if (problem) {
    return (
      <section className="console-card">
        <button type="button" className="button button--quiet" onClick={onBack}>
          ← All sessions
        </button>
        <p className="banner" role="alert">
          {problem}
        </p>
      </section>
    );
  }
  if (!replay) return <p className="muted">Replaying {sessionId}…</p>;
  const frame = replay.frames[at];
  // The log keeps what the participant's page sent: a state the console cannot draw is said, not drawn.
  const shown = frame ? viewOf({ uiSpec: frame.uiSpec, messageHistory: frame.messages, toolSchema: [] }) : null;
  const unreadable = shown && 'problem' in shown ? shown.problem : null;
  const view = shown && !('problem' in shown) ? shown : null;
  const elapsed = (times[at] ?? 0) - (times[0] ?? 0);
  const last = at === replay.frames.length - 1;
  return (
    <section className="console-card replay" aria-label={`Replay of ${sessionId}`} data-testid="replay">
      <header className="watch__header">
        <div>
          <button type="button" className="button button--quiet button--small" onClick={onBack}>
            ← All sessions
          </button>
          <h2 className="watch__title mono">{sessionId}</h2>
        </div>
        <p
          className={`replay__check${replay.differences.length ? ' replay__check--bad' : ''}`}
          data-testid="replay-check"
        >
          {replay.differences.length === 0
            ? `Every state rebuilt from the log matches it (${replay.frames.length} records)`
            : `${replay.differences.length} logged states differ from the state rebuilt from the log`}
          {replay.unreadable.length > 0 && ` · ${replay.unreadable.length} unreadable lines`}
        </p>
      </header>
      <div className="replay__controls">
        <button type="button" className="button button--small" onClick={() => setPlaying((p) => !p)}>
          {playing ? 'Pause' : last ? 'Replay from the start' : 'Play'}
        </button>
        <input
          type="range"
          min={0}
          max={replay.frames.length - 1}
          value={at}
          onChange={(e) => {
            setPlaying(false);
            setAt(Number(e.target.value));
          }}
          aria-label="Moment of the session"
          data-testid="replay-scrub"
          onKeyDown={(e) => e.key === ' ' && setPlaying((p) => !p)}
        />
        <span className="mono replay__time">
          {formatSpan(elapsed)} · {at + 1}/{replay.frames.length}
        </span>
        <span className="replay__speeds">
          {SPEEDS.map((s) => (
            <button
              key={s}
              type="button"
              className={`button button--small${s === speed ? ' button--primary' : ''}`}
              onClick={() => setSpeed(s)}
              aria-pressed={s === speed}
            >
              {s}×
            </button>
          ))}
        </span>
      </div>
      {frame?.difference && (
        <p className="banner" role="alert" data-testid="replay-difference">
          At this moment the log does not explain the page: {frame.difference}
        </p>
      )}
      {unreadable && (
        <p className="banner" role="alert" data-testid="replay-unreadable">
          At this moment the log holds a state the console cannot show: {unreadable}
        </p>
      )}
      <div className="watch__body">
        <Scroller as="div" className="watch__page" label="The participant’s page">
          {view?.uiSpec ? (
            <StageView spec={view.uiSpec} tools={NO_TOOLS} act={() => false} refusal={null} embedded />
          ) : last && replay.final.submitted ? (
            <Confirmation booking={replay.final.submitted} embedded />
          ) : (
            <p className="muted">No booking stage is open at this moment.</p>
          )}
        </Scroller>
        <div className="watch__side">
          <section className="watch__chat" aria-label="Chat">
            <h3>Chat</h3>
            {view && view.messageHistory.length > 0 ? (
              <Scroller as="ol" className="chat__log watch__log" label="Messages">
                {view.messageHistory.map((m) => (
                  <ChatMessage key={m.id} entry={m} participantName="Participant" />
                ))}
              </Scroller>
            ) : (
              <p className="muted">No messages yet.</p>
            )}
          </section>
          <section className="agent-feed" aria-label="The log">
            <h3>The log</h3>
            <Scroller as="ol" className="agent-feed__list" label="Its records, newest first">
              {replay.frames
                .slice(Math.max(0, at - 40), at + 1)
                .reverse()
                .map((f) => (
                  <li
                    key={f.record.eventIndex}
                    className={`episode${f === frame ? ' episode--current' : ''}${f.difference ? ' episode--failed' : ''}`}
                  >
                    <span className="episode__time mono">#{f.record.eventIndex}</span>
                    <p>
                      <strong className="mono">{f.record.type}</strong>{' '}
                      <span className="muted">{f.record.peer ?? f.record.direction}</span> {describe(f.record.payload)}
                    </p>
                  </li>
                ))}
            </Scroller>
          </section>
        </div>
      </div>
    </section>
  );
}

/** A record's payload in a few words: the tool and its reason, a message's text. */
function describe(payload: Record<string, unknown>): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  if (payload.toolName)
    return `${text(payload.toolName)} ${JSON.stringify(payload.params ?? {})} ${text(payload.reason)}`;
  if (payload.text) return `“${text(payload.text)}”`;
  const action = payload.action as { toolName?: unknown } | undefined;
  if (payload.source) return `${text(payload.source)}${action ? `: ${text(action.toolName)}` : ''}`;
  if (payload.reason) return text(payload.reason);
  return '';
}
