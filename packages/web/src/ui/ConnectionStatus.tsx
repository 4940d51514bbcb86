import type { Connection } from '../bridge/host-store.ts';

const LABELS: Record<Connection, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Reconnecting…',
  replaced: 'Open in another window',
};

/** A quiet dot and word for the link to the study server. */
export function ConnectionStatus({ state }: { state: Connection }) {
  return (
    <p className={`connection connection--${state}`} data-testid="connection" data-state={state} role="status">
      <span className="connection__dot" aria-hidden="true" />
      <span className="connection__label">{LABELS[state]}</span>
    </p>
  );
}
