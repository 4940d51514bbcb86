import type { ConsoleEpisode } from '@usher/protocol';
import { Scroller } from './Scroller.tsx';

interface Props {
  episodes: ConsoleEpisode[];
  agent: 'running' | 'paused' | 'none';
  wizard: boolean;
}

const time = (iso: string) => iso.slice(11, 19);

/** The agent's side of a room as it works: what it understood, its plans, each action with its reason and what came of it. */
export function AgentFeed({ episodes, agent, wizard }: Props) {
  const state = wizard
    ? 'paused: you are the agent'
    : agent === 'running'
      ? 'working'
      : agent === 'paused'
        ? 'paused'
        : 'none in this room';
  return (
    <section className="agent-feed" aria-label="The agent" data-testid="agent-feed">
      <h3>
        The agent <span className="muted">· {state}</span>
      </h3>
      {episodes.length === 0 ? (
        <p className="muted">Nothing yet: its plans and actions appear here as it works.</p>
      ) : (
        <Scroller as="ol" className="agent-feed__list" label="Its plans and actions, newest first">
          {[...episodes]
            .reverse()
            .slice(0, 200)
            .map((e) => (
              <li
                key={`${e.timestamp}-${e.seq}`}
                className={`episode episode--${e.kind}${e.ok === false ? ' episode--failed' : ''}`}
              >
                <span className="episode__time mono">{time(e.timestamp)}</span>
                <Episode e={e} />
              </li>
            ))}
        </Scroller>
      )}
    </section>
  );
}

function Episode({ e }: { e: ConsoleEpisode }) {
  switch (e.kind) {
    case 'plan':
      return (
        <p>
          <strong>Plan:</strong> {e.goal}
          {e.remainingSteps && e.remainingSteps.length > 0 && (
            <span className="muted"> — then {e.remainingSteps.join(' → ')}</span>
          )}
        </p>
      );
    case 'action': {
      const tool = e.type === 'tool.call' ? String(e.payload?.toolName ?? '') : e.type;
      const params = e.type === 'tool.call' ? JSON.stringify(e.payload?.params ?? {}) : '';
      return (
        <p>
          <strong className="mono">
            {tool}
            {params !== '{}' && params}
          </strong>{' '}
          <span className="episode__reason">{e.reason}</span>
        </p>
      );
    }
    case 'outcome':
      return (
        <p>
          {e.ok ? 'Done' : `Failed${e.code ? ` (${e.code})` : ''}`}
          {e.detail && <span className="muted"> — {e.detail}</span>}
        </p>
      );
    case 'note':
      return <p className="episode__note">{e.text}</p>;
  }
}
