import { describe, expect, it } from 'vitest';
import { RequestLedger } from './ledger.ts';

const frames = (ledger: RequestLedger) => ledger.replay().map((r) => r.frame);

describe('RequestLedger', () => {
  it('replays the latest frame of each slot, in protocol order, for the requests being answered', () => {
    const ledger = new RequestLedger();
    expect(ledger.begin('r1')).toBe(true);
    expect(ledger.begin('r1')).toBe(false);
    ledger.record('r1', 'added', 'added 1', true);
    ledger.record('r1', 'created', 'created', true);
    ledger.record('r1', 'added', 'added 2', true);
    expect(ledger.requestIds()).toEqual(['r1']);
    expect(frames(ledger)).toEqual(['created', 'added 2']);
    ledger.record('r1', 'end', 'completed', true);
    ledger.finish('r1');
    expect(ledger.isActive('r1')).toBe(false);
    expect(ledger.answered('r1')).toEqual(['created', 'added 2', 'completed']);
    ledger.record('r1', 'added', 'after the end', false);
    expect(ledger.answered('r1')).toEqual(['created', 'added 2', 'completed']);
  });

  it('never replays a finished request whose frames all went out (regression: an old completion ended a newer request of the same session)', () => {
    const ledger = new RequestLedger();
    ledger.begin('old');
    ledger.record('old', 'created', 'created', true);
    ledger.record('old', 'added', 'added', true);
    ledger.record('old', 'end', 'completed', true);
    ledger.finish('old');
    expect(ledger.replay()).toEqual([]);
    expect(ledger.requestIds()).toEqual([]);
    // A chat_message sent again for it is still answered with what it said.
    expect(ledger.answered('old')).toEqual(['created', 'added', 'completed']);
  });

  it('replays of a finished request only the frames that never reached an open socket, once', () => {
    const ledger = new RequestLedger();
    ledger.begin('r');
    ledger.record('r', 'created', 'created', true);
    ledger.record('r', 'added', 'added 1', true);
    ledger.record('r', 'added', 'added 2', false);
    ledger.record('r', 'end', 'completed', false);
    ledger.finish('r');
    const resend = ledger.replay();
    expect(resend.map((r) => r.frame)).toEqual(['added 2', 'completed']);
    expect(ledger.requestIds()).toEqual(['r']);
    ledger.delivered(resend[0] as (typeof resend)[0]);
    // Its end has not left: the answer goes again with it, however it went before.
    expect(frames(ledger)).toEqual(['added 2', 'completed']);
    ledger.delivered(resend[1] as (typeof resend)[0]);
    expect(ledger.replay()).toEqual([]);
  });

  it('sends a finished answer again with its end when only the end never left (the answer may have been lost with the connection)', () => {
    const ledger = new RequestLedger();
    ledger.begin('r');
    ledger.record('r', 'created', 'created', true);
    ledger.record('r', 'added', 'the booking is confirmed', true);
    ledger.record('r', 'end', 'completed', false);
    ledger.finish('r');
    expect(frames(ledger)).toEqual(['the booking is confirmed', 'completed']);
  });

  it('names a request being answered even before it has sent anything', () => {
    const ledger = new RequestLedger();
    ledger.begin('fresh');
    expect(ledger.replay()).toEqual([]);
    expect(ledger.requestIds()).toEqual(['fresh']);
  });

  it('forgets answered requests beyond the last 32, oldest first', () => {
    const ledger = new RequestLedger();
    for (let i = 0; i < 40; i++) {
      ledger.begin(`r${i}`);
      ledger.record(`r${i}`, 'end', `end ${i}`, false);
      ledger.finish(`r${i}`);
    }
    ledger.begin('running');
    expect(ledger.requestIds()).toEqual(['running', ...Array.from({ length: 32 }, (_, i) => `r${i + 8}`)]);
    expect(ledger.answered('r7')).toBeNull();
    expect(ledger.answered('r8')).toEqual(['end 8']);
  });
});
