/**
 * The recovery policy of spec §7: protocol errors (INVALID_MESSAGE, SESSION_NOT_ACTIVE), tool
 * errors (UNKNOWN_TOOL, INVALID_PARAMS, NO_ACTIVE_SPEC, TOOL_EXECUTION_FAILED) and runtime ones
 * (TIMEOUT_RESULT, TIMEOUT_STATE_UPDATE, DESYNC_DETECTED, DISCONNECTED) each get one response.
 */
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
    case 'UNREADABLE_REPLY':
      return 'resync';
    case 'INVALID_PARAMS':
      return alreadyRetried ? 'replan' : 'adjust-and-retry';
    default:
      return 'replan';
  }
}
