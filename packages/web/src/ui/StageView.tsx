import type { UiSpec } from '@usher/protocol';
import { type ComponentType, useEffect, useId, useMemo, useRef } from 'react';
import { stageNoun } from './describe.ts';
import { ModificationNotice } from './ModificationNotice.tsx';
import { StageNav } from './StageNav.tsx';
import { StageProgress } from './StageProgress.tsx';
import { decorOf, type StageProps } from './stage-props.ts';
import { ButtonGroup } from './stages/ButtonGroup.tsx';
import { Calendar } from './stages/Calendar.tsx';
import { Counter } from './stages/Counter.tsx';
import { SeatMap } from './stages/SeatMap.tsx';
import { Summary } from './stages/Summary.tsx';

const RENDERERS: Record<UiSpec['display']['component'], ComponentType<StageProps>> = {
  buttonGroup: ButtonGroup,
  calendar: Calendar,
  seatMap: SeatMap,
  counter: Counter,
  summary: Summary,
};

interface Props {
  spec: UiSpec;
  tools: ReadonlySet<string>;
  act: (tool: string, params?: Record<string, unknown>) => boolean;
  refusal: { code: string; message: string } | null;
  /**
   * Shown inside another page (the console): a new stage does not scroll the window, and its
   * title is a heading of that page's section (h3), not the page's own h1.
   */
  embedded?: boolean;
}

/** The current stage: heading, what the agent did to the list, the stage's component, and Back / Next. */
export function StageView({ spec, tools, act, refusal, embedded = false }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const movedByParticipant = useRef(false);
  const can = (tool: string) => tools.has(tool);
  const run = (tool: string, params?: Record<string, unknown>) => {
    if (tool === 'next' || tool === 'prev') movedByParticipant.current = true;
    act(tool, params);
  };
  const decor = useMemo(() => decorOf(spec), [spec]);
  const Renderer = RENDERERS[spec.display.component];
  const Heading = embedded ? 'h3' : 'h1';
  // Unique, as the console may show a stage beside another (a room watched, a replay).
  const titleId = useId();

  // A new stage starts at its top. Focus follows only the participant's own Back / Next, so an
  // agent moving on never pulls focus out of the chat (the live region below says where the page
  // is now). When the agent moves on while the focus was on the old stage, whose controls are
  // gone with it, the focus goes to the new stage's heading rather than falling to the page's body.
  const focusInStage = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the stage changes, by design
  useEffect(() => {
    if (!embedded) window.scrollTo({ top: 0 });
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!embedded && (movedByParticipant.current || (focusInStage.current && lost))) {
      heading.current?.focus({ preventScroll: true });
    }
    movedByParticipant.current = false;
  }, [spec.stage]);

  return (
    <section
      className="stage"
      aria-labelledby={titleId}
      onFocus={() => {
        focusInStage.current = true;
      }}
      onBlur={(e) => {
        focusInStage.current = e.currentTarget.contains(e.relatedTarget);
      }}
    >
      <header className="stage__header">
        <StageProgress stage={spec.stage} />
        <Heading id={titleId} className="stage__title" data-testid="stage-title" tabIndex={-1} ref={heading}>
          {spec.title}
        </Heading>
        {spec.description && <p className="stage__description">{spec.description}</p>}
      </header>
      {/* Announces each new stage, also when the agent moved on (focus stays where the participant is). */}
      <p className="sr-only" aria-live="polite" data-testid="stage-announcement">
        {`Now: ${spec.title}`}
      </p>
      <ModificationNotice spec={spec} can={can} act={run} />
      {spec.visibleItems.length === 0 && spec.items.length > 0 ? (
        <p className="empty">No {stageNoun(spec.stage)}s match the current filter.</p>
      ) : (
        <Renderer spec={spec} can={can} act={run} decor={decor} />
      )}
      <StageNav
        stage={spec.stage}
        canPrev={can('prev')}
        canNext={can('next')}
        onPrev={() => run('prev')}
        onNext={() => run('next')}
        refusal={refusal}
      />
    </section>
  );
}
