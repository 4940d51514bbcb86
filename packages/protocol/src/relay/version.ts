/** The protocol version every envelope carries in `v` (external-agent-protocol §3). */
export const PROTOCOL_VERSION = 'mvp-0.2';

/** The relay's WebSocket endpoint (external-agent-protocol §2). */
export const AGENT_WS_PATH = '/agent/ws';

/** Frames larger than this are answered with `INVALID_MESSAGE` and otherwise ignored. */
export const MAX_FRAME_BYTES = 1024 * 1024;
