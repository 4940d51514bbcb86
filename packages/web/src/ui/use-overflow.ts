import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Whether the element's content is larger than its box (it scrolls), followed as either changes
 * size and whichever element the ref holds now. A region that scrolls takes focus then
 * (`tabIndex={0}`), so the keyboard can scroll it too; one that does not is no stop in the tab order.
 */
export function useOverflow(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  const watched = useRef<{ el: HTMLElement; stop: () => void } | null>(null);
  // After every render: the ref may hold another element (or none) than the last time.
  useLayoutEffect(() => {
    const el = ref.current;
    if (watched.current?.el === el) return;
    watched.current?.stop();
    watched.current = null;
    if (!el) {
      setOverflows(false);
      return;
    }
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    measure();
    const sizes = new ResizeObserver(measure);
    sizes.observe(el);
    // The content grows without the box changing size (a new message, a new crumb).
    const content = new MutationObserver(measure);
    content.observe(el, { childList: true, subtree: true, characterData: true });
    watched.current = {
      el,
      stop: () => {
        sizes.disconnect();
        content.disconnect();
      },
    };
  });
  useEffect(() => () => watched.current?.stop(), []);
  return overflows;
}
