/**
 * The operator's terminal UI (issue 5): an Ink app that spawns the agent runtime and speaks the
 * JSON-RPC 2.0 NDJSON stdio protocol to it (`specs/ui-protocol-stdio.ja.md`).
 */
export { ClientError, type IncomingUiRequest, RpcError, RuntimeClient, type RuntimeClientOptions } from './client.ts';
export { COMMANDS, type Command, type Input, parseInput } from './commands.ts';
export { type Dialog, TuiController, type TuiControllerOptions, type TuiSnapshot } from './controller.ts';
export { formatDuration, statusLine, statusText, stepLine } from './format.ts';
export { type RunTuiOptions, runTui } from './run.tsx';
export { parseCommandLine, type RuntimeExit, RuntimeProcess } from './runtime-process.ts';
