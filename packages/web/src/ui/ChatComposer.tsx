import { type FormEvent, type KeyboardEvent, type Ref, useState } from 'react';
import { SendIcon } from './icons.tsx';

interface Props {
  onSend: (text: string) => void;
  /** Why messages cannot go out right now (they wait, or this window lost the room), if so. */
  notice: string | null;
  inputRef?: Ref<HTMLTextAreaElement>;
}

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function ChatComposer({ onSend, notice, inputRef }: Props) {
  const [draft, setDraft] = useState('');
  const empty = draft.trim() === '';
  const send = () => {
    if (empty) return;
    onSend(draft);
    setDraft('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form className="composer" onSubmit={onSubmit}>
      {notice && <p className="composer__offline">{notice}</p>}
      <div className="composer__row">
        <label htmlFor="chat-input" className="sr-only">
          Message the assistant
        </label>
        <textarea
          id="chat-input"
          ref={inputRef}
          className="composer__input"
          data-testid="chat-input"
          rows={1}
          placeholder="Message the assistant…"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby="chat-input-hint"
        />
        <button type="submit" className="composer__send" data-testid="chat-send" disabled={empty} aria-label="Send">
          <SendIcon size={18} />
        </button>
      </div>
      <p id="chat-input-hint" className="composer__hint">
        Enter to send · Shift+Enter for a new line
      </p>
    </form>
  );
}
