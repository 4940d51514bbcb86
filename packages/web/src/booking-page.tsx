import { parseScenario } from '@usher/booking';
import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { HostStore } from './bridge/host-store.ts';
import type { PageParams } from './bridge/page-params.ts';
import { App } from './ui/App.tsx';

/** The bare booking page (outside a study): the room's host, from the scenario the server sent. */
export function startBookingPage(root: Root, params: PageParams, world: unknown): void {
  const scenario = parseScenario(world, 'the server scenario');
  // One store per page, made outside React: StrictMode's double mount subscribes twice but connects once.
  const store = new HostStore({
    relayUrl: location.origin.replace(/^http/, 'ws'),
    room: params.room,
    study: params.study,
    participant: params.participant,
    token: params.token,
    scenario,
    storage: window.localStorage,
  });
  store.connect();
  addEventListener('pagehide', () => store.dispose());
  root.render(
    <StrictMode>
      <App store={store} initialDevPanel={params.dev} />
    </StrictMode>,
  );
}
