import { SparkleIcon } from './icons.tsx';

/** The assistant's annotation on an item (`augment`): marked as the assistant's, apart from catalog text. */
export function AgentNote({ id, itemId, text }: { id?: string; itemId: string; text: string }) {
  return (
    <p className="agent-note" id={id} data-testid={`note-${itemId}`}>
      <SparkleIcon size={14} className="agent-note__icon" />
      <span>
        <span className="agent-note__label">Assistant: </span>
        {text}
      </span>
    </p>
  );
}
