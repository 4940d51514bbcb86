import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readPageParams } from './bridge/page-params.ts';
import { FlowRequestError, ParticipantApi } from './study/participant-api.ts';
import { loadTaskRun, StudyFlow } from './study/StudyFlow.tsx';
import './ui/styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);

const linkDoesNotWork = () =>
  new PageError(
    'This study link does not work',
    'It may be incomplete or expired. Open the link you were given again, or ask the researcher for a new one.',
  );

/** A failure to start that a participant can act on, with its own heading. */
class PageError extends Error {
  constructor(
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}

async function start(): Promise<void> {
  const params = readPageParams(location.search);
  // A study's participant: the flow (consent, briefing, tasks, end) instead of the bare booking page.
  if (params.study && params.participant) {
    const api = new ParticipantApi(params.room, params.token);
    let view: Awaited<ReturnType<ParticipantApi['view']>>;
    try {
      view = await api.view();
    } catch (err) {
      if (err instanceof FlowRequestError && (err.status === 401 || err.status === 403)) throw linkDoesNotWork();
      throw err;
    }
    if (view) {
      // Opened on a task: its booking page comes before the page first shows.
      if (view.status === 'task') await loadTaskRun();
      root.render(
        <StrictMode>
          <StudyFlow api={api} initial={view} room={params.room} token={params.token} />
        </StrictMode>,
      );
      return;
    }
  }
  // The bare booking page (no study): its code comes with it, never with a study's own pages.
  const [response, { startBookingPage }] = await Promise.all([
    fetch('/api/scenario', { headers: params.token ? { Authorization: `Bearer ${params.token}` } : {} }),
    import('./booking-page.tsx'),
  ]);
  if (response.status === 401 || response.status === 403) throw linkDoesNotWork();
  if (!response.ok) throw new Error(`the server did not send its scenario (HTTP ${response.status})`);
  startBookingPage(root, params, await response.json());
}

start().catch((err: unknown) => {
  root.render(
    <main className="fatal" role="alert">
      <h1>{err instanceof PageError ? err.title : 'The booking page could not start'}</h1>
      <p>{err instanceof Error ? err.message : String(err)}</p>
    </main>,
  );
});
