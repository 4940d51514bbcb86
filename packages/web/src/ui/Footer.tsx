import { CodeIcon } from './icons.tsx';

interface Props {
  room: string;
  study: string | null;
  participant: string | null;
  sessionId: string | null;
  devOpen: boolean;
  /** Null hides the switch (a participant's page in a study). */
  onToggleDev: (() => void) | null;
}

/** Ids for the researcher and the developer panel's switch. */
export function Footer({ room, study, participant, sessionId, devOpen, onToggleDev }: Props) {
  const ids = [
    `Room ${room}`,
    study && `Study ${study}`,
    participant && `Participant ${participant}`,
    sessionId && `Session ${sessionId}`,
  ];
  return (
    <footer className="footer">
      <p className="footer__ids">{ids.filter(Boolean).join(' · ')}</p>
      {onToggleDev && (
        <button
          type="button"
          className="button button--small button--quiet"
          data-testid="dev-toggle"
          aria-pressed={devOpen}
          aria-keyshortcuts="Control+Shift+D Meta+Shift+D `"
          title="Developer panel (Ctrl+Shift+D or `)"
          onClick={onToggleDev}
        >
          <CodeIcon size={14} />
          Developer panel
        </button>
      )}
    </footer>
  );
}
