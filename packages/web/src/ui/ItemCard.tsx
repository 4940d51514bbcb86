import type { ReactNode } from 'react';
import { AgentNote } from './AgentNote.tsx';
import { CheckIcon } from './icons.tsx';
import type { Decor, HighlightStyle } from './stage-props.ts';

export const HIGHLIGHT_LABELS: Record<HighlightStyle, string> = {
  recommended: 'Suggested',
  emphasis: 'Highlighted',
  warning: 'Check this',
  muted: 'Less relevant',
};

interface ItemCardProps {
  id: string;
  selected: boolean;
  disabled: boolean;
  decor: Decor;
  onSelect: () => void;
  /** Extra class on the card (the stage's variant). */
  className?: string;
  /** Spoken name of the button when its content alone reads badly. */
  label?: string;
  children: ReactNode;
}

/**
 * One selectable option as a card: a toggle button (`aria-pressed`) with the stage's content,
 * the agent's highlight as a labelled badge, and the agent's note under it, kept apart from the
 * catalog's own text.
 */
export function ItemCard({ id, selected, disabled, decor, onSelect, className, label, children }: ItemCardProps) {
  const highlight = decor.highlight.get(id);
  const note = decor.notes.get(id);
  const noteId = `note-${id}`;
  const classes = [
    'item',
    className,
    selected && 'is-selected',
    disabled && 'is-disabled',
    highlight && `hl-${highlight}`,
  ];
  return (
    <li className={classes.filter(Boolean).join(' ')}>
      <button
        type="button"
        className="item__button"
        data-testid={`item-${id}`}
        data-highlight={highlight}
        aria-pressed={selected}
        aria-label={label && highlight ? `${label} (${HIGHLIGHT_LABELS[highlight].toLowerCase()})` : label}
        aria-describedby={note ? noteId : undefined}
        disabled={disabled}
        onClick={onSelect}
      >
        {highlight && <span className="hl-badge">{HIGHLIGHT_LABELS[highlight]}</span>}
        {selected && (
          <span className="item__check" aria-hidden="true">
            <CheckIcon size={14} />
          </span>
        )}
        {children}
      </button>
      {note && <AgentNote id={noteId} itemId={id} text={note} />}
    </li>
  );
}
