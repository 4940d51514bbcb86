import type { ChatEntry } from '@usher/protocol';
import { formatTimeOfDay } from './format.ts';
import { InfoIcon, SparkleIcon } from './icons.tsx';

const WHO: Record<ChatEntry['role'], string> = { participant: 'You', agent: 'Assistant', system: 'Booking system' };

/** One chat entry: the participant on the right, the assistant on the left with its avatar, system notes centred. */
export function ChatMessage({ entry, participantName }: { entry: ChatEntry; participantName?: string }) {
  const time = formatTimeOfDay(entry.timestamp);
  if (entry.role === 'system') {
    return (
      <li className="msg msg--system" data-testid="chat-message" data-role="system">
        <InfoIcon size={14} className="msg__icon" />
        <p>
          <span className="sr-only">{WHO.system}: </span>
          {entry.text}
        </p>
      </li>
    );
  }
  return (
    <li className={`msg msg--${entry.role}`} data-testid="chat-message" data-role={entry.role}>
      {entry.role === 'agent' && (
        <span className="avatar" aria-hidden="true">
          <SparkleIcon size={16} />
        </span>
      )}
      <div className="msg__body">
        <p className="msg__meta">
          <span className="msg__who">
            {entry.role === 'participant' && participantName ? participantName : WHO[entry.role]}
          </span>
          {time && (
            <time dateTime={entry.timestamp} className="msg__time">
              {time}
            </time>
          )}
        </p>
        <p className="msg__bubble">{entry.text}</p>
      </div>
    </li>
  );
}
