import type { ReactNode } from 'react';
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
        <Brand>Usher Cinemas</Brand>
        <div className="topbar__meta">
          {ids && <p className="topbar__ids">{ids}</p>}
          <ConnectionStatus state={connection} />
        </div>
      </div>
    </header>
  );
}

/** The product's mark and a name beside it (the booking site's, or a study's title). */
export function Brand({ children }: { children: ReactNode }) {
  return (
    <p className="brand">
      <span className="brand__mark" aria-hidden="true">
        <FilmIcon size={18} />
      </span>
      {children}
    </p>
  );
}
