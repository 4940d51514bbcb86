import { useSyncExternalStore } from 'react';
import type { HostSnapshot, HostStore } from './host-store.ts';

/** The host's current snapshot; re-renders on every change. */
export function useHost(store: HostStore): HostSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
