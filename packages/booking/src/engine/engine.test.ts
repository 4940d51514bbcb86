import { HostViewSchema, STAGES, UiSpecSchema } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { driveTo, newEngine, ROUTE, spec, twoAdjacentFree } from '../testing/helpers.ts';

describe('BookingEngine: a full booking through apply()', () => {
  it('walks movie → confirm, submits, and then offers only postMessage', () => {
    const engine = newEngine();
    const seen: string[] = [];
    const act = (tool: string, params: Record<string, unknown> = {}) => engine.apply(tool, params, 'agent');

    seen.push(spec(engine).stage);
    act('select', { itemId: ROUTE.movie });
    expect(act('next')).toEqual({ toolName: 'next', changedStage: true, submitted: false });
    seen.push(spec(engine).stage);
    act('select', { itemId: ROUTE.theater });
    act('next');
    seen.push(spec(engine).stage);
    act('select', { itemId: ROUTE.date });
    act('next');
    seen.push(spec(engine).stage);
    act('select', { itemId: ROUTE.showing });
    act('next');
    seen.push(spec(engine).stage);
    const seatSpec = spec(engine);
    const [a, b] = twoAdjacentFree(seatSpec.items, seatSpec.meta?.aisleAfter as number[]);
    act('select', { itemId: a });
    act('select', { itemId: b });
    expect(spec(engine).state.selectedList).toEqual([a, b]);
    act('next');
    seen.push(spec(engine).stage);
    act('setQuantity', { typeId: 'adult', quantity: 1 });
    act('setQuantity', { typeId: 'senior', quantity: 1 });
    expect(spec(engine).meta).toEqual({ maxTotal: 2, total: 2, revision: 13, today: '2026-11-21' });
    act('next');
    seen.push(spec(engine).stage);
    const confirm = spec(engine);
    expect(confirm.state.booking).toMatchObject({
      movie: { id: ROUTE.movie, title: 'Orbital Drift' },
      theater: { id: ROUTE.theater, name: 'Riverside IMAX' },
      date: ROUTE.date,
      showing: { id: ROUTE.showing, time: '13:00', endTime: '15:28', format: 'IMAX' },
      seats: [a, b],
      currency: 'USD',
    });
    // Adult 14.50 + senior 10.50, each plus the 5.00 IMAX surcharge; front-row seats cost nothing extra.
    expect(confirm.state.booking?.total).toBe(35);
    expect(confirm.items.map((i) => i.value)).toEqual(['1 × Adult', '1 × Senior (65+)']);

    expect(act('next')).toEqual({ toolName: 'next', changedStage: true, submitted: true });
    expect(seen).toEqual([...STAGES]);

    const booking = engine.submitted();
    expect(booking).toMatchObject({
      movieId: ROUTE.movie,
      theaterId: ROUTE.theater,
      showingId: ROUTE.showing,
      date: ROUTE.date,
      time: '13:00',
      endTime: '15:28',
      format: 'IMAX',
      total: 35,
      tickets: [
        { typeId: 'adult', quantity: 1, unitPrice: 19.5 },
        { typeId: 'senior', quantity: 1, unitPrice: 15.5 },
      ],
    });
    expect(booking?.seats.map((s) => s.id)).toEqual([a, b]);
    expect(booking?.reference).toMatch(/^USH-[0-9A-Z]{7}$/);

    const view = engine.view();
    expect(view.uiSpec).toBeNull();
    expect(view.toolSchema.map((t) => t.name)).toEqual(['postMessage']);
    const last = view.messageHistory.at(-1);
    expect(last).toMatchObject({ role: 'system', stage: 'confirm' });
    expect(last?.text).toContain(booking?.reference);
    expect(last?.text).toContain('Total USD 35.00');
    expect(engine.backendData()).toBeNull();
  });

  it('produces views that satisfy the wire schema at every stage', () => {
    for (const stage of STAGES) {
      const view = driveTo(newEngine(), stage).view();
      expect(HostViewSchema.safeParse(view).success).toBe(true);
      expect(UiSpecSchema.parse(view.uiSpec).stage).toBe(stage);
    }
  });

  it('is deterministic: same calls, same views and the same booking reference', () => {
    const run = () => {
      const engine = driveTo(newEngine(), 'confirm');
      engine.apply('postMessage', { text: 'hello' }, 'agent');
      engine.apply('next', {}, 'participant');
      return { view: engine.view(), booking: engine.submitted() };
    };
    expect(run()).toEqual(run());
  });

  it('gives a second booking of the same engine a different reference', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.apply('next', {}, 'participant');
    const first = engine.submitted()?.reference;
    engine.reset();
    driveTo(engine, 'confirm').apply('next', {}, 'participant');
    expect(engine.submitted()?.reference).not.toBe(first);
  });
});

describe('BookingEngine: flow rules', () => {
  it('lists only movies with a showing, and theaters showing the chosen movie', () => {
    const engine = newEngine();
    const movies = spec(engine).items.map((i) => i.id);
    expect(movies).toHaveLength(14);
    expect(movies).not.toContain('m-winter-kings');
    driveTo(engine, 'theater');
    expect(spec(engine).items.map((i) => i.id)).toEqual(['t-riverside', 't-starlight']);
  });

  it('shows the seven days on the date stage, today first, disabling days without a showing', () => {
    const engine = driveTo(newEngine(), 'movie');
    engine.apply('select', { itemId: 'm-hollow-house' }, 'participant');
    engine.apply('next', {}, 'participant');
    engine.apply('select', { itemId: 't-grand' }, 'participant');
    engine.apply('next', {}, 'participant');
    const days = spec(engine).items;
    expect(days.map((d) => d.id)).toEqual([
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
    ]);
    expect(days[0]).toMatchObject({
      value: 'Sat 21 Nov',
      weekday: 'Saturday',
      isToday: true,
      isTomorrow: false,
      showings: 1,
      isDisabled: false,
    });
    expect(days[1]).toMatchObject({ isToday: false, isTomorrow: true, showings: 0, isDisabled: true });
    expect(days[6]).toMatchObject({ weekday: 'Friday', showings: 1, isDisabled: false });
  });

  it('lists the day’s showings with end times and seats left, a sold-out one disabled', () => {
    const items = spec(driveTo(newEngine(), 'time')).items;
    expect(items.map((i) => i.value)).toEqual([
      '13:00 · IMAX',
      '14:10 · Standard',
      '16:30 · IMAX',
      '19:30 · IMAX',
      '20:50 · Standard',
      '22:40 · IMAX',
    ]);
    expect(items[5]).toMatchObject({ time: '22:40', endTime: '01:08', startMinutes: 1360, format: 'IMAX' });
    expect(items[3]).toMatchObject({ seatsLeft: 0, isDisabled: true });
    expect(items[0]?.seatsLeft).toBeGreaterThan(0);
  });

  it('shows the theater’s seat map with taken seats disabled', () => {
    const s = spec(driveTo(newEngine(), 'seat'));
    expect(s.display).toEqual({ component: 'seatMap', valueField: 'value' });
    expect(s.items).toHaveLength(12 * 18);
    expect(s.meta).toMatchObject({
      rows: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'],
      seatsPerRow: 18,
      aisleAfter: [4, 14],
      screen: 'front',
    });
    expect(s.items.find((i) => i.id === 'G5')).toMatchObject({
      row: 'G',
      rowIndex: 6,
      number: 5,
      kind: 'premium',
      priceSurcharge: 3,
    });
    expect(s.items.find((i) => i.id === 'E1')).toMatchObject({ kind: 'wheelchair', priceSurcharge: 0 });
    const taken = s.items.filter((i) => i.taken);
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.every((i) => i.isDisabled === true)).toBe(true);
  });

  it('selecting records the choice without advancing', () => {
    const engine = newEngine();
    const result = engine.apply('select', { itemId: ROUTE.movie }, 'participant');
    expect(result).toEqual({ toolName: 'select', changedStage: false, submitted: false });
    expect(spec(engine)).toMatchObject({ stage: 'movie', state: { selected: ROUTE.movie } });
  });

  it('prev keeps the choice of the stage it returns to', () => {
    const engine = driveTo(newEngine(), 'time');
    engine.apply('prev', {}, 'participant');
    expect(spec(engine)).toMatchObject({ stage: 'date', state: { selected: ROUTE.date } });
    engine.apply('prev', {}, 'participant');
    expect(spec(engine)).toMatchObject({ stage: 'theater', state: { selected: ROUTE.theater } });
  });

  it('changing an earlier choice clears every later one', () => {
    const engine = driveTo(newEngine(), 'confirm');
    for (let i = 0; i < 4; i++) engine.apply('prev', {}, 'participant');
    expect(spec(engine).stage).toBe('date');
    engine.apply('select', { itemId: '2026-11-22' }, 'participant');
    const booking = spec(engine).state.booking;
    expect(booking).toMatchObject({ movie: { id: ROUTE.movie }, theater: { id: ROUTE.theater }, date: '2026-11-22' });
    expect(booking?.showing).toBeUndefined();
    expect(booking?.seats).toBeUndefined();
    engine.apply('next', {}, 'participant');
    expect(spec(engine).state.selected).toBeUndefined();
  });

  it('re-selecting the same item keeps later choices', () => {
    const engine = driveTo(newEngine(), 'seat');
    engine.apply('prev', {}, 'participant');
    engine.apply('select', { itemId: ROUTE.showing }, 'participant');
    expect(spec(engine).state.booking?.showing?.id).toBe(ROUTE.showing);
  });

  it('toggles seats, and a changed seat choice clears ticket quantities', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.apply('prev', {}, 'participant');
    engine.apply('prev', {}, 'participant');
    const [first] = spec(engine).state.selectedList ?? [];
    engine.apply('select', { itemId: first as string }, 'participant');
    expect(spec(engine).state.selectedList).toHaveLength(1);
    expect(spec(engine).state.booking?.tickets).toBeUndefined();
  });

  it('caps a booking at ten seats', () => {
    const engine = driveTo(newEngine(), 'seat');
    const free = spec(engine).items.filter((i) => !i.isDisabled);
    for (const seat of free.slice(0, 10)) engine.apply('select', { itemId: seat.id }, 'participant');
    expect(() => engine.apply('select', { itemId: free[10]?.id }, 'participant')).toThrow(/at most 10 seats/);
  });

  it('prices tickets with the format surcharge and premium seats in the total', () => {
    const engine = driveTo(newEngine(), 'seat');
    const premium = spec(engine).items.find((i) => i.kind === 'premium' && !i.isDisabled);
    engine.apply('select', { itemId: premium?.id }, 'participant');
    engine.apply('next', {}, 'participant');
    expect(spec(engine).items.map((i) => [i.id, i.price])).toEqual([
      ['adult', 19.5],
      ['child', 14.5],
      ['senior', 15.5],
    ]);
    engine.apply('setQuantity', { typeId: 'child', quantity: 1 }, 'participant');
    expect(spec(engine).state.quantities).toEqual({ adult: 0, child: 1, senior: 0 });
    engine.apply('next', {}, 'participant');
    const confirm = spec(engine);
    expect(confirm.state.booking?.total).toBe(17.5);
    expect(confirm.items.map((i) => [i.id, i.subtotal])).toEqual([
      ['child', 14.5],
      ['seat-premium', 3],
    ]);
  });

  it('clears the modification whenever the stage changes', () => {
    const engine = driveTo(newEngine(), 'time');
    engine.apply('sort', { field: 'seatsLeft', order: 'desc' }, 'agent');
    engine.apply('prev', {}, 'agent');
    expect(spec(engine).modification).toEqual({});
    engine.apply('filter', { field: 'showings', operator: 'gt', value: 0 }, 'agent');
    engine.apply('next', {}, 'agent');
    expect(spec(engine).modification).toEqual({});
  });
});

describe('BookingEngine: chat', () => {
  it('numbers entries, stamps them with the stage and the clock, and maps postMessage to the actor', () => {
    const engine = driveTo(newEngine(), 'theater');
    engine.addMessage('participant', 'Something close by, please');
    engine.apply('postMessage', { text: 'Riverside is 4.2 km away.' }, 'agent');
    engine.apply('postMessage', { text: 'ok' }, 'participant');
    expect(engine.view().messageHistory).toEqual([
      {
        id: 'msg-1',
        role: 'participant',
        text: 'Something close by, please',
        timestamp: '2026-11-21T09:00:01.000Z',
        stage: 'theater',
      },
      {
        id: 'msg-2',
        role: 'agent',
        text: 'Riverside is 4.2 km away.',
        timestamp: '2026-11-21T09:00:02.000Z',
        stage: 'theater',
      },
      { id: 'msg-3', role: 'participant', text: 'ok', timestamp: '2026-11-21T09:00:03.000Z', stage: 'theater' },
    ]);
  });

  it('accepts postMessage after the submit, without a stage', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.apply('next', {}, 'agent');
    engine.apply('postMessage', { text: 'Enjoy the movie!' }, 'agent');
    const last = engine.view().messageHistory.at(-1);
    expect(last).toMatchObject({ role: 'agent', text: 'Enjoy the movie!' });
    expect(last?.stage).toBeUndefined();
  });

  it('reset starts over: movie stage, no choices, no modification, empty chat', () => {
    const engine = driveTo(newEngine(), 'confirm');
    engine.addMessage('agent', 'hi');
    engine.apply('next', {}, 'agent');
    engine.reset();
    const fresh = newEngine();
    expect(engine.view()).toEqual(fresh.view());
    expect(engine.submitted()).toBeNull();
    expect(engine.addMessage('system', 'again').id).toBe('msg-1');
  });
});
