import type { Connection } from '../bridge/host-store.ts';
import { ConnectionStatus } from './ConnectionStatus.tsx';
import { FilmIcon } from './icons.tsx';

interface Props {
  connection: Connection;
  study: string | null;
  participant: string | null;
}

/** The product's bar: name, the link's state, and the study ids (small, for the researcher). */
export function Header({ connection, study, participant }: Props) {
  const ids = [study && `Study ${study}`, participant && `Participant ${participant}`].filter(Boolean).join(' · ');
  return (
    <header className="topbar">
      <div className="topbar__inner">
        <p className="brand">
          <span className="brand__mark" aria-hidden="true">
            <FilmIcon size={18} />
          </span>
          Usher Cinemas
        </p>
        <div className="topbar__meta">
          {ids && <p className="topbar__ids">{ids}</p>}
          <ConnectionStatus state={connection} />
        </div>
      </div>
    </header>
  );
}
