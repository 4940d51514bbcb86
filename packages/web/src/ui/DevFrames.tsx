import { useState } from 'react';
import type { FrameRecord } from '../bridge/host-store.ts';
import { formatTimeOfDay } from './format.ts';

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The protocol frames, newest first: direction, type and time; a click shows the whole frame. */
export function DevFrames({ frames }: { frames: readonly FrameRecord[] }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (seq: number) => {
    const next = new Set(open);
    if (!next.delete(seq)) next.add(seq);
    setOpen(next);
  };
  if (frames.length === 0) return <p className="dev__empty">No frames yet.</p>;
  return (
    <ol className="frames">
      {[...frames].reverse().map((frame) => (
        <li key={frame.seq} className={`frame frame--${frame.direction}`}>
          <button
            type="button"
            className="frame__row"
            aria-expanded={open.has(frame.seq)}
            onClick={() => toggle(frame.seq)}
          >
            <span className="frame__seq">#{frame.seq}</span>
            <span className="frame__dir" title={frame.direction === 'in' ? 'from the relay' : 'to the relay'}>
              {frame.direction === 'in' ? '↓ in' : '↑ out'}
            </span>
            <span className="frame__type">{frame.type}</span>
            <span className="frame__size">{sizeOf(frame.text)}</span>
            <time className="frame__time" dateTime={frame.at}>
              {formatTimeOfDay(frame.at, true)}
            </time>
          </button>
          {open.has(frame.seq) && <pre className="dev__json frame__json">{pretty(frame.text)}</pre>}
        </li>
      ))}
    </ol>
  );
}

function sizeOf(text: string): string {
  return text.length < 1024 ? `${text.length} B` : `${(text.length / 1024).toFixed(1)} KB`;
}
