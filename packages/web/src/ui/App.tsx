import type { HostStore } from '../bridge/host-store.ts';
import { useHost } from '../bridge/use-host.ts';

export function App({ store }: { store: HostStore; initialDevPanel: boolean }) {
  const host = useHost(store);
  return <pre>{JSON.stringify(host.view.uiSpec?.stage)}</pre>;
}
