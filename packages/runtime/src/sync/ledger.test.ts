import { describe, expect, it } from 'vitest';
import { RequestLedger } from './ledger.ts';

describe('RequestLedger', () => {
  it('keeps the latest frame of each slot, in protocol order, for the requests being answered', () => {
    const ledger = new RequestLedger();
    expect(ledger.begin('r1')).toBe(true);
    expect(ledger.begin('r1')).toBe(false);
    ledger.record('r1', 'added', 'added 1');
    ledger.record('r1', 'created', 'created');
    ledger.record('r1', 'added', 'added 2');
    expect(ledger.requestIds()).toEqual(['r1']);
    expect(ledger.replay()).toEqual(['created', 'added 2']);
    ledger.record('r1', 'end', 'completed');
    ledger.finish('r1');
    expect(ledger.isActive('r1')).toBe(false);
    expect(ledger.answered('r1')).toEqual(['created', 'added 2', 'completed']);
    ledger.record('r1', 'added', 'after the end');
    expect(ledger.replay()).toEqual(['created', 'added 2', 'completed']);
  });

  it('forgets answered requests beyond the last 32, oldest first', () => {
    const ledger = new RequestLedger();
    for (let i = 0; i < 40; i++) {
      ledger.begin(`r${i}`);
      ledger.record(`r${i}`, 'end', `end ${i}`);
      ledger.finish(`r${i}`);
    }
    ledger.begin('running');
    expect(ledger.requestIds()).toEqual(['running', ...Array.from({ length: 32 }, (_, i) => `r${i + 8}`)]);
    expect(ledger.answered('r7')).toBeNull();
    expect(ledger.answered('r8')).toEqual(['end 8']);
  });
});
