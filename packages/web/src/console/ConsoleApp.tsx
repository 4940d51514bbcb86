import type { AgentFeedEvent, ConsoleStudy, ParticipantRow } from '@usher/protocol';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Brand } from '../ui/Header.tsx';
import type { ConsoleApi } from './console-api.ts';
import { ExportButton } from './ExportButton.tsx';
import { MeasuresPanel } from './MeasuresPanel.tsx';
import { ParticipantTable } from './ParticipantTable.tsx';

/** A participant's page (the booking stages) comes with the first room watched or the replay, never with the list. */
const WatchRoom = lazy(() => import('./WatchRoom.tsx').then((module) => ({ default: module.WatchRoom })));
const ReplayPanel = lazy(() => import('./ReplayPanel.tsx').then((module) => ({ default: module.ReplayPanel })));
const loading = (
  <p className="console-loading" role="status">
    Loading…
  </p>
);

interface Props {
  api: ConsoleApi;
  study: ConsoleStudy;
  initial: ParticipantRow[];
}

type Tab = 'participants' | 'replay';

/** The experimenter's console: participants live (and one room watched), or a session replayed. */
export function ConsoleApp({ api, study, initial }: Props) {
  const [rows, setRows] = useState(initial);
  // Time on task goes on between updates: counted from when the list arrived, by this page's clock.
  const [receivedAt, setReceivedAt] = useState(() => performance.now());
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const [live, setLive] = useState(false);
  const [tab, setTab] = useState<Tab>('participants');
  const [watching, setWatching] = useState<string | null>(null);
  const [feed, setFeed] = useState<AgentFeedEvent[]>([]);

  useEffect(
    () =>
      api.stream({
        participants: (next) => {
          setRows(next);
          setReceivedAt(performance.now());
        },
        connection: setLive,
        // Only the watched room's agent is shown; the rest is not kept.
        agent: (event) => setFeed((all) => [...all.slice(-499), event]),
      }),
    [api],
  );

  const ticking = useMemo(
    () =>
      rows.map((r) =>
        r.timeOnTaskMs === null ? r : { ...r, timeOnTaskMs: r.timeOnTaskMs + Math.max(0, now - receivedAt) },
      ),
    [rows, now, receivedAt],
  );
  const watched = useMemo(() => ticking.find((r) => r.room === watching) ?? null, [ticking, watching]);

  return (
    <div className="console">
      <header className="topbar">
        <div className="topbar__inner">
          <Brand>Usher Console</Brand>
          <div className="topbar__meta">
            <p className="topbar__ids">
              {study.title} · {study.id}
            </p>
            <p className={`connection connection--${live ? 'open' : 'reconnecting'}`} data-testid="console-live">
              <span className="connection__dot" aria-hidden="true" />
              {live ? 'Live' : 'Reconnecting…'}
            </p>
          </div>
        </div>
      </header>
      <nav className="console-tabs" aria-label="Console">
        <div className="console-tabs__inner">
          <button
            type="button"
            className="console-tab"
            aria-current={tab === 'participants' ? 'page' : undefined}
            onClick={() => setTab('participants')}
          >
            Participants <span className="console-tab__count">{rows.length}</span>
          </button>
          <button
            type="button"
            className="console-tab"
            aria-current={tab === 'replay' ? 'page' : undefined}
            onClick={() => setTab('replay')}
          >
            Replay
          </button>
          <ExportButton api={api} studyId={study.id} />
        </div>
      </nav>
      <main className="console-main">
        <h1 className="sr-only">{tab === 'participants' ? 'Participants' : 'Replay'}</h1>
        {tab === 'participants' && (
          <>
            <Summary rows={rows} study={study} />
            <MeasuresPanel api={api} study={study} />
            <div className={`console-split${watched ? ' console-split--open' : ''}`}>
              <ParticipantTable rows={ticking} selected={watching} onSelect={setWatching} />
              {watched && (
                <Suspense fallback={loading}>
                  <WatchRoom
                    // Each task of the room is watched afresh: nothing of the last one's page or agent stays.
                    key={`${watched.room}:${watched.taskIndex}:${watched.sessionId ?? ''}`}
                    api={api}
                    row={watched}
                    feed={sinceStarted(feed, watched.room)}
                    onClose={() => setWatching(null)}
                  />
                </Suspense>
              )}
            </div>
          </>
        )}
        {tab === 'replay' && (
          <Suspense fallback={loading}>
            <ReplayPanel api={api} study={study} participants={rows} />
          </Suspense>
        )}
      </main>
    </div>
  );
}

/** A room's agent events since its agent last started (the current task's agent), oldest first. */
function sinceStarted(feed: AgentFeedEvent[], room: string): AgentFeedEvent[] {
  const ofRoom = feed.filter((e) => e.room === room);
  const start = ofRoom.findLastIndex((e) => e.kind === 'started');
  return start < 0 ? ofRoom : ofRoom.slice(start);
}

/** Participants per condition and where they are: the study at a glance. */
function Summary({ rows, study }: { rows: ParticipantRow[]; study: ConsoleStudy }) {
  const count = (pred: (r: ParticipantRow) => boolean) => rows.filter(pred).length;
  return (
    <section className="console-summary" aria-label="The study at a glance">
      <div className="stat">
        <p className="stat__value" data-testid="stat-booking">
          {count((r) => r.status === 'booking')}
        </p>
        <p className="stat__label">on a task now</p>
      </div>
      <div className="stat">
        <p className="stat__value">{count((r) => r.status === 'done')}</p>
        <p className="stat__label">finished</p>
      </div>
      <div className="stat">
        <p className="stat__value">{count((r) => r.status === 'dropped' || r.status === 'gave-up')}</p>
        <p className="stat__label">dropped or gave up</p>
      </div>
      {study.conditions.map((c) => (
        <div className="stat stat--condition" key={c.id}>
          <p className="stat__value">{count((r) => r.condition?.id === c.id)}</p>
          <p className="stat__label">
            {c.label} <span className="muted">({c.agent})</span>
          </p>
        </div>
      ))}
    </section>
  );
}
