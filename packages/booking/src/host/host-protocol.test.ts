import { createMessage, decodeMessage, type Message, type MessageType, type PayloadInputOf } from '@usher/protocol';
import { describe, expect, it, vi } from 'vitest';
import { BookingEngine } from '../engine/engine.ts';
import { defaultScenario } from '../scenario/default.ts';
import { HostProtocol } from './host-protocol.ts';

const clock = () => new Date('2026-11-21T18:00:00.000Z');
const newHost = (onFault?: (err: unknown) => void) =>
  new HostProtocol(new BookingEngine(defaultScenario(), { now: clock }), onFault);

function request<T extends MessageType>(type: T, payload: PayloadInputOf<T>, id = 'r1'): Message {
  return createMessage(type, payload, { id }) as Message;
}

const START = request('session.start', { studyId: 'pilot-01', participantId: 'P07', sessionId: 's-20261121-001' }, 's');
const types = (messages: Message[]) => messages.map((m) => m.type);

describe('HostProtocol', () => {
  it('starts a session: session.started, then state.updated from the host', () => {
    const host = newHost();
    const out = host.handle(START);
    expect(types(out)).toEqual(['session.started', 'state.updated']);
    expect(out[0]).toMatchObject({ replyTo: 's', payload: { sessionId: 's-20261121-001' } });
    expect(out[1]).toMatchObject({ payload: { source: 'host', uiSpec: { stage: 'movie' } } });
    expect(host.sessionId).toBe('s-20261121-001');
  });

  it('answers a tool call with tool.result and pushes state.updated naming the action', () => {
    const host = newHost();
    host.handle(START);
    const itemId = host.view().uiSpec?.visibleItems[0]?.id as string;
    const out = host.handle(request('tool.call', { toolName: 'select', params: { itemId }, reason: 'first' }, 't1'));
    expect(types(out)).toEqual(['tool.result', 'state.updated']);
    expect(out[0]).toMatchObject({ replyTo: 't1', payload: { ok: true, toolName: 'select' } });
    expect(out[1]).toMatchObject({ payload: { source: 'agent', action: { toolName: 'select', params: { itemId } } } });
  });

  it('answers a refused tool call with one error and pushes nothing', () => {
    const host = newHost();
    host.handle(START);
    const out = host.handle(request('tool.call', { toolName: 'next', params: {}, reason: 'skip' }, 't2'));
    expect(out).toEqual([
      expect.objectContaining({
        type: 'error',
        replyTo: 't2',
        payload: expect.objectContaining({ code: 'UNKNOWN_TOOL' }),
      }),
    ]);
  });

  it('reports a fault in the engine, answers TOOL_EXECUTION_FAILED and goes on', () => {
    const onFault = vi.fn();
    const host = newHost(onFault);
    host.handle(START);
    vi.spyOn(host.engine, 'apply').mockImplementationOnce(() => {
      throw new TypeError('bug');
    });
    const out = host.handle(
      request(
        'tool.call',
        { toolName: 'sort', params: { field: 'rating', order: 'desc' }, reason: 'best first' },
        't3',
      ),
    );
    expect(out).toEqual([
      expect.objectContaining({
        type: 'error',
        replyTo: 't3',
        payload: expect.objectContaining({ code: 'TOOL_EXECUTION_FAILED' }),
      }),
    ]);
    expect(onFault).toHaveBeenCalledWith(expect.any(TypeError));
    expect(types(host.handle(request('snapshot.get', {}, 't4')))).toEqual(['snapshot.state']);
  });

  it('ends a session: session.ended, then a reset announced by the host', () => {
    const host = newHost();
    expect(host.handle(request('session.end', {}, 'e0'))[0]).toMatchObject({
      type: 'error',
      payload: { code: 'SESSION_NOT_ACTIVE' },
    });
    host.handle(START);
    host.participantMessage('Something funny');
    const out = host.handle(request('session.end', { reason: 'done' }, 'e1'));
    expect(types(out)).toEqual(['session.ended', 'state.updated']);
    expect(out[0]).toMatchObject({ replyTo: 'e1', payload: { sessionId: 's-20261121-001', stateReset: true } });
    expect(out[1]).toMatchObject({ payload: { source: 'host', messageHistory: [], uiSpec: { stage: 'movie' } } });
    expect(host.sessionId).toBeNull();
  });

  it('plays the participant: user.message with the stage, and state.updated from the user', () => {
    const host = newHost();
    const said = host.participantMessage('Two seats, please');
    expect(types(said)).toEqual(['user.message', 'state.updated']);
    expect(said[0]?.payload).toEqual({ text: 'Two seats, please', stage: 'movie' });
    const itemId = host.view().uiSpec?.visibleItems[1]?.id as string;
    const acted = host.participantAction('select', { itemId });
    expect(acted).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({ source: 'user', action: { toolName: 'select', params: { itemId } } }),
      }),
    ]);
  });

  it('sends the same frames for the same inputs, each one valid against the contract', () => {
    const script = (host: HostProtocol) => [
      ...host.handle(START),
      ...host.participantMessage('Something with robots'),
      ...host.handle(
        request(
          'tool.call',
          { toolName: 'filter', params: { field: 'genre', operator: 'eq', value: 'Sci-Fi' }, reason: 'robots' },
          'f',
        ),
      ),
      ...host.handle(request('agent.message', { text: 'I kept the sci-fi films.' })),
      ...host.handle(request('snapshot.get', {}, 'g')),
    ];
    const first = script(newHost());
    expect(JSON.stringify(script(newHost()))).toBe(JSON.stringify(first));
    for (const message of first) expect(decodeMessage(JSON.parse(JSON.stringify(message))).ok).toBe(true);
  });
});
