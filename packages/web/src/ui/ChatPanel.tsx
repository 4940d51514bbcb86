import type { ChatEntry } from '@usher/protocol';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { ChatComposer } from './ChatComposer.tsx';
import { ChatMessage } from './ChatMessage.tsx';
import { CloseIcon, SparkleIcon } from './icons.tsx';
import { containTab, useModal } from './use-modal.ts';
import { useOverflow } from './use-overflow.ts';
import './chat.css';

interface Props {
  messages: readonly ChatEntry[];
  onSend: (text: string) => void;
  notice: string | null;
  /** On a phone the chat is a drawer: whether it is open, and how to close it. */
  narrow: boolean;
  open: boolean;
  onClose: () => void;
  /** The agent is acting on the page (`agent.status`). */
  working?: boolean;
}

/**
 * The conversation with the assistant: newest at the bottom, announced politely, and a composer.
 * On a phone it is a sheet over the lower part of the page, a modal dialog while open: the page
 * stays in sight above it (the participant watches the agent act), but focus stays in the sheet
 * until it closes (Escape, its close button, or a tap above it).
 */
export function ChatPanel({ messages, onSend, notice, narrow, open, onClose, working = false }: Props) {
  const list = useRef<HTMLOListElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const shown = !narrow || open;
  const sheet = narrow && open;
  const panel = useRef<HTMLElement>(null);
  useModal(panel, sheet);
  const scrolls = useOverflow(list);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever a message arrives or the drawer opens
  useLayoutEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, shown]);

  useEffect(() => {
    if (narrow && open) input.current?.focus();
  }, [narrow, open]);

  return (
    <aside
      id="chat"
      ref={panel}
      className={`chat${narrow ? ' chat--drawer' : ''}${shown ? ' is-open' : ''}`}
      aria-label={sheet ? undefined : 'Chat with the assistant'}
      {...(sheet && { role: 'dialog', 'aria-modal': true, 'aria-labelledby': 'chat-title' })}
      onKeyDown={(e) => {
        if (narrow && e.key === 'Escape') onClose();
        if (sheet) containTab(e);
      }}
    >
      {/* Inside the dialog, so it is not made inert with the page: a tap above the sheet closes it. */}
      {sheet && <div className="chat-scrim" aria-hidden="true" onClick={onClose} />}
      <header className="chat__header">
        <span className="avatar avatar--large" aria-hidden="true">
          <SparkleIcon size={18} />
        </span>
        <div className="chat__heading">
          <h2 id="chat-title">Assistant</h2>
          {working ? (
            <p className="chat__working" role="status" data-testid="agent-working">
              <span className="chat__working-dot" aria-hidden="true" />
              Working on the page…
            </p>
          ) : (
            <p>Helps you book, and can act on this page</p>
          )}
        </div>
        {narrow && (
          <button type="button" className="icon-button" aria-label="Close chat" onClick={onClose}>
            <CloseIcon size={18} />
          </button>
        )}
      </header>
      <ol
        className="chat__messages"
        ref={list}
        aria-live="polite"
        aria-relevant="additions"
        aria-label="Messages"
        tabIndex={scrolls ? 0 : undefined}
      >
        {messages.length === 0 && (
          <li className="chat__empty">
            <p>
              Ask the assistant anything about your booking, for example <q>Find me a comedy this evening</q>.
            </p>
          </li>
        )}
        {messages.map((entry) => (
          <ChatMessage key={entry.id} entry={entry} />
        ))}
      </ol>
      <ChatComposer onSend={onSend} notice={notice} inputRef={input} />
    </aside>
  );
}
