import type { Item } from '@usher/protocol';
import { type CSSProperties, Fragment, type KeyboardEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { AgentNote } from '../AgentNote.tsx';
import { plural } from '../format.ts';
import type { StageProps } from '../stage-props.ts';
import { useOverflow } from '../use-overflow.ts';
import { Seat } from './Seat.tsx';
import { SeatLegend } from './SeatLegend.tsx';
import { buildSeatGrid, gridColumns, gridUnits, moveFocus } from './seat-grid.ts';
import './seatmap.css';

const NAV_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

/**
 * The room seen from the back: the screen on top, rows labelled on both sides, aisles as gaps.
 * One seat is in the tab order at a time; the arrow keys move between seats (roving tabindex).
 */
export function SeatMap({ spec, can, act, decor }: StageProps) {
  const grid = useMemo(() => buildSeatGrid(spec.visibleItems, spec.meta), [spec.visibleItems, spec.meta]);
  const selected = spec.state.selectedList ?? [];
  const canSelect = can('select');
  const focusableSeat = (seat: Item) => canSelect && seat.isDisabled !== true;
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<string | null>(null);

  const enabled = spec.visibleItems.filter(focusableSeat);
  const tabStop = enabled.some((s) => s.id === active)
    ? active
    : (enabled.find((s) => selected.includes(s.id)) ?? enabled[0])?.id;

  // On a narrow screen the map scrolls sideways; start at its middle, where the screen's centre is.
  // It then says so, and takes focus itself, so the keyboard can scroll it when no seat can be chosen.
  const sideways = useOverflow(scroller);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && el.scrollWidth > el.clientWidth) el.scrollLeft = (el.scrollWidth - el.clientWidth) / 2;
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!NAV_KEYS.has(event.key) || !tabStop) return;
    event.preventDefault();
    const next = moveFocus(grid, tabStop, event.key, focusableSeat);
    if (!next) return;
    setActive(next);
    buttons.current.get(next)?.focus();
  };

  const maxSeats = typeof spec.meta?.maxSeats === 'number' ? spec.meta.maxSeats : undefined;
  const notes = spec.visibleItems.filter((s) => decor.notes.has(s.id));
  const style = { gridTemplateColumns: gridColumns(grid), '--units': gridUnits(grid) } as CSSProperties;

  return (
    <div className="seatmap">
      <SeatLegend highlight={decor.highlight.size > 0 ? spec.modification.highlight?.style : undefined} />
      {sideways && (
        <p className="seatmap__cue" id="seatmap-cue">
          More seats to each side: scroll the map sideways.
        </p>
      )}
      <div
        className={`seatmap__scroller${sideways ? ' seatmap__scroller--sideways' : ''}`}
        ref={scroller}
        {...(sideways && {
          tabIndex: 0,
          role: 'region',
          'aria-label': 'Seat map',
          'aria-describedby': 'seatmap-cue',
        })}
      >
        <div className="seatmap__room">
          <div className="screen" aria-hidden="true">
            <span>Screen</span>
          </div>
          {/* biome-ignore lint/a11y/useSemanticElements: a fieldset cannot lay its rows out as one CSS grid */}
          <div
            className="seatmap__grid"
            role="group"
            aria-label="Seats, screen at the front. Use the arrow keys to move between seats."
            style={style}
            onKeyDown={onKeyDown}
          >
            {grid.rows.map((row) => (
              // biome-ignore lint/a11y/useSemanticElements: a row of seats is a group; display: contents keeps the grid
              <div key={row.label} className="seatmap__row" role="group" aria-label={`Row ${row.label}`}>
                <span className="seatmap__label" aria-hidden="true">
                  {row.label}
                </span>
                {row.seats.map((seat, index) => {
                  const number = index + 1;
                  const aisle = grid.aisleAfter.includes(number) ? <span className="seatmap__aisle" /> : null;
                  return (
                    <Fragment key={number}>
                      {seat ? (
                        <Seat
                          item={seat}
                          selected={selected.includes(seat.id)}
                          disabled={!focusableSeat(seat)}
                          focusable={seat.id === tabStop}
                          highlight={decor.highlight.get(seat.id)}
                          hasNote={decor.notes.has(seat.id)}
                          onSelect={() => {
                            setActive(seat.id);
                            act('select', { itemId: seat.id });
                          }}
                          buttonRef={(el) => {
                            if (el) buttons.current.set(seat.id, el);
                            else buttons.current.delete(seat.id);
                          }}
                        />
                      ) : (
                        <span className="seatmap__gap" />
                      )}
                      {aisle}
                    </Fragment>
                  );
                })}
                <span className="seatmap__label" aria-hidden="true">
                  {row.label}
                </span>
              </div>
            ))}
          </div>
        </div>
      </div>
      <p className="seatmap__selection" aria-live="polite">
        {selected.length === 0 ? (
          'No seats selected yet.'
        ) : (
          <>
            <strong>{plural(selected.length, 'seat')} selected:</strong> {selected.join(', ')}
            {maxSeats !== undefined && <span className="muted"> · up to {maxSeats}</span>}
          </>
        )}
      </p>
      {notes.length > 0 && (
        <ul className="seatmap__notes">
          {notes.map((s) => (
            <li key={s.id}>
              <span className="seatmap__note-seat">{s.id}</span>
              <AgentNote id={`note-${s.id}`} itemId={s.id} text={decor.notes.get(s.id) ?? ''} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
