import type { ConsoleConditionSummary, ConsoleStudy } from '@usher/protocol';
import { useEffect, useRef, useState } from 'react';
import { useOverflow } from '../ui/use-overflow.ts';
import type { ConsoleApi } from './console-api.ts';

/** How often the measures are fetched again while the console is open. */
const REFRESH_MS = 5000;

type Row = [label: string, hint: string, cell: (c: ConsoleConditionSummary) => string];

const dash = '—';
const pct = (v: number | null) => (v === null ? dash : `${Math.round(v * 100)}%`);
const secs = (v: number | null) => (v === null ? dash : v < 60 ? `${v.toFixed(1)} s` : `${(v / 60).toFixed(1)} min`);
const n = (v: number | null, digits = 0) => (v === null ? dash : v.toFixed(digits));

/** The measures shown, each as the export's `conditions` table defines it (docs/data-dictionary.md). */
const ROWS: Row[] = [
  ['Participants', 'with a task in the condition', (c) => String(c.participants)],
  ['Tasks started', '', (c) => String(c.tasksStarted)],
  ['Booking met the task', 'successes / tasks started', (c) => `${c.successes} · ${pct(c.successRate)}`],
  ['Time on task', 'mean', (c) => secs(c.meanTimeOnTaskS)],
  ['Time to the booking', 'mean', (c) => secs(c.meanTimeToBookingS)],
  ["Agent's share of actions", 'mean', (c) => pct(c.meanAgentShare)],
  ["Time to the agent's first action", 'mean', (c) => secs(c.meanTimeToAgentFirstActionS)],
  [
    'Interventions per task',
    'mean · tasks with one',
    (c) => `${n(c.meanInterventions, 2)} · ${n(c.tasksWithIntervention)}`,
  ],
  ['Time to the first intervention', 'mean', (c) => secs(c.meanTimeToFirstInterventionS)],
  ['Corrections in the chat', '', (c) => n(c.chatCorrections)],
  ["Agent's choices undone", '', (c) => n(c.undoneAgentSelections)],
  ['Pauses · take-overs', '', (c) => `${n(c.pauses)} · ${n(c.takeOvers)}`],
  ['Proposals rejected', '', (c) => n(c.rejectedProposals)],
  ['Questions the agent asked', '', (c) => n(c.agentQuestions)],
  [
    'Scripted mistakes caught · missed',
    'missed share: over-reliance',
    (c) =>
      c.mistakesCaught === null ? dash : `${c.mistakesCaught} · ${c.mistakesMissed ?? 0} (${pct(c.overReliance)})`,
  ],
  ['Correct choices overridden', 'under-reliance', (c) => n(c.overriddenCorrect)],
];

/**
 * The collaboration measures per condition, live: what the export's `conditions` table would
 * hold now (the server computes both with the same functions). A dash where the condition has
 * no such feature, or nothing to average yet.
 */
export function MeasuresPanel({ api, study }: { api: ConsoleApi; study: ConsoleStudy }) {
  const [conditions, setConditions] = useState<ConsoleConditionSummary[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // A table wider than the screen scrolls, and takes focus then so the keyboard can scroll it.
  const wrap = useRef<HTMLElement>(null);
  const scrolls = useOverflow(wrap);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      api.summary().then(
        (body) => {
          if (stopped) return;
          setConditions(body.conditions);
          setFailed(null);
        },
        (err: Error) => !stopped && setFailed(err.message),
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [api]);
  const label = (c: ConsoleConditionSummary) =>
    `${study.conditions.find((x) => x.id === c.conditionId)?.label ?? c.conditionId}${c.pilot ? ' (pilot)' : ''}`;
  return (
    <section className="console-card measures" aria-labelledby="measures-title">
      <header className="measures__head">
        <h2 id="measures-title">Collaboration measures</h2>
        <p className="muted">
          Per condition, live: the export's <code>conditions</code> table as the logs stand now. A dash: the condition
          has no such feature, or nothing to count yet.
        </p>
      </header>
      {failed && (
        <p className="measures__error" role="alert">
          The measures could not be loaded: {failed}
        </p>
      )}
      {conditions === null ? (
        <p className="measures__loading">Loading…</p>
      ) : conditions.length === 0 ? (
        <p className="measures__loading">No participant yet.</p>
      ) : (
        <section
          className="console-table-wrap"
          ref={wrap}
          aria-label="Collaboration measures per condition"
          tabIndex={scrolls ? 0 : undefined}
        >
          <table className="console-table measures__table" data-testid="measures">
            <thead>
              <tr>
                <th scope="col">Measure</th>
                {conditions.map((c) => (
                  <th scope="col" key={`${c.conditionId}${c.pilot}`}>
                    {label(c)} <span className="measures__agent">{c.agent}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ROWS.map(([name, hint, cell]) => (
                <tr key={name}>
                  <th scope="row">
                    {name}
                    {hint && <span className="measures__hint">{hint}</span>}
                  </th>
                  {conditions.map((c) => (
                    <td className="num" key={`${c.conditionId}${c.pilot}`}>
                      {cell(c)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
