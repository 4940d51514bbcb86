import type { ParticipantRow } from '@usher/protocol';
import { useRef } from 'react';
import { useOverflow } from '../ui/use-overflow.ts';

const STATUS: Record<ParticipantRow['status'], string> = {
  consent: 'Consent',
  briefing: 'Briefing',
  booking: 'On task',
  questionnaire: 'Questionnaire',
  done: 'Done',
  'gave-up': 'Gave up',
  dropped: 'Dropped',
};

/**
 * A participant on a task whose page is closed: they left (or lost the connection). Their task
 * stays open until the server's idle limit ends it, but the list says so at once.
 */
export const away = (row: ParticipantRow) => row.status === 'booking' && !row.online;

/** Where the page is, as the list and a watched room say it. */
export function stageOf(row: ParticipantRow): string {
  if (row.status !== 'booking') return '—';
  if (!row.online) return 'page closed';
  return row.stage ?? 'opening';
}

/** `12 min 5 s`, from milliseconds. */
export function formatSpan(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

interface Props {
  rows: ParticipantRow[];
  selected: string | null;
  onSelect: (room: string) => void;
}

/** Every participant of the study, newest first: condition, task, stage, time on task, status, the agent. */
export function ParticipantTable({ rows, selected, onSelect }: Props) {
  const wrap = useRef<HTMLElement>(null);
  const scrolls = useOverflow(wrap);
  if (rows.length === 0) {
    return (
      <section className="console-card console-empty">
        <h2>No participants yet</h2>
        <p className="muted">They appear here, live, as soon as they open the study link.</p>
      </section>
    );
  }
  return (
    // A table wider than the screen scrolls sideways, with the keyboard too.
    <section
      className="console-card console-table-wrap"
      aria-label="Participants"
      ref={wrap}
      tabIndex={scrolls ? 0 : undefined}
    >
      <table className="console-table" data-testid="participants">
        <thead>
          <tr>
            <th scope="col">Participant</th>
            <th scope="col">Condition</th>
            <th scope="col">Task</th>
            <th scope="col">Stage</th>
            <th scope="col">On task</th>
            <th scope="col">Status</th>
            <th scope="col">Agent</th>
            <th scope="col">
              <span className="sr-only">Watch</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {[...rows].reverse().map((row) => (
            <tr
              key={row.id}
              className={row.room === selected ? 'is-selected' : undefined}
              data-testid="participant-row"
              data-room={row.room}
            >
              <td>
                <span
                  className={`presence${row.online ? ' presence--on' : ''}`}
                  title={row.online ? 'page open' : 'page closed'}
                />
                <span className="mono">{row.externalId ?? row.id}</span>
              </td>
              <td>{row.condition?.label ?? '—'}</td>
              <td>
                {row.task ? (
                  <>
                    <span className="muted">
                      {row.taskIndex + 1}/{row.taskCount}
                    </span>{' '}
                    {row.task.title}
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td data-testid="participant-stage">{stageOf(row)}</td>
              <td className="num">{row.timeOnTaskMs === null ? '—' : formatSpan(row.timeOnTaskMs)}</td>
              <td>
                <span className={`pill pill--${away(row) ? 'away' : row.status}`} data-testid="participant-status">
                  {away(row) ? 'Left the page' : STATUS[row.status]}
                </span>
              </td>
              <td>
                <AgentCell row={row} />
              </td>
              <td>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => onSelect(row.room)}
                  disabled={row.status !== 'booking'}
                  aria-label={`Watch ${row.externalId ?? row.id}`}
                >
                  Watch
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Who acts as the agent in the room: the condition's agent, an experimenter, or nobody yet (a wizard condition waiting). */
function AgentCell({ row }: { row: ParticipantRow }) {
  if (row.condition?.agent === 'wizard' && row.status === 'booking') {
    return row.agentsInRoom > 0 ? (
      <span>Wizard</span>
    ) : (
      <span className="pill pill--waiting" data-testid="wizard-needed">
        Needs a wizard
      </span>
    );
  }
  if (row.agent === 'paused') return <span>Experimenter</span>;
  if (row.agent === 'running') return <span>{away(row) ? 'Waiting for the page' : 'Working'}</span>;
  return <span className="muted">—</span>;
}
