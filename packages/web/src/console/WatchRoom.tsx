import type { AgentFeedEvent, ChatEntry, ConsoleEpisode, HostView, ParticipantRow } from '@usher/protocol';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ChatMessage } from '../ui/ChatMessage.tsx';
import { StageView } from '../ui/StageView.tsx';
import { AgentFeed } from './AgentFeed.tsx';
import type { ConsoleApi } from './console-api.ts';
import { formatSpan, stageOf } from './ParticipantTable.tsx';
import { RoomSocket, unshown, viewOf } from './room-socket.ts';
import { Scroller } from './Scroller.tsx';

interface Props {
  api: ConsoleApi;
  row: ParticipantRow;
  /** The live feed's events of this room's agent. */
  feed: AgentFeedEvent[];
  onClose: () => void;
}

const NO_TOOLS: ReadonlySet<string> = new Set();

/**
 * One room, watched live: the page as the participant sees it (rendered from the same uiSpec),
 * the chat, and the agent's side (what it understood, its plans, each action with its reason and
 * outcome). Watching is read-only; "Take over" pauses the agent and lets the experimenter act as
 * the agent through the relay (each action with a reason), until "Hand back".
 */
export function WatchRoom({ api, row, feed, onClose }: Props) {
  const [view, setView] = useState<HostView | null>(null);
  const [history, setHistory] = useState<ConsoleEpisode[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [wizard, setWizard] = useState<RoomSocket | null>(null);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);
  const observer = useRef<RoomSocket | null>(null);

  // What the room showed last, then every change as it happens (as an observer: nothing is sent).
  useEffect(() => {
    let live = true;
    api
      .room(row.room)
      .then((detail) => {
        if (!live) return;
        if (detail.state && observer.current?.view === null) {
          const shown = viewOf(detail.state);
          if ('problem' in shown) setProblem(unshown(shown.problem));
          else setView(shown);
        }
        setHistory(detail.episodes);
      })
      .catch((err: Error) => setProblem(err.message));
    const socket = new RoomSocket(
      api.relayUrl(),
      row.room,
      'observer',
      (s) => s.view && setView(s.view),
      (why) => setProblem(why),
    );
    observer.current = socket;
    return () => {
      live = false;
      socket.close();
    };
  }, [api, row.room]);

  // Closing the panel while stepped in hands the room back, so the participant is never left without an agent.
  const wizardRef = useRef<RoomSocket | null>(null);
  wizardRef.current = wizard;
  useEffect(
    () => () => {
      if (wizardRef.current) {
        wizardRef.current.close();
        void api.act(row.room, 'hand-back').catch(() => {});
      }
    },
    [api, row.room],
  );

  const episodes = useMemo(() => {
    const live = feed.flatMap((e) => (e.kind === 'episode' ? [e.episode] : []));
    const last = history.at(-1)?.seq ?? -1;
    return [...history, ...live.filter((e) => e.seq > last || history.length === 0)];
  }, [history, feed]);

  const takeOver = async (why: string) => {
    setBusy(true);
    try {
      await api.act(row.room, 'take-over', why);
      setWizard(new RoomSocket(api.relayUrl(), row.room, 'agent', (s) => s.view && setView(s.view), setProblem));
      setProblem(null);
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const handBack = async () => {
    wizard?.close();
    setWizard(null);
    try {
      await api.act(row.room, 'hand-back');
    } catch (err) {
      setProblem((err as Error).message);
    }
  };

  const endOrReset = async (what: 'end' | 'reset', why: string) => {
    try {
      await api.act(row.room, what, why);
      if (what === 'end') onClose();
    } catch (err) {
      setProblem((err as Error).message);
    }
  };

  const act = useCallback(
    (tool: string, params: Record<string, unknown> = {}) => {
      if (!wizard) return false;
      if (!reason.trim()) {
        setProblem('Write the reason for this action first: the participant’s page and the study log get it.');
        return false;
      }
      void wizard.call(tool, params, reason.trim()).then((answer) => {
        setProblem(answer.ok ? null : `The page refused ${tool}: ${answer.message}`);
      });
      return true;
    },
    [wizard, reason],
  );

  const say = (event: FormEvent) => {
    event.preventDefault();
    if (!wizard || !message.trim()) return;
    wizard.say(message.trim());
    setMessage('');
  };

  const tools = useMemo(
    () => (wizard && view ? new Set(view.toolSchema.map((t) => t.name)) : NO_TOOLS),
    [wizard, view],
  );

  return (
    <section
      className={`console-card watch${wizard ? ' watch--wizard' : ''}`}
      aria-label={`Room of ${row.externalId ?? row.id}`}
      data-testid="watch"
    >
      <header className="watch__header">
        <div>
          <p className="console-kicker">{wizard ? 'You are the agent' : 'Watching live · read-only'}</p>
          <h2 className="watch__title">
            <span className="mono">{row.externalId ?? row.id}</span> · {row.condition?.label ?? '—'} ·{' '}
            {row.task?.title ?? '—'}
          </h2>
          <p className="muted">
            Stage {stageOf(row)} · {row.timeOnTaskMs === null ? '' : `${formatSpan(row.timeOnTaskMs)} on task · `}
            {row.events} log records
          </p>
        </div>
        <div className="watch__actions">
          {wizard ? (
            <button type="button" className="button button--primary" onClick={handBack} data-testid="hand-back">
              Hand back to the agent
            </button>
          ) : (
            <button
              type="button"
              className="button button--primary"
              onClick={() => setAsking(ASK.takeOver)}
              disabled={busy || row.condition?.agent === 'none'}
              title={row.condition?.agent === 'none' ? 'This condition has no agent' : undefined}
              data-testid="take-over"
            >
              Take over as the agent…
            </button>
          )}
          <button type="button" className="button" onClick={() => setAsking(ASK.reset)}>
            Reset task…
          </button>
          <button type="button" className="button" onClick={() => setAsking(ASK.end)}>
            End…
          </button>
          <button type="button" className="button button--quiet" onClick={onClose} aria-label="Close the room">
            Close
          </button>
        </div>
      </header>
      {asking && (
        <ReasonForm
          asking={asking}
          onCancel={() => setAsking(null)}
          onConfirm={(why) => {
            setAsking(null);
            if (asking.what === 'take-over') void takeOver(why);
            else void endOrReset(asking.what, why);
          }}
        />
      )}
      {problem && (
        <p className="banner" role="alert">
          {problem}
        </p>
      )}
      {wizard && (
        <label className="wizard-reason">
          <span>Reason for your next action (the study log keeps it)</span>
          <input
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            placeholder="e.g. the participant asked for the 3D showing"
            data-testid="wizard-reason"
          />
        </label>
      )}
      <div className="watch__body">
        <Scroller as="div" className="watch__page" label="The participant’s page" testId="watch-page">
          {view?.uiSpec ? (
            <StageView spec={view.uiSpec} tools={tools} act={act} refusal={null} embedded />
          ) : (
            <p className="muted">
              {view ? 'No booking stage is open (booked, or not started).' : 'Waiting for the page…'}
            </p>
          )}
        </Scroller>
        <div className="watch__side">
          <section className="watch__chat" aria-label="Chat">
            <h3>Chat</h3>
            <Chat messages={view?.messageHistory ?? []} />
            {wizard && (
              <form className="wizard-say" onSubmit={say}>
                <input
                  value={message}
                  onChange={(e) => setMessage(e.target.value)}
                  maxLength={4000}
                  placeholder="Write to the participant as the assistant"
                  aria-label="Message to the participant"
                />
                <button type="submit" className="button button--primary button--small">
                  Send
                </button>
              </form>
            )}
          </section>
          <AgentFeed episodes={episodes} agent={row.agent} wizard={wizard !== null} />
        </div>
      </div>
    </section>
  );
}

interface Asking {
  what: 'take-over' | 'end' | 'reset';
  title: string;
  detail: string;
  confirm: string;
}

const ASK: Record<'takeOver' | 'end' | 'reset', Asking> = {
  takeOver: {
    what: 'take-over',
    title: 'Take over from the agent',
    detail: 'The agent pauses; you act as the agent (chat and page tools) until you hand back.',
    confirm: 'Take over',
  },
  reset: {
    what: 'reset',
    title: 'Reset this task',
    detail: 'Its session closes; the participant starts the task again from its briefing.',
    confirm: 'Reset the task',
  },
  end: {
    what: 'end',
    title: 'End this participant’s study',
    detail: 'Their task closes and their page says the study has ended. This cannot be undone.',
    confirm: 'End the study',
  },
};

/** Asks why before an experimenter changes a room: the study log keeps the reason. */
function ReasonForm({
  asking,
  onCancel,
  onConfirm,
}: {
  asking: Asking;
  onCancel: () => void;
  onConfirm: (why: string) => void;
}) {
  const [why, setWhy] = useState('');
  return (
    <form
      className="reason-form"
      aria-label={asking.title}
      onSubmit={(e) => {
        e.preventDefault();
        if (why.trim()) onConfirm(why.trim());
      }}
    >
      <h3>{asking.title}</h3>
      <p className="muted">{asking.detail}</p>
      <label>
        <span>Why? (kept in the study log)</span>
        <input
          // biome-ignore lint/a11y/noAutofocus: the form opens because the experimenter asked for it; the reason is what it needs
          autoFocus
          value={why}
          onChange={(e) => setWhy(e.target.value)}
          maxLength={500}
          data-testid="reason"
        />
      </label>
      <div className="reason-form__actions">
        <button type="button" className="button button--quiet" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={!why.trim()} data-testid="reason-confirm">
          {asking.confirm}
        </button>
      </div>
    </form>
  );
}

function Chat({ messages }: { messages: ChatEntry[] }) {
  const end = useRef<HTMLLIElement>(null);
  // Braces: scrollIntoView returns a promise in newer browsers, and an effect may return only its cleanup.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a message arrives, by design
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [messages.length]);
  if (messages.length === 0) return <p className="muted">No messages yet.</p>;
  return (
    <Scroller as="ol" className="chat__log watch__log" label="Messages">
      {messages.map((m) => (
        <ChatMessage key={m.id} entry={m} participantName="Participant" />
      ))}
      <li ref={end} aria-hidden="true" />
    </Scroller>
  );
}
