import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './ConsoleApp.tsx';
import { ConsoleApi, ConsoleRequestError } from './console-api.ts';
import '../ui/styles.css';
import '../ui/layout.css';
import '../ui/cards.css';
import '../ui/chat.css';
import './console.css';

const root = createRoot(document.getElementById('root') as HTMLElement);

/**
 * The experimenter's console (`/console?token=…`). The credential is taken out of the address
 * bar at once (kept for this tab only), so it is not left in the history or on a screenshot.
 */
function credential(): string | null {
  const url = new URL(location.href);
  const given = url.searchParams.get('token');
  if (given !== null) {
    url.searchParams.delete('token');
    history.replaceState(null, '', url);
    if (/^[\w.-]{1,2048}$/.test(given)) sessionStorage.setItem('usher.console.token', given);
  }
  return sessionStorage.getItem('usher.console.token');
}

async function start(): Promise<void> {
  const api = new ConsoleApi(credential());
  const initial = await api.study();
  root.render(
    <StrictMode>
      <ConsoleApp api={api} study={initial.study} initial={initial.participants} />
    </StrictMode>,
  );
}

start().catch((err: unknown) => {
  const denied = err instanceof ConsoleRequestError && (err.status === 401 || err.status === 403);
  const notStudy = err instanceof ConsoleRequestError && err.status === 404;
  root.render(
    <main className="fatal" role="alert">
      <h1>{denied ? 'This console needs an experimenter’s credential' : 'The console could not start'}</h1>
      <p>
        {denied
          ? 'Open the console link that `usher serve` printed, or make one with `usher token experimenter`.'
          : notStudy
            ? 'This server runs no study: start it with `usher serve --study FILE`.'
            : err instanceof Error
              ? err.message
              : String(err)}
      </p>
    </main>,
  );
});
