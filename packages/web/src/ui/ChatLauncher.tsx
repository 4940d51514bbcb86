import type { ChatEntry } from '@usher/protocol';
import { useEffect, useRef } from 'react';
import { ChatIcon, CloseIcon, SparkleIcon } from './icons.tsx';

interface Props {
  unread: number;
  /** The newest agent message the participant has not seen, shown as a preview. */
  latest: ChatEntry | null;
  onOpen: () => void;
  onDismiss: () => void;
  /** Take focus when shown (the drawer was just closed, so focus returns here). */
  autoFocus: boolean;
}

/**
 * On a phone, while the chat drawer is closed: a chat button with the unread count, and a preview
 * of the assistant's newest message (the live region that announces it).
 */
export function ChatLauncher({ unread, latest, onOpen, onDismiss, autoFocus }: Props) {
  const fab = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (autoFocus) fab.current?.focus();
  }, [autoFocus]);
  return (
    <div className="chat-launcher">
      <div className="chat-launcher__live" aria-live="polite">
        {latest && (
          <div className="chat-peek">
            <button type="button" className="chat-peek__open" onClick={onOpen}>
              <span className="avatar" aria-hidden="true">
                <SparkleIcon size={14} />
              </span>
              <span className="chat-peek__text">
                <span className="chat-peek__who">Assistant</span>
                {latest.text}
              </span>
            </button>
            <button type="button" className="icon-button" aria-label="Dismiss preview" onClick={onDismiss}>
              <CloseIcon size={14} />
            </button>
          </div>
        )}
      </div>
      <button
        ref={fab}
        type="button"
        className="chat-fab"
        aria-label={unread > 0 ? `Open chat, ${unread} new` : 'Open chat'}
        aria-controls="chat"
        aria-expanded={false}
        data-testid="chat-toggle"
        onClick={onOpen}
      >
        <ChatIcon size={22} />
        {unread > 0 && (
          <span className="chat-fab__badge" aria-hidden="true">
            {unread}
          </span>
        )}
      </button>
    </div>
  );
}
