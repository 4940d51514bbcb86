import { BookingEngine, defaultScenario } from '@usher/booking';
import { createMessage, exceedsDepth, MAX_JSON_DEPTH } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { FrameReader, readFrame } from './frame.ts';
import { scanFrame } from './frame-scan.ts';
import { MEMBER_LIMITS } from './members.ts';

/** A clock fixed on the study's day: the chat's timestamps never depend on today. */
const newEngine = () => new BookingEngine(defaultScenario(), { now: () => new Date(Date.UTC(2026, 10, 27, 10)) });

/** The states one booking sends, from the film to the confirmation, as the relay forwards them. */
function bookingStates(): string[] {
  const engine = newEngine();
  const frames: string[] = [];
  const push = (source: 'host' | 'agent', action?: { toolName: string; params: Record<string, unknown> }) =>
    frames.push(
      JSON.stringify(createMessage('state.updated', { source, ...engine.view(), ...(action && { action }) })),
    );
  push('host');
  for (let step = 0; step < 40; step++) {
    const spec = engine.view().uiSpec;
    if (!spec || spec.stage === 'confirm') break;
    const free = spec.visibleItems.find((item) => item.isDisabled !== true);
    const chosen = spec.state.selected !== undefined || (spec.state.selectedList?.length ?? 0) > 0;
    const call =
      spec.stage === 'ticket'
        ? { toolName: 'setQuantity', params: { typeId: 'adult', quantity: 1 } }
        : !chosen
          ? { toolName: 'select', params: { itemId: free?.id ?? '' } }
          : { toolName: 'next', params: {} };
    engine.apply(call.toolName, call.params, 'agent');
    if (spec.stage === 'ticket') engine.apply('next', {}, 'agent');
    // The host says its state again with a chat line added: the records and tools repeat as text.
    engine.addMessage('agent', `step ${step}`);
    push('host');
    push('agent', call);
  }
  return frames;
}

const itemsOf = (read: ReturnType<typeof readFrame>) =>
  read.ok === true && (read.message.type === 'state.updated' || read.message.type === 'snapshot.state')
    ? read.message.payload.uiSpec?.items
    : undefined;

describe('FrameReader: a state read once', () => {
  it('reads every state of a booking as readFrame does', () => {
    const states = bookingStates();
    expect(states.length).toBeGreaterThan(10);
    const reader = new FrameReader();
    let shared = 0;
    let last: { text: string; items: unknown } | undefined;
    for (const text of states) {
      const read = reader.read(text);
      expect(read).toEqual(readFrame(text));
      // Records as long as the film's or the seat map's, unchanged since the last state, are that state's.
      const items = itemsOf(read);
      const same = JSON.stringify(items) === last?.text && last.text.length >= MEMBER_LIMITS.minChars;
      if (same) shared++;
      expect(items === last?.items).toBe(same);
      last = { text: JSON.stringify(items), items };
    }
    expect(shared).toBeGreaterThan(3);
  });

  it('does not read again the records and tools of a state that did not change; it reads what did', () => {
    const engine = newEngine();
    const first = JSON.stringify(createMessage('state.updated', { source: 'host', ...engine.view() }));
    const reader = new FrameReader();
    const a = reader.read(first);
    // A chat line added: the records and tools are the same text.
    const view = engine.view();
    const chat = [
      { id: 'c1', role: 'participant' as const, text: 'a comedy please', timestamp: '2026-11-27T10:00:00Z' },
    ];
    const b = reader.read(
      JSON.stringify(createMessage('state.updated', { source: 'user', ...view, messageHistory: chat })),
    );
    expect(itemsOf(a)?.length).toBeGreaterThan(0);
    expect(itemsOf(b)).toBe(itemsOf(a));
    expect(Object.isFrozen(itemsOf(b))).toBe(true);
    expect(Object.isFrozen(itemsOf(b)?.[0])).toBe(true);
    if (b.ok !== true || b.message.type !== 'state.updated') throw new Error('not read');
    expect(b.message.payload.messageHistory).toEqual(chat);
    // Records that changed are read anew, and read as readFrame reads them.
    const items = view.uiSpec?.items.map((item, i) => (i === 0 ? { ...item, value: 'Renamed' } : item)) ?? [];
    const changed = JSON.stringify(
      createMessage('state.updated', {
        source: 'host',
        ...view,
        uiSpec: view.uiSpec && { ...view.uiSpec, items },
      }),
    );
    const c = reader.read(changed);
    expect(itemsOf(c)).not.toBe(itemsOf(a));
    expect(itemsOf(c)?.[0]?.value).toBe('Renamed');
    expect(c).toEqual(readFrame(changed));
  });

  it('refuses a frame too deep with the documented reason, also where a known member stood', () => {
    const engine = newEngine();
    const state = createMessage('state.updated', { source: 'host', ...engine.view() });
    const text = JSON.stringify(state);
    const reader = new FrameReader();
    expect(reader.read(text).ok).toBe(true);
    const deep = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    const items = JSON.stringify(state.payload.uiSpec?.items);
    const tooDeep = text.replace(`"visibleItems":${items}`, `"visibleItems":${items},"x":${deep}`);
    expect(tooDeep).not.toBe(text);
    expect(reader.read(tooDeep)).toEqual({ ok: false, why: `frame nests deeper than ${MAX_JSON_DEPTH} levels` });
    // Just within the bound it is read (the extra key refused by the contract, read liberally).
    const within = `${'['.repeat(MAX_JSON_DEPTH - 4)}${']'.repeat(MAX_JSON_DEPTH - 4)}`;
    const fits = text.replace(`"visibleItems":${items}`, `"visibleItems":${items},"x":${within}`);
    expect(reader.read(fits)).toEqual(readFrame(fits));
    expect(reader.read(fits).ok).toBe(true);
  });

  it('reads hostile text around known members as readFrame does: broken JSON, keys given twice or escaped, a liberal state', () => {
    const engine = newEngine();
    const state = createMessage('state.updated', { source: 'host', ...engine.view() });
    const text = JSON.stringify(state);
    const items = JSON.stringify(state.payload.uiSpec?.items);
    const tools = JSON.stringify(state.payload.toolSchema);
    const other = JSON.stringify(engine.view().uiSpec?.items.slice(1));
    const variants = [
      // Broken around a member whose text is known.
      text.slice(0, -1),
      `${text} trailing`,
      text.replace(`"items":${items}`, `"items":${items}]`),
      text.replace(`"items":${items}`, `"items" ${items}`),
      text.replace('"payload":{', '"payload":{"x":"\\"'),
      // A key given twice: the parser keeps the last; the reader must not keep the first.
      text.replace(`"items":${items}`, `"items":${items},"items":${other}`),
      text.replace(`"items":${items}`, `"items":${other},"items":${items}`),
      text.replace('"uiSpec":{', `"uiSpec":{"items":${items}},"uiSpec":{`),
      text.replace('"payload":{', `"payload":{"toolSchema":${tools}},"payload":{`),
      // A key written with an escape names the same member.
      text.replace(`"items":${items}`, `"\\u0069tems":${other},"items":${items}`),
      text.replace(`"items":${items}`, `"items":${items},"\\u0069tems":${other}`),
      // Members where the contract does not have them, and a state the contract refuses but the agent reads.
      text.replace('"payload":{', `"payload":{"extra":{"items":${items}},`),
      text.replace('"source":"host"', '"source":"participant"'),
      text.replace('"v":"mvp-0.2"', '"v":"mvp-0.3"'),
      text.replace('"type":"state.updated"', '"type":"tool.result"'),
      text.replace('"type":"state.updated"', '"type":"snapshot.state","sessionId":"s-1"'),
      // An item the contract refuses inside a changed member, beside known ones.
      text.replace(`"visibleItems":${items}`, `"visibleItems":[{"id":"","value":1}]`),
    ];
    for (const variant of variants) {
      expect(variant).not.toBe(text);
      const reader = new FrameReader();
      expect(reader.read(text).ok).toBe(true);
      expect(reader.read(variant), variant.slice(0, 120)).toEqual(readFrame(variant));
      // And the known members are still read right after it.
      expect(reader.read(text)).toEqual(readFrame(text));
    }
  });

  it('lets go of the members neither of the last two states carried; keeps those that come and go between them', () => {
    const engine = newEngine();
    const view = engine.view();
    const state = (n: number) => {
      const items = view.uiSpec?.items.map((item) => ({ ...item, value: `${item.value} ${n}` })) ?? [];
      return JSON.stringify(
        createMessage('state.updated', {
          source: 'host',
          ...view,
          uiSpec: view.uiSpec && { ...view.uiSpec, items, visibleItems: items },
        }),
      );
    };
    const reader = new FrameReader();
    const first = itemsOf(reader.read(state(0)));
    reader.read(state(1));
    // Back to the first records one state later: still known.
    expect(itemsOf(reader.read(state(0)))).toBe(first);
    reader.read(state(1));
    reader.read(state(2));
    // Two states without them: let go, and read anew.
    const again = reader.read(state(0));
    expect(itemsOf(again)).not.toBe(first);
    expect(again).toEqual(readFrame(state(0)));
    // The tools every state carried, and the records of the last two: nothing else is kept.
    expect(reader.members.size.entries).toBe(3);
    // A connection closed for good lets go of everything.
    reader.members.clear();
    expect(reader.members.size).toEqual({ entries: 0, chars: 0 });
    expect(itemsOf(reader.read(state(0)))).not.toBe(itemsOf(again));
  });

  it('keeps at most the members and characters its limits allow', () => {
    const reader = new FrameReader({ entries: 3, chars: 20_000, minChars: 100 });
    const engine = newEngine();
    const view = engine.view();
    for (let n = 0; n < 30; n++) {
      const items = view.uiSpec?.items.map((item) => ({ ...item, value: `${item.value} ${n}` })) ?? [];
      const text = JSON.stringify(
        createMessage('state.updated', {
          source: 'host',
          ...view,
          uiSpec: view.uiSpec && { ...view.uiSpec, items, visibleItems: items },
        }),
      );
      expect(reader.read(text)).toEqual(readFrame(text));
      expect(reader.members.size.entries).toBeLessThanOrEqual(3);
      expect(reader.members.size.chars).toBeLessThanOrEqual(20_000);
    }
    expect(reader.members.size.entries).toBeGreaterThan(0);
  });
});

describe('scanFrame', () => {
  it('judges depth as exceedsDepth does, on any brackets, strings and escapes', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = ['[', ']', '{', '}', '"', '\\', ',', ':', 'a', ' '];
    for (let n = 0; n < 2000; n++) {
      const length = Math.floor(random() * 200);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const limit = 1 + Math.floor(random() * 8);
      expect(scanFrame(text, limit).tooDeep, text).toBe(exceedsDepth(text, limit));
    }
  });

  it('finds where the members lie, and none when a key on the way is given twice or escaped', () => {
    const text = '{"v":"mvp-0.2","payload":{"uiSpec":{"items":[{"id":"a"}],"visibleItems":[]},"toolSchema":[1]}}';
    const found = scanFrame(text).members;
    expect(
      Object.fromEntries([...(found ?? [])].map(([path, span]) => [path, text.slice(span.start, span.end)])),
    ).toEqual({
      'payload.uiSpec.items': '[{"id":"a"}]',
      'payload.uiSpec.visibleItems': '[]',
      'payload.toolSchema': '[1]',
    });
    expect(scanFrame('{"payload":{"uiSpec":{},"uiSpec":{"items":[]}}}').members).toBeNull();
    expect(scanFrame('{"payload":{"uiSpec":{"\\u0069tems":[]}}}').members).toBeNull();
    expect(scanFrame('{"payload":{"note":"\\"items\\":[1]","toolSchema":[2]}}').members?.size).toBe(1);
  });
});
