import { STAGES } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/default.ts';
import { driveTo, newEngine, ROUTE, spec } from '../testing/helpers.ts';

const CANARY = 'CANARY-7f3a-never-leaves-the-host';

/** The default scenario with the canary in every backend-only field along the test route. */
function scenarioWithCanary() {
  const s = defaultScenario();
  for (const m of s.movies) m.internal = { distributorCode: CANARY };
  for (const t of s.theaters) t.internal = { ...t.internal, note: CANARY };
  for (const sh of s.showings) sh.internal = { screen: CANARY };
  return s;
}

describe('backendData never leaves the host', () => {
  it.each(STAGES)('the canary is in backendData but not in view() on the %s stage', (stage) => {
    const engine = driveTo(newEngine(scenarioWithCanary()), stage);
    engine.apply('sort', { field: 'value', order: 'desc' }, 'agent');
    engine.apply('augment', { items: [{ itemId: spec(engine).visibleItems[0]?.id ?? 'x', value: 'note' }] }, 'agent');
    expect(JSON.stringify(engine.backendData())).toContain(CANARY);
    expect(JSON.stringify(engine.view())).not.toContain(CANARY);
  });

  it('the canary stays out of the view and the booking after the submit', () => {
    const engine = driveTo(newEngine(scenarioWithCanary()), 'confirm');
    engine.apply('next', {}, 'agent');
    expect(JSON.stringify(engine.view())).not.toContain(CANARY);
    expect(JSON.stringify(engine.submitted())).not.toContain(CANARY);
  });

  it('view() shares no objects with the scenario or backendData', () => {
    const scenario = scenarioWithCanary();
    const engine = driveTo(newEngine(scenario), 'seat');
    const view = spec(engine);
    for (const item of view.items) item.extra = CANARY;
    for (const item of view.visibleItems) item.value = CANARY;
    (view.meta as { rows: string[] }).rows.push(CANARY);
    const backend = engine.backendData() as { movie: { genres: string[] } };
    backend.movie.genres.push(CANARY);
    expect(JSON.stringify(engine.view())).not.toContain(CANARY);
    expect(JSON.stringify(scenario.seatMaps)).not.toContain(CANARY);
    expect(scenario.movies.find((m) => m.id === ROUTE.movie)?.genres).toEqual(['Sci-Fi', 'Thriller']);
  });

  it('items carry only the listed fields', () => {
    const fields = (stage: (typeof STAGES)[number]) =>
      Object.keys(spec(driveTo(newEngine(scenarioWithCanary()), stage)).items[0] ?? {});
    expect(fields('movie')).toEqual([
      'id',
      'value',
      'isDisabled',
      'title',
      'genre',
      'genres',
      'durationMinutes',
      'rating',
      'ageRating',
      'synopsis',
    ]);
    expect(fields('theater')).toEqual(['id', 'value', 'isDisabled', 'name', 'distanceKm', 'amenities']);
    expect(fields('date')).toEqual([
      'id',
      'value',
      'isDisabled',
      'date',
      'weekday',
      'isToday',
      'isTomorrow',
      'showings',
    ]);
    expect(fields('time')).toEqual([
      'id',
      'value',
      'isDisabled',
      'time',
      'endTime',
      'format',
      'startMinutes',
      'seatsLeft',
    ]);
    expect(fields('seat')).toEqual([
      'id',
      'value',
      'isDisabled',
      'row',
      'rowIndex',
      'number',
      'kind',
      'taken',
      'priceSurcharge',
    ]);
    expect(fields('ticket')).toEqual(['id', 'value', 'isDisabled', 'label', 'price']);
    expect(fields('confirm')).toEqual([
      'id',
      'value',
      'isDisabled',
      'line',
      'label',
      'quantity',
      'unitPrice',
      'subtotal',
    ]);
  });
});
