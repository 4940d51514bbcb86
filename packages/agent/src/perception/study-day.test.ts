import type { UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTEXT, type PerceivedContext } from './perceive.ts';
import { studyDayOf } from './study-day.ts';

const spec = (stage: UiSpec['stage'], extra: Partial<UiSpec> = {}): UiSpec => ({
  stage,
  title: '',
  items: [],
  visibleItems: [],
  state: {},
  modification: {},
  display: { component: 'buttonGroup', valueField: 'value' },
  ...extra,
});
const chat = (timestamp: string) => ({ id: 'e1', role: 'system' as const, text: 'Welcome', timestamp });

describe('the study day a host shows', () => {
  it("is the host's meta.today first, then its chat's latest day, then its first listed day", () => {
    const withMeta: PerceivedContext = {
      ...EMPTY_CONTEXT,
      uiSpec: spec('movie', { meta: { today: '2026-11-21' } }),
      messageHistoryTail: [chat('2026-12-01T10:00:00.000Z')],
    };
    expect(studyDayOf(withMeta)).toEqual({ day: '2026-11-21', from: 'meta' });
    expect(studyDayOf({ ...withMeta, uiSpec: spec('movie') })).toEqual({ day: '2026-12-01', from: 'chat' });
    const dates = spec('date', { items: [{ id: 'd1', value: 'Sat', date: '2026-03-07' }] });
    expect(studyDayOf({ ...EMPTY_CONTEXT, uiSpec: dates, messageHistoryTail: [chat('')] })).toEqual({
      day: '2026-03-07',
      from: 'dates',
    });
    expect(studyDayOf({ ...EMPTY_CONTEXT, uiSpec: spec('movie') })).toBeNull();
  });

  it('is the day a date stage marks as today before a chat stamped by another clock', () => {
    const dates = spec('date', {
      items: [
        { id: '2026-11-21', value: 'Nov 21 (Sat)', date: '2026-11-21', isToday: true },
        { id: '2026-11-22', value: 'Nov 22 (Sun)', date: '2026-11-22', isToday: false },
      ],
    });
    const context = { ...EMPTY_CONTEXT, uiSpec: dates, messageHistoryTail: [chat('2027-03-01T09:00:00.000Z')] };
    expect(studyDayOf(context)).toEqual({ day: '2026-11-21', from: 'flag' });
  });
});
