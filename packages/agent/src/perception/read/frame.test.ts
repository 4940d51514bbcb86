import { BookingEngine, defaultScenario } from '@usher/booking';
import { createMessage } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { readFrame } from './frame.ts';

const frame = (type: string, payload: unknown, ids: Record<string, unknown> = {}) =>
  JSON.stringify({ v: 'mvp-0.2', type, ...ids, payload });

/** A state as the original research prototype's host sends it: raw records, its own keys, no Usher extensions. */
const prototypeView = {
  uiSpec: {
    stage: 'movie',
    title: 'Pick a film',
    items: [
      { id: 'film-1', title: 'Orbital Drift', rating: '4.5', genres: ['Sci-Fi'] },
      { id: 'film-2', title: 'Courtside', rating: '3.5', genres: ['Comedy'] },
    ],
    visibleItems: [{ id: 'film-1', title: 'Orbital Drift', rating: '4.5', genres: ['Sci-Fi'] }],
    state: { selected: { id: 'film-1', value: 'Orbital Drift' }, workflow: { step: 1, of: 6 } },
    modification: {},
    display: { component: 'buttonGroup', valueField: 'title' },
  },
  messageHistory: [
    { id: 1, type: 'system', text: 'Welcome', timestamp: Date.UTC(2026, 10, 21, 17), stage: 'movie', seen: true },
    { id: 'm2', role: 'user', content: 'Something funny' },
    { id: 'm3', type: 'notice' },
  ],
  toolSchema: [
    { name: 'select', description: 'Choose one', parameters: { itemId: 'string' } },
    { name: 'filter', params: { field: 'string', operator: 'string', value: 'string' } },
    { name: 'next' },
    { description: 'no name' },
  ],
  revision: 12,
};

describe('readFrame: liberal in what it reads', () => {
  it("reads Usher's own frames as the contract has them", () => {
    const view = new BookingEngine(defaultScenario()).view();
    const message = createMessage('state.updated', {
      source: 'agent',
      ...view,
      action: { toolName: 'next', params: {} },
    });
    const read = readFrame(JSON.stringify(message));
    expect(read).toEqual({ ok: true, message, notes: [] });
  });

  it('reads by meaning the records of a frame that the contract accepts but that are not in the agent terms', () => {
    const theaters = [{ id: 'c1', value: 'The Grand', distanceMiles: 2 }];
    const spec = { ...prototypeView.uiSpec, stage: 'theater', items: theaters, visibleItems: theaters, state: {} };
    const message = { source: 'host', uiSpec: spec, messageHistory: [], toolSchema: [] };
    const read = readFrame(frame('state.updated', message));
    expect(read).toMatchObject({
      ok: true,
      message: { payload: { uiSpec: { items: [{ id: 'c1', distanceKm: 3.2 }] } } },
    });
  });

  it("reads the prototype's state: raw records, `{id, value}` selections, other history entries, field-map params", () => {
    const read = readFrame(frame('snapshot.state', { sessionId: 'abc-123', ...prototypeView }, { replyTo: 7 }));
    expect(read.ok).toBe(true);
    if (read.ok !== true || read.message.type !== 'snapshot.state') throw new Error('not read');
    const { payload } = read.message;
    expect(read.message.replyTo).toBe('7');
    expect(payload.sessionId).toBe('abc-123');
    expect(payload.uiSpec?.items.map((i) => [i.id, i.value, i.rating])).toEqual([
      ['film-1', 'Orbital Drift', 9],
      ['film-2', 'Courtside', 7],
    ]);
    expect(payload.uiSpec?.state).toEqual({ selected: 'film-1' });
    expect(payload.messageHistory).toEqual([
      { id: '1', role: 'system', text: 'Welcome', timestamp: '2026-11-21T17:00:00.000Z', stage: 'movie' },
      { id: 'm2', role: 'participant', text: 'Something funny', timestamp: '' },
    ]);
    expect(payload.toolSchema.map((t) => [t.name, t.category])).toEqual([
      ['select', 'interaction'],
      ['filter', 'modification'],
      ['next', 'interaction'],
    ]);
    expect(payload.toolSchema[0]?.parameters).toEqual({
      type: 'object',
      properties: { itemId: { type: 'string' } },
      required: ['itemId'],
    });
  });

  it('reads visible items that are display stubs with their records, so a film shows its title, genres and rating', () => {
    // The prototype's visibleItems are `{id, value, isDisabled?}`; the record is under `items`.
    const uiSpec = {
      ...prototypeView.uiSpec,
      items: [
        { id: 'm-7', title: 'Paper Moons', genre: ['Drama', 'Romance'], rating: '4.15', duration: '1h 46m' },
        { id: 'm-8', title: 'Courtside', genre: ['Comedy'], rating: '3.50', duration: '2h 01m' },
      ],
      visibleItems: [
        { id: 'm-7', value: 'Paper Moons' },
        { id: 'm-8', value: 'Courtside', isDisabled: true },
      ],
    };
    const read = readFrame(frame('state.updated', { ...prototypeView, source: 'host', uiSpec }));
    if (read.ok !== true || read.message.type !== 'state.updated') throw new Error('not read');
    const visible = read.message.payload.uiSpec?.visibleItems ?? [];
    expect(visible.map((i) => [i.id, i.title, i.genres, i.rating, i.durationMinutes, i.isDisabled])).toEqual([
      ['m-7', 'Paper Moons', ['Drama', 'Romance'], 8.3, 106, undefined],
      ['m-8', 'Courtside', ['Comedy'], 7, 121, true],
    ]);
  });

  it('takes any string session id, and extra payload keys', () => {
    const read = readFrame(frame('session.started', { sessionId: 'sess_9f2c', startedAt: 1 }, { replyTo: 'a1' }));
    expect(read).toMatchObject({
      ok: true,
      message: { type: 'session.started', replyTo: 'a1', payload: { sessionId: 'sess_9f2c' } },
    });
  });

  it('reads a state.updated without `source` or `action` as the host’s change', () => {
    const read = readFrame(frame('state.updated', prototypeView));
    expect(read).toMatchObject({ ok: true, message: { type: 'state.updated', payload: { source: 'host' } } });
  });

  it('skips message types it has no use for, rather than failing on them', () => {
    expect(readFrame(frame('relay.hello', { server: 'proto' }))).toEqual({ ok: 'skipped', type: 'relay.hello' });
    expect(readFrame(frame('relay.presence', { peers: 2 }))).toEqual({ ok: 'skipped', type: 'relay.presence' });
  });

  it('says why when a frame cannot be used, with the request it answers', () => {
    expect(readFrame(frame('snapshot.state', { uiSpec: { stage: 'payment' } }, { replyTo: 'a4' }))).toEqual({
      ok: false,
      why: 'uiSpec.stage "payment" is not a booking stage',
      replyTo: 'a4',
    });
    expect(readFrame(frame('tool.result', { toolName: 'next' }, { replyTo: 'a5' }))).toMatchObject({
      ok: false,
      replyTo: 'a5',
    });
    expect(readFrame(frame('user.message', { text: '  ' }))).toMatchObject({
      ok: false,
      why: 'user.message has no text',
    });
    expect(readFrame('{"v":"mvp-0.3","type":"state.updated","replyTo":"a6","payload":{}}')).toMatchObject({
      ok: false,
      replyTo: 'a6',
    });
    expect(readFrame('[1,2]')).toMatchObject({ ok: false });
    expect(readFrame('{"v":')).toMatchObject({ ok: false, why: 'frame is not valid JSON' });
    expect(readFrame(`{"type":"state.updated","payload":${'['.repeat(100)}${']'.repeat(100)}}`)).toMatchObject({
      ok: false,
    });
  });

  it('reads stage names in other forms and leaves out records without ids, saying so', () => {
    const read = readFrame(
      frame('state.updated', {
        source: 'agent',
        uiSpec: { stage: 'showtimes', items: [{ showtimeId: 'S1', startsAt: '7:30 PM' }, { startsAt: '9 PM' }] },
        messageHistory: [],
        toolSchema: [],
      }),
    );
    expect(read).toMatchObject({
      ok: true,
      message: { payload: { uiSpec: { stage: 'time', items: [{ id: 'S1', time: '19:30', format: 'Standard' }] } } },
      notes: ['1 item record(s) without a usable id were left out'],
    });
  });

  it('reads the counts a ticket stage shows on its rows when its state has no quantities', () => {
    const fares = [
      { fareCode: 'adult', name: 'Adult', price: 14.5, count: 2 },
      { fareCode: 'child', name: 'Child', ages: 'under 12', price: 9.5, count: 0 },
    ];
    const read = readFrame(
      frame('state.updated', {
        uiSpec: { stage: 'tickets', items: fares, state: { fares: { seats: 3, chosen: 2 } } },
        messageHistory: [],
        toolSchema: [{ name: 'setFare', parameters: { fareCode: 'string', count: 'number' } }],
      }),
    );
    expect(read).toMatchObject({
      ok: true,
      message: {
        payload: {
          uiSpec: {
            stage: 'ticket',
            items: [
              { id: 'adult', value: 'Adult', price: 14.5 },
              { id: 'child', value: 'Child', price: 9.5 },
            ],
            state: { quantities: { adult: 2, child: 0 } },
          },
        },
      },
    });
    // A row without a count says nothing about the others: no quantities are made up.
    const partial = readFrame(
      frame('state.updated', {
        uiSpec: { stage: 'ticket', items: [fares[0], { fareCode: 'senior', price: 10 }] },
        messageHistory: [],
        toolSchema: [],
      }),
    );
    if (partial.ok !== true || partial.message.type !== 'state.updated') throw new Error('not read');
    expect(partial.message.payload.uiSpec?.state).toEqual({});
  });
});
