import { useEffect } from 'react';

/** Whether a key press lands in something the participant types into. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && (target as HTMLInputElement).type !== 'button');
}

/**
 * Toggles the developer panel: Ctrl+Shift+D (⌘⇧D on a Mac) anywhere, or the backtick key when
 * focus is not in a text field.
 */
export function useDevShortcut(toggle: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const combo = (event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'd';
      const backtick =
        event.key === '`' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTypingTarget(event.target);
      if (!combo && !backtick) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
}
