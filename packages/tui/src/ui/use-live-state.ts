import { useRef, useState } from 'react';

/**
 * `useState` whose latest value key handlers read at once. Ink re-subscribes a component's
 * `useInput` handler only after React's passive effects run, so keys that arrive in between
 * (a paste followed by Enter, keys sent faster than a render) reach the handler of the previous
 * render; reading the ref instead of the rendered value loses nothing.
 */
export function useLiveState<T>(initial: T): [T, (next: T | ((previous: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const live = useRef(initial);
  const set = (next: T | ((previous: T) => T)) => {
    live.current = typeof next === 'function' ? (next as (previous: T) => T)(live.current) : next;
    setValue(live.current);
  };
  return [value, set, live];
}
