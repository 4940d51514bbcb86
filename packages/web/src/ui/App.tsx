// The base styles first, so that each component's own stylesheet, bundled after them, can refine them.
import './styles.css';
import './layout.css';
import './cards.css';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { HostSnapshot, HostStore } from '../bridge/host-store.ts';
import { useHost } from '../bridge/use-host.ts';
import { Breadcrumb } from './Breadcrumb.tsx';
import { ChatLauncher } from './ChatLauncher.tsx';
import { ChatPanel } from './ChatPanel.tsx';
import { Confirmation } from './Confirmation.tsx';
import { DevPanel } from './DevPanel.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { StageView } from './StageView.tsx';
import { useDevShortcut } from './use-dev-shortcut.ts';
import { useMediaQuery } from './use-media.ts';

const CHAT_NOTICES: Record<HostSnapshot['connection'], string | null> = {
  connecting: null,
  open: null,
  reconnecting: 'Offline: your messages are sent once the connection is back.',
  replaced: 'Another window has taken over this booking; reload this page to chat from here.',
};

/** Below this width the chat becomes a drawer (keep in step with the layout in styles.css). */
const NARROW = '(max-width: 959px)';

export interface AppProps {
  store: HostStore;
  initialDevPanel: boolean;
  /** In a study: the task bar above the booking; the developer panel is then never reachable. */
  task?: ReactNode;
  /** Whether the page shows the chat (a study's condition may turn it off). */
  chat?: boolean;
  /** What the booked card says comes next (in a study: how to go on). */
  afterBooking?: string;
}

/** The participant's page: the booking beside the chat with the assistant, and a developer panel on demand. */
export function App({ store, initialDevPanel, task, chat = true, afterBooking }: AppProps) {
  const host = useHost(store);
  const { uiSpec, messageHistory, toolSchema } = host.view;
  const developer = task === undefined;
  const [devOpen, setDevOpen] = useState(initialDevPanel && developer);
  const toggleDev = useCallback(() => setDevOpen((open) => developer && !open), [developer]);
  useDevShortcut(toggleDev);

  const narrow = useMediaQuery(NARROW);
  const [chatOpen, setChatOpen] = useState(false);
  const [chatClosedByUser, setChatClosedByUser] = useState(false);
  const agentMessages = messageHistory.filter((m) => m.role === 'agent');
  const [seen, setSeen] = useState(agentMessages.length);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const chatVisible = chat && (!narrow || chatOpen);
  useEffect(() => {
    if (chatVisible) setSeen(agentMessages.length);
  }, [chatVisible, agentMessages.length]);
  const unread = Math.max(0, agentMessages.length - seen);
  const newest = agentMessages.at(-1) ?? null;
  const preview = unread > 0 && newest && newest.id !== dismissed ? newest : null;

  const tools = useMemo(() => new Set(toolSchema.map((t) => t.name)), [toolSchema]);
  const act = useCallback((tool: string, params?: Record<string, unknown>) => store.act(tool, params), [store]);
  const say = useCallback((text: string) => store.say(text), [store]);

  return (
    <div className={`app${devOpen ? ' app--dev' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to the booking
      </a>
      {/* A participant in a study sees no ids: they are the researcher's, and some say which condition. */}
      <Header
        connection={host.connection}
        study={developer ? host.study : null}
        participant={developer ? host.participant : null}
      />
      <div className={`layout${chat ? '' : ' layout--solo'}`}>
        <main id="main" className="booking" tabIndex={-1}>
          {task}
          {host.connection === 'replaced' && (
            <p className="banner" role="alert">
              This booking is now open in another window, which has taken over. Reload this page to continue here
              instead.
            </p>
          )}
          {uiSpec && <Breadcrumb booking={uiSpec.state.booking} />}
          {uiSpec ? (
            <StageView spec={uiSpec} tools={tools} act={act} refusal={host.refusal} />
          ) : host.submitted ? (
            <Confirmation booking={host.submitted} {...(afterBooking && { next: afterBooking })} />
          ) : (
            <section className="waiting" aria-live="polite">
              <h1>Getting your booking ready…</h1>
              <p className="muted">This takes a moment. The page fills in as soon as the booking opens.</p>
            </section>
          )}
        </main>
        {chat && (
          <ChatPanel
            working={host.agentWorking}
            messages={messageHistory}
            onSend={say}
            notice={CHAT_NOTICES[host.connection]}
            narrow={narrow}
            open={chatOpen}
            onClose={() => {
              setChatOpen(false);
              setChatClosedByUser(true);
            }}
          />
        )}
      </div>
      {chat && narrow && !chatOpen && (
        <ChatLauncher
          unread={unread}
          latest={preview}
          onOpen={() => {
            setChatOpen(true);
            setChatClosedByUser(false);
          }}
          onDismiss={() => setDismissed(newest?.id ?? null)}
          autoFocus={chatClosedByUser}
        />
      )}
      {developer && (
        <Footer
          room={host.room}
          study={host.study}
          participant={host.participant}
          sessionId={host.sessionId}
          devOpen={devOpen}
          onToggleDev={toggleDev}
        />
      )}
      {devOpen && <DevPanel host={host} onClose={() => setDevOpen(false)} />}
    </div>
  );
}
