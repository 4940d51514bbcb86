import type { QuestionnaireItemView } from '@usher/protocol';
import type { AnswerValue } from './answers-draft.ts';

interface Props {
  item: QuestionnaireItemView;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  /** Why the answer is not accepted yet (a required item left out, or the server's reason). */
  problem: string | null;
}

/**
 * One question, with native form controls so the keyboard works as everywhere (arrows move
 * within a scale or a choice, space ticks a box) and a screen reader hears the question as the
 * group's name.
 */
export function QuestionnaireItem({ item, value, onChange, problem }: Props) {
  const problemId = `q-${item.id}-problem`;
  const invalid = problem !== null;
  const describedBy = invalid ? problemId : undefined;
  const legend = (
    <legend className="q-item__text">
      {item.text}
      {!item.required && <span className="q-item__optional">Optional</span>}
    </legend>
  );
  let control: React.ReactNode;
  switch (item.kind) {
    case 'likert': {
      const labelled = item.anchors.length === item.points && item.points > 2;
      const points = Array.from({ length: item.points }, (_, i) => item.from + i);
      const name = (i: number, point: number) =>
        labelled
          ? item.anchors[i]
          : i === 0
            ? `${point} – ${item.anchors[0]}`
            : i === item.points - 1
              ? `${point} – ${item.anchors[1]}`
              : String(point);
      control = (
        <>
          <div className={`likert${labelled ? ' likert--labelled' : ''}`} style={{ '--points': item.points } as never}>
            {points.map((point, i) => (
              <label key={point} className="likert__point">
                <input
                  type="radio"
                  name={item.id}
                  value={point}
                  checked={value === point}
                  onChange={() => onChange(point)}
                  aria-label={name(i, point)}
                  aria-describedby={describedBy}
                />
                <span className="likert__mark" aria-hidden="true">
                  {labelled ? item.anchors[i] : point}
                  {/* On a phone the scale is a column, its end points carrying their anchors. */}
                  {!labelled && (i === 0 || i === item.points - 1) && (
                    <span className="likert__anchor">{item.anchors[i === 0 ? 0 : 1]}</span>
                  )}
                </span>
              </label>
            ))}
          </div>
          {!labelled && (
            <div className="q-anchors" aria-hidden="true">
              <span>{item.anchors[0]}</span>
              <span>{item.anchors[1]}</span>
            </div>
          )}
        </>
      );
      break;
    }
    case 'slider': {
      const answered = typeof value === 'number';
      control = (
        <div className="q-slider">
          <div className="q-slider__row">
            <input
              type="range"
              min={0}
              max={100}
              step={item.step}
              value={answered ? value : 50}
              data-untouched={answered ? undefined : ''}
              aria-label={item.text}
              aria-valuetext={answered ? String(value) : 'not answered yet'}
              aria-describedby={describedBy}
              onChange={(e) => onChange(Number(e.currentTarget.value))}
              // A click on the thumb where it rests answers too (no change event fires then).
              onClick={(e) => !answered && onChange(Number(e.currentTarget.value))}
            />
            <output className="q-slider__value">{answered ? value : '–'}</output>
          </div>
          {item.anchors && (
            <div className="q-anchors" aria-hidden="true">
              <span>{item.anchors[0]}</span>
              <span>{item.anchors[1]}</span>
            </div>
          )}
        </div>
      );
      break;
    }
    case 'single':
    case 'multiple': {
      const chosen = Array.isArray(value) ? value : [];
      control = (
        <div className="choices">
          {item.options.map((option) => (
            <label key={option.value} className="choice">
              <input
                type={item.kind === 'single' ? 'radio' : 'checkbox'}
                name={item.id}
                value={option.value}
                checked={item.kind === 'single' ? value === option.value : chosen.includes(option.value)}
                onChange={(e) =>
                  onChange(
                    item.kind === 'single'
                      ? option.value
                      : e.currentTarget.checked
                        ? [...chosen, option.value]
                        : chosen.filter((v) => v !== option.value),
                  )
                }
                aria-describedby={describedBy}
              />
              <span>{option.label}</span>
            </label>
          ))}
          {item.kind === 'multiple' && (item.min !== undefined || item.max !== undefined) && (
            <p className="q-hint">{choiceHint(item.min, item.max)}</p>
          )}
        </div>
      );
      break;
    }
    case 'text':
    case 'longtext': {
      const text = typeof value === 'string' ? value : '';
      const props = {
        className: 'q-text',
        value: text,
        maxLength: item.maxLength,
        'aria-label': item.text,
        'aria-describedby': describedBy,
        'aria-invalid': invalid || undefined,
      };
      control =
        item.kind === 'text' ? (
          <input type="text" {...props} onChange={(e) => onChange(e.currentTarget.value)} />
        ) : (
          <>
            <textarea rows={4} {...props} onChange={(e) => onChange(e.currentTarget.value)} />
            <p className="q-hint">
              {text.length} / {item.maxLength}
            </p>
          </>
        );
      break;
    }
  }
  return (
    <fieldset
      className={`q-item${invalid ? ' q-item--invalid' : ''}`}
      id={`q-${item.id}`}
      data-testid={`q-${item.id}`}
      aria-invalid={invalid || undefined}
    >
      {legend}
      {control}
      {problem && (
        <p className="q-item__problem" id={problemId}>
          {problem}
        </p>
      )}
    </fieldset>
  );
}

function choiceHint(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `Choose ${min}.` : `Choose ${min} to ${max}.`;
  return min !== undefined ? `Choose at least ${min}.` : `Choose up to ${max}.`;
}
