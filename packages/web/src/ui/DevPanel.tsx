import { type KeyboardEvent, useState } from 'react';
import type { HostSnapshot } from '../bridge/host-store.ts';
import { DevFrames } from './DevFrames.tsx';
import { CloseIcon } from './icons.tsx';
import './dev.css';

const TABS = ['uiSpec', 'toolSchema', 'backendData', 'frames'] as const;
type Tab = (typeof TABS)[number];

/** For researchers and developers: the live uiSpec, toolSchema, backendData and protocol frames. */
export function DevPanel({ host, onClose }: { host: HostSnapshot; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('uiSpec');
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length] ?? 'uiSpec';
    setTab(next);
    document.getElementById(`dev-tab-${next}`)?.focus();
  };
  const label = (t: Tab) => (t === 'frames' ? `Frames (${host.frames.length})` : t);
  return (
    <section className="dev" data-testid="dev-panel" aria-label="Developer panel">
      <div className="dev__bar">
        <h2 className="dev__title">Developer</h2>
        <div className="dev__tabs" role="tablist" aria-label="Developer views" onKeyDown={onTabKey}>
          {TABS.map((t) => (
            <button
              key={t}
              id={`dev-tab-${t}`}
              type="button"
              role="tab"
              aria-selected={tab === t}
              aria-controls="dev-tabpanel"
              tabIndex={tab === t ? 0 : -1}
              className="dev__tab"
              data-testid={`dev-tab-${t}`}
              onClick={() => setTab(t)}
            >
              {label(t)}
            </button>
          ))}
        </div>
        <p className="dev__ids">
          room {host.room} · session {host.sessionId ?? '—'} · stage {host.view.uiSpec?.stage ?? '—'}
        </p>
        <button
          type="button"
          className="icon-button icon-button--dark"
          aria-label="Close developer panel"
          onClick={onClose}
        >
          <CloseIcon size={16} />
        </button>
      </div>
      <div id="dev-tabpanel" className="dev__body" role="tabpanel" aria-labelledby={`dev-tab-${tab}`}>
        {tab === 'frames' ? (
          <DevFrames frames={host.frames} />
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the JSON scrolls, so the keyboard needs to reach it
          <pre className="dev__json" tabIndex={0}>
            {JSON.stringify(
              tab === 'uiSpec' ? host.view.uiSpec : tab === 'toolSchema' ? host.view.toolSchema : host.backendData,
              null,
              2,
            )}
          </pre>
        )}
      </div>
    </section>
  );
}
