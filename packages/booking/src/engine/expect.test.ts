import { ProtocolError } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { HostProtocol } from '../host/host-protocol.ts';
import { driveTo, newEngine, spec } from '../testing/helpers.ts';

/*
 * A call acts on the stage it was planned for: a call naming in `expect` a stage or a revision
 * the page has left is refused, and nothing is done, on any host built on the engine.
 */

function refusal(run: () => unknown): { code: string; message: string } | null {
  try {
    run();
    return null;
  } catch (err) {
    if (err instanceof ProtocolError) return { code: err.code, message: err.message };
    throw err;
  }
}

describe('a tool call planned on a page that moved on', () => {
  it("does not submit: the agent's next planned for the ticket stage, after the participant's next", () => {
    const engine = driveTo(newEngine(), 'ticket');
    const planned = spec(engine);
    engine.apply('setQuantity', { typeId: 'adult', quantity: planned.state.selectedList?.length ?? 2 }, 'participant');
    const revision = spec(engine).meta?.revision as number;
    engine.apply('next', {}, 'participant');
    expect(spec(engine).stage).toBe('confirm');
    const refused = refusal(() => engine.apply('next', { expect: { stage: 'ticket', revision } }, 'agent'));
    expect(refused).toMatchObject({ code: 'TOOL_EXECUTION_FAILED' });
    expect(refused?.message).toMatch(/planned for the ticket stage, but the page is on the confirm stage now/);
    expect(engine.submitted()).toBeNull();
    expect(spec(engine).stage).toBe('confirm');
  });

  it('is refused when the page changed on the same stage since it was planned (another seat)', () => {
    const engine = driveTo(newEngine(), 'seat');
    const seen = spec(engine);
    const [a, b] = seen.visibleItems.filter((i) => !i.isDisabled).map((i) => i.id);
    engine.apply('select', { itemId: a as string }, 'participant');
    const refused = refusal(() =>
      engine.apply(
        'select',
        { itemId: b as string, expect: { stage: 'seat', revision: seen.meta?.revision } },
        'agent',
      ),
    );
    expect(refused?.code).toBe('TOOL_EXECUTION_FAILED');
    expect(refused?.message).toMatch(/the page has changed since/);
    expect(spec(engine).state.selectedList).toEqual([a]);
  });

  it('goes through when the page is as planned; the chat does not change the revision', () => {
    const engine = driveTo(newEngine(), 'date');
    const before = spec(engine).meta?.revision as number;
    engine.apply('postMessage', { text: 'hello' }, 'agent');
    engine.addMessage('participant', 'hi');
    expect(spec(engine).meta?.revision).toBe(before);
    engine.apply('sort', { field: 'value', order: 'desc', expect: { stage: 'date', revision: before } }, 'agent');
    expect(spec(engine).meta?.revision).toBe(before + 1);
    expect(spec(engine).modification).toEqual({ sort: { field: 'value', order: 'desc' } });
  });

  it('answers a malformed expect with INVALID_PARAMS, and postMessage takes none', () => {
    const engine = driveTo(newEngine(), 'movie');
    expect(refusal(() => engine.apply('prev', { expect: { stage: 'lobby' } }, 'agent'))?.code).toBe('INVALID_PARAMS');
    expect(refusal(() => engine.apply('postMessage', { text: 'x', expect: { stage: 'movie' } }, 'agent'))?.code).toBe(
      'INVALID_PARAMS',
    );
  });

  it('is answered with an error frame by the host protocol, and no state.updated follows', () => {
    const host = new HostProtocol(driveTo(newEngine(), 'ticket'));
    host.participantAction('setQuantity', { typeId: 'adult', quantity: 2 });
    host.participantAction('next');
    const frames = host.handle({
      v: 'mvp-0.2',
      type: 'tool.call',
      id: 'r1',
      payload: { toolName: 'next', params: { expect: { stage: 'ticket' } }, reason: 'the tickets are set' },
    } as never);
    expect(frames).toEqual([
      expect.objectContaining({
        type: 'error',
        replyTo: 'r1',
        payload: expect.objectContaining({ code: 'TOOL_EXECUTION_FAILED' }),
      }),
    ]);
    expect(host.engine.submitted()).toBeNull();
  });

  it('is declared in the toolSchema of every tool of a stage, not postMessage', () => {
    const engine = driveTo(newEngine(), 'seat');
    for (const tool of engine.view().toolSchema) {
      const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
      expect('expect' in properties, tool.name).toBe(tool.name !== 'postMessage');
    }
  });
});
