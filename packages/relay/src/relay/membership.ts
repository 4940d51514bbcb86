import type { MessageOf } from '@usher/protocol';
import { joinRefusal } from '../access/capabilities.ts';
import { limitKey } from '../access/client-address.ts';
import type { RelayCore } from './core.ts';
import type { Peer } from './peer.ts';
import { Room } from './room.ts';
import { envelopeText } from './wire.ts';

/** WebSocket close code sent to a host that another host replaced. */
export const CLOSE_REPLACED = 4001;
/** Close codes of the limits (RFC 6455 §7.4.1). */
export const CLOSE_POLICY = 1008;
export const CLOSE_TRY_LATER = 1013;

/*
 * Joining and leaving a room: the capability decides who may join as what, a host may replace
 * the room's host (whose pending requests are answered), and whoever is left is told.
 */

/** A peer's `relay.join`: refused (and closed) unless its capability allows it; else it joins, and the room hears of a new host. */
export function join(core: RelayCore, peer: Peer, message: MessageOf<'relay.join'>): void {
  const { role, sessionId: roomId } = message.payload;
  const refusal = joinRefusal(peer.capability, role, roomId);
  if (refusal) {
    core.warnings.once(
      `refused join ${peer.address}`,
      `relay: refused ${peer.name} from ${peer.address} joining room "${roomId}" as ${role}: ${refusal}`,
    );
    core.reject(peer, 'INVALID_MESSAGE', `not allowed: ${refusal}`, message.id);
    peer.ws.close(CLOSE_POLICY, 'not allowed');
    return;
  }
  const { hostJoining } = core.hooks;
  if (role === 'host' && hostJoining) {
    const address = limitKey(peer.address);
    const study = core.rooms.get(roomId)?.study;
    const uncounted = study != null && study.startedBy === undefined;
    const held = hostJoining.call(core.hooks, roomId, address, uncounted);
    // A session a restart reopened counts toward the first page that joins it (Relay.roomsHeldBy).
    if (!held && uncounted && study.startedBy === undefined) study.startedBy = address;
    if (held) {
      core.warn(`relay: refused ${peer.name} from ${peer.address} joining room "${roomId}" as host: ${held}`);
      core.reject(peer, 'SESSION_NOT_ACTIVE', held, message.id);
      peer.ws.close(CLOSE_TRY_LATER, 'try again later');
      return;
    }
  }
  let room = core.rooms.get(roomId);
  if (!room) {
    if (core.rooms.size >= core.limits.maxRooms) {
      const why = `the server holds its maximum of ${core.limits.maxRooms} rooms (maxRooms)`;
      core.warn(`relay: refused ${peer.name} a new room "${roomId}": ${why}`);
      core.reject(peer, 'SESSION_NOT_ACTIVE', why, message.id);
      peer.ws.close(CLOSE_TRY_LATER, 'too many rooms');
      return;
    }
    room = new Room(roomId);
    core.rooms.set(roomId, room);
  }
  if (peer.joinTimer) clearTimeout(peer.joinTimer);
  peer.role = role;
  peer.room = room;
  if (role === 'host') {
    room.hostlessSince = null;
    if (room.study) room.study.pageDeadline = null;
  } else if (room.host === null && room.hostlessSince === null) room.hostlessSince = core.now().getTime();
  let replaced = false;
  if (role === 'host') {
    const previous = room.host;
    if (previous) {
      replaced = true;
      detachHost(core, room, 'the host was replaced before answering; send the request again');
      previous.sendText(
        envelopeText(
          'error',
          core.errorJson('SESSION_NOT_ACTIVE', 'another host joined this room and replaced this one'),
        ),
      );
      previous.room = null;
      previous.ws.close(CLOSE_REPLACED, 'replaced by another host');
    }
    room.host = peer;
  } else {
    room.clients.add(peer);
  }
  core.log(room, 'internal', 'relay.join', JSON.stringify({ role, room: roomId, replaced }), { peer: peer.name });
  const study = room.study && {
    sessionId: room.study.log.sessionId,
    studyId: room.study.studyId,
    participantId: room.study.participantId,
  };
  const reply = { role, sessionId: roomId, studySession: study, hostPresent: room.host !== null };
  peer.sendText(envelopeText('relay.joined', JSON.stringify(reply), { replyTo: message.id }));
  if (role === 'host') {
    const notice = envelopeText('relay.joined', JSON.stringify({ role: 'host', sessionId: roomId, replaced }));
    for (const client of room.clients) client.sendText(notice, { pushed: true });
  }
  core.changed(room);
}

/** A peer's connection closed: it leaves its room; when it was the host, the agents hear so and their requests are answered. */
export function leave(core: RelayCore, peer: Peer): void {
  const room = peer.room;
  if (!room) return;
  peer.room = null;
  core.log(room, 'internal', 'relay.left', JSON.stringify({ role: peer.role }), { peer: peer.name });
  if (room.host === peer) {
    room.host = null;
    room.hostlessSince = core.now().getTime();
    detachHost(core, room, 'the host left before answering');
    const notice = envelopeText('error', core.errorJson('SESSION_NOT_ACTIVE', `the host left room "${room.id}"`));
    for (const client of room.clients) client.sendText(notice, { pushed: true });
  } else {
    room.clients.delete(peer);
    // Its requests stay pending: the host's answers still count (a session.end sent just before
    // leaving still ends the session and completes its log); they reach no one, which is harmless.
  }
  if (room.idle) core.rooms.delete(room.id);
  core.changed(room);
}

/** Answers every request still waiting on a host that is going away, so none goes unanswered. */
function detachHost(core: RelayCore, room: Room, why: string): void {
  for (const [relayId, pending] of room.pending) {
    room.pending.delete(relayId);
    core.answerError(room, pending, 'SESSION_NOT_ACTIVE', why);
  }
}
