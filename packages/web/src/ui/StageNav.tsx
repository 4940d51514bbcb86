import type { Stage } from '@usher/protocol';
import { useState } from 'react';
import { humanizeRefusal } from './format.ts';
import { AlertIcon, ChevronLeftIcon, ChevronRightIcon, CloseIcon } from './icons.tsx';

const WAITING_FOR: Record<Stage, string> = {
  movie: 'Choose a movie to continue',
  theater: 'Choose a theater to continue',
  date: 'Choose a date to continue',
  time: 'Choose a showtime to continue',
  seat: 'Select at least one seat',
  ticket: 'Choose one ticket per seat',
  confirm: '',
};

interface Props {
  stage: Stage;
  canPrev: boolean;
  canNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  refusal: { code: string; message: string } | null;
}

/**
 * Back and Next, offered exactly when the toolSchema offers `prev` and `next`, and why the last
 * action was refused. On the confirm stage the summary's own Confirm button is the way forward.
 */
export function StageNav({ stage, canPrev, canNext, onPrev, onNext, refusal }: Props) {
  const [dismissed, setDismissed] = useState<Props['refusal']>(null);
  const showRefusal = refusal !== null && refusal !== dismissed;
  return (
    // On the confirm stage the summary holds the way forward, so the bar need not follow the scroll.
    <div className={stage === 'confirm' ? 'stage-nav stage-nav--static' : 'stage-nav'}>
      <div className="stage-nav__alert" role="status" aria-live="polite">
        {showRefusal && (
          <div className="alert" data-testid="refusal" data-code={refusal.code}>
            <AlertIcon size={16} className="alert__icon" />
            <p>{humanizeRefusal(refusal.message)}</p>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setDismissed(refusal)}>
              <CloseIcon size={14} />
            </button>
          </div>
        )}
      </div>
      <div className="stage-nav__bar">
        <button type="button" className="button" data-testid="prev" disabled={!canPrev} onClick={onPrev}>
          <ChevronLeftIcon size={18} />
          Back
        </button>
        {stage !== 'confirm' && (
          <>
            {!canNext && <p className="stage-nav__hint">{WAITING_FOR[stage]}</p>}
            <button
              type="button"
              className="button button--primary"
              data-testid="next"
              disabled={!canNext}
              onClick={onNext}
            >
              Next
              <ChevronRightIcon size={18} />
            </button>
          </>
        )}
      </div>
    </div>
  );
}
