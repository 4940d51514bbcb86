import { STAGES, type Stage } from '@usher/protocol';
import { STAGE_LABELS } from './describe.ts';

/** Where the participant is among the seven steps. */
export function StageProgress({ stage }: { stage: Stage }) {
  const index = STAGES.indexOf(stage);
  return (
    <div className="progress">
      <p className="progress__label">
        Step {index + 1} of {STAGES.length}
        <span aria-hidden="true"> · {STAGE_LABELS[stage]}</span>
      </p>
      <ol className="progress__bar" aria-hidden="true">
        {STAGES.map((s, i) => (
          <li
            key={s}
            className={i < index ? 'is-done' : i === index ? 'is-current' : undefined}
            title={STAGE_LABELS[s]}
          />
        ))}
      </ol>
    </div>
  );
}
