import { type ReactNode, useRef } from 'react';
import { useOverflow } from '../ui/use-overflow.ts';

interface Props {
  /** `div` for a box (the page shown), `ol` for a list (a chat, a feed, a log). */
  as: 'div' | 'ol';
  className: string;
  /** Its name, as a screen reader says it when the box takes focus. */
  label: string;
  children: ReactNode;
  testId?: string;
}

/**
 * A box of the console that scrolls on its own (a page shown, a chat, a feed): while its content
 * overflows it is a named region in the tab order, so the keyboard can scroll it too.
 */
export function Scroller({ as: Tag, className, label, children, testId }: Props) {
  const ref = useRef<HTMLDivElement & HTMLOListElement>(null);
  const scrolls = useOverflow(ref);
  return (
    <Tag
      ref={ref}
      className={className}
      // A list keeps its own role; a box becomes a region while it can be focused.
      role={Tag === 'div' && scrolls ? 'region' : undefined}
      aria-label={label}
      tabIndex={scrolls ? 0 : undefined}
      data-testid={testId}
    >
      {children}
    </Tag>
  );
}
