import { MAX_ERROR_TEXT, MAX_FRAME_BYTES, type MessageOf, replyToOf, replyTypeOf } from '@usher/protocol';
import type { StudyLog } from '../study-log/study-log.ts';
import type { RelayCore } from './core.ts';
import { uiSpecStage } from './host-scan.ts';
import { type Inbound, loggedPayload } from './inbound.ts';
import type { Peer } from './peer.ts';
import type { Room } from './room.ts';
import { guardStep } from './step-guard.ts';
import { guardSubmit } from './submit-guard.ts';
import { envelopeText } from './wire.ts';

/*
 * Frames between a room's agents and its host (external-agent-protocol §4, DESIGN.md): an agent's
 * request is logged and forwarded with an id the room's pending requests do not use; the host's
 * answer goes back to whoever asked, once logged; its pushed states go to every agent and
 * observer. A frame that cannot be logged is not forwarded, and its sender hears why.
 */

/** A frame over the 1 MiB cap: refused; when it is a host's reply, its requester gets an error instead of silence. */
export function oversized(core: RelayCore, peer: Peer, data: Buffer): void {
  const why = `frame of ${data.length} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`;
  core.reject(peer, 'INVALID_MESSAGE', why);
  const room = peer.room;
  if (peer.role !== 'host' || !room) return;
  // Searched in the bytes, so a 16 MiB frame is not decoded whole for it.
  const at = data.indexOf('"replyTo"');
  const replyTo = at < 0 ? undefined : replyToOf(data.subarray(at, at + 200).toString('utf8'));
  const pending = replyTo === undefined ? undefined : room.pending.get(replyTo);
  if (!pending || replyTo === undefined) return;
  room.pending.delete(replyTo);
  core.answerError(room, pending, 'TOOL_EXECUTION_FAILED', `the host's reply was too large to forward (${why})`);
}

/** A host's reply the relay refused: its requester gets an error saying so. */
export function refusedReply(core: RelayCore, host: Peer, replyTo: string, why: string): void {
  const room = host.room;
  const pending = room?.pending.get(replyTo);
  if (!room || !pending) return;
  room.pending.delete(replyTo);
  core.answerError(room, pending, 'TOOL_EXECUTION_FAILED', `the host's reply was refused by the relay: ${why}`);
}

export function fromClient(core: RelayCore, peer: Peer, frame: Inbound): void {
  const { message, payloadJson } = frame;
  const room = peer.room as Room;
  const host = room.host;
  if (message.type === 'session.start') return startSession(core, peer, room, message);
  if (!room.study) {
    return core.reject(peer, 'SESSION_NOT_ACTIVE', 'no study session is active; send session.start first', message.id);
  }
  if (!host) return core.reject(peer, 'SESSION_NOT_ACTIVE', `no host in room "${room.id}"`, message.id);

  const logged = core.log(room, 'in', message.type, payloadJson, { id: message.id, peer: peer.name });
  // session.end goes on all the same: the host resets, and its reply frees the room and says what failed.
  if (!logged && message.type !== 'session.end') {
    return core.reject(
      peer,
      'TOOL_EXECUTION_FAILED',
      'the study log could not be written; nothing was forwarded',
      message.id,
    );
  }
  if (message.type === 'agent.proposal') room.approvals.proposed(message);
  if (message.type === 'agent.proposal') room.confirmation.proposed(message.payload.proposalId, message.payload.tool);
  if (replyTypeOf(message.type) === undefined) {
    // agent.message: the host only answers an invalid one, and the relay has checked it already.
    host.sendText(frame.verbatim ? frame.bytes : envelopeText(message.type, payloadJson, { id: message.id }));
    return;
  }
  let forwarded = payloadJson;
  if (message.type === 'tool.call') {
    // Logged as sent, then refused (logged too) or forwarded with the stage it was planned for.
    const unapproved = guardStep(core, room, message);
    if (unapproved) return core.reject(peer, 'TOOL_EXECUTION_FAILED', unapproved, message.id);
    const guarded = guardSubmit(core, room, message, payloadJson);
    if ('refused' in guarded) return core.reject(peer, 'TOOL_EXECUTION_FAILED', guarded.refused, message.id);
    forwarded = guarded.payloadJson;
  }
  const key = requestKey(room, message.id);
  room.pending.set(key, { peer, originalId: message.id, type: message.type, sentAt: core.now().getTime() });
  const unchanged = frame.verbatim && key === message.id && forwarded === payloadJson;
  host.sendText(unchanged ? frame.bytes : envelopeText(message.type, forwarded, { id: key }));
}

/**
 * The id a request carries to the host: the sender's own when no other pending request of the
 * room uses it (so the frame goes on unchanged), else one the relay makes up.
 */
function requestKey(room: Room, id: string | undefined): string {
  if (id !== undefined && !room.pending.has(id)) return id;
  let key = room.nextRequestId();
  while (room.pending.has(key)) key = room.nextRequestId();
  return key;
}

function startSession(core: RelayCore, peer: Peer, room: Room, message: MessageOf<'session.start'>): void {
  const { studyId, participantId } = message.payload;
  if (!room.host) return core.reject(peer, 'SESSION_NOT_ACTIVE', `no host in room "${room.id}"`, message.id);
  const active = room.study;
  if (active) {
    if (active.studyId !== studyId || active.participantId !== participantId) {
      return core.reject(
        peer,
        'INVALID_MESSAGE',
        `study session ${active.log.sessionId} (${active.studyId}/${active.participantId}) is active in room "${room.id}"; end it with session.end first`,
        message.id,
      );
    }
    // The same study and participant again (an agent reconnecting): the session goes on.
    const reply = JSON.stringify({ sessionId: active.log.sessionId });
    const logged =
      core.log(room, 'in', message.type, JSON.stringify(message.payload), { id: message.id, peer: peer.name }) &&
      core.log(room, 'out', 'session.started', reply, { replyTo: message.id, peer: peer.name });
    if (!logged) {
      return core.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be written; try again', message.id);
    }
    peer.sendText(envelopeText('session.started', reply, { replyTo: message.id }));
    return;
  }
  let log: StudyLog;
  try {
    log = core.openLog();
  } catch (err) {
    core.warn(`relay: cannot create a study log in ${core.options.logsDir}: ${(err as Error).message}`);
    return core.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be created', message.id);
  }
  room.study = { log, studyId, participantId };
  core.changed(room);
  if (!core.log(room, 'in', message.type, JSON.stringify(message.payload), { id: message.id, peer: peer.name })) {
    core.endStudy(room);
    return core.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be written', message.id);
  }
  const key = requestKey(room, message.id);
  room.pending.set(key, { peer, originalId: message.id, type: message.type, sentAt: core.now().getTime() });
  const forwarded = JSON.stringify({ ...message.payload, sessionId: log.sessionId });
  room.host.sendText(envelopeText(message.type, forwarded, { id: key }));
}

/** What a host sends of its own accord (not as a reply): to every agent and observer of the room. */
const PUSHED_BY_HOST = new Set(['state.updated', 'user.message', 'participant.proposal', 'error']);

export function fromHost(core: RelayCore, host: Peer, frame: Inbound): void {
  const { message } = frame;
  const room = host.room as Room;
  if (message.replyTo === undefined) {
    if (!PUSHED_BY_HOST.has(message.type)) {
      return core.reject(host, 'INVALID_MESSAGE', `${message.type} must answer a request (replyTo is missing)`);
    }
    if (message.type === 'participant.proposal') {
      room.approvals.decided(message);
      room.confirmation.decided(message.payload.proposalId, message.payload.decision);
    }
    if (message.type === 'state.updated') {
      core.stageOf(room, uiSpecStage(message.payload));
      room.confirmation.stateChanged(message.payload.source, message.payload.action?.toolName);
    }
    if (message.type === 'user.message') room.confirmation.participantSaid(message.payload.text);
    if (message.type === 'state.updated' && message.payload.source === 'user' && message.payload.action) {
      core.log(room, 'internal', 'participant.action', JSON.stringify(message.payload.action), { peer: host.name });
    }
    const { payloadJson, verbatim } = capped(core, frame);
    if (!core.log(room, 'out', message.type, loggedPayload(frame, payloadJson))) {
      return core.reject(host, 'TOOL_EXECUTION_FAILED', 'the study log could not be written; nothing was forwarded');
    }
    if (message.type === 'state.updated') room.lastState = payloadJson;
    const text = verbatim ? frame.bytes : envelopeText(message.type, payloadJson);
    for (const client of room.clients) client.sendText(text, { pushed: true });
    return;
  }

  const pending = room.pending.get(message.replyTo);
  if (!pending) {
    return core.reject(host, 'INVALID_MESSAGE', `replyTo "${message.replyTo}" answers no pending request`);
  }
  const expected = replyTypeOf(pending.type);
  if (message.type !== expected && message.type !== 'error') {
    const why = `${pending.type} is answered with ${expected} or error, not ${message.type}`;
    core.reject(host, 'INVALID_MESSAGE', why);
    return refusedReply(core, host, message.replyTo, why);
  }
  room.pending.delete(message.replyTo);
  if (message.type === 'snapshot.state') core.stageOf(room, uiSpecStage(message.payload));

  // The relay owns the study session: its id and its log file are the relay's to report.
  const study = room.study;
  let { payloadJson, verbatim } = capped(core, frame);
  if (message.type === 'session.started' && study) {
    payloadJson = JSON.stringify({ sessionId: study.log.sessionId });
    verbatim = false;
  } else if (message.type === 'session.ended' && study) {
    const logFile = core.displayPath(study.log.path);
    payloadJson = JSON.stringify({ sessionId: study.log.sessionId, logFile, stateReset: message.payload.stateReset });
    verbatim = false;
  }
  const logged = core.log(room, 'out', message.type, loggedPayload(frame, payloadJson), {
    replyTo: pending.originalId,
    peer: pending.peer.name,
  });
  if (message.type === 'session.ended' && study) {
    // session.ended goes out only once the log is complete and on disk; the room is freed either way.
    const flushed = core.endStudy(room);
    if (!logged || !flushed) {
      const why = `the study session ${study.log.sessionId} ended, but its log could not be completed on disk; it holds every record before this one`;
      return core.answerError(room, pending, 'TOOL_EXECUTION_FAILED', why);
    }
  } else if (!logged) {
    const why = `the host's ${message.type} could not be written to the study log, so it was not forwarded; the study goes on once the disk has room`;
    return core.answerError(room, pending, 'TOOL_EXECUTION_FAILED', why);
  }
  const unchanged = verbatim && pending.originalId === message.replyTo;
  pending.peer.sendText(
    unchanged ? frame.bytes : envelopeText(message.type, payloadJson, { replyTo: pending.originalId }),
  );
}

/** A host's frame with an error text over {@link MAX_ERROR_TEXT} is passed on with the text cut. */
function capped(core: RelayCore, frame: Inbound): { payloadJson: string; verbatim: boolean } {
  const { message } = frame;
  if (message.type !== 'error' || message.payload.message.length <= MAX_ERROR_TEXT) {
    return { payloadJson: frame.payloadJson, verbatim: frame.verbatim };
  }
  return { payloadJson: core.errorJson(message.payload.code, message.payload.message), verbatim: false };
}
