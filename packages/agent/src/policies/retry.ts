/**
 * The recovery policy of spec §7. Errors fall in three families; each code has one response.
 */
export type ErrorFamily = 'protocol' | 'tool' | 'runtime';

const FAMILIES: Record<string, ErrorFamily> = {
  INVALID_MESSAGE: 'protocol',
  SESSION_NOT_ACTIVE: 'protocol',
  UNKNOWN_TOOL: 'tool',
  INVALID_PARAMS: 'tool',
  NO_ACTIVE_SPEC: 'tool',
  TOOL_EXECUTION_FAILED: 'tool',
  TIMEOUT_RESULT: 'runtime',
  TIMEOUT_STATE_UPDATE: 'runtime',
  DESYNC_DETECTED: 'runtime',
  DISCONNECTED: 'runtime',
};

export function familyOf(code: string): ErrorFamily {
  return FAMILIES[code] ?? 'runtime';
}

/** What to do after a failed action. */
export type Recovery =
  /** Refresh with snapshot.get and rebuild the plan from the new toolSchema (UNKNOWN_TOOL, a host gone, timeouts, desync). */
  | 'resync'
  /** Try the same intent once more with adjusted params (the first INVALID_PARAMS). */
  | 'adjust-and-retry'
  /** Plan again from what is perceived now (a second INVALID_PARAMS, a refused action). */
  | 'replan'
  /** Tell the participant why and stop acting on its own (three failures on one stage). */
  | 'stop';

/** Failures on one stage after which the agent stops and says why (spec §7.4). */
export const MAX_FAILURES_PER_STAGE = 3;

/**
 * The recovery for a failure, given how many failures this stage has seen (this one included)
 * and whether this intent was already retried with adjusted params.
 */
export function recoveryFor(code: string, failuresOnStage: number, alreadyRetried: boolean): Recovery {
  if (failuresOnStage >= MAX_FAILURES_PER_STAGE) return 'stop';
  switch (code) {
    case 'UNKNOWN_TOOL':
    case 'SESSION_NOT_ACTIVE':
    case 'TIMEOUT_RESULT':
    case 'TIMEOUT_STATE_UPDATE':
    case 'DESYNC_DETECTED':
    case 'DISCONNECTED':
      return 'resync';
    case 'INVALID_PARAMS':
      return alreadyRetried ? 'replan' : 'adjust-and-retry';
    default:
      return 'replan';
  }
}
