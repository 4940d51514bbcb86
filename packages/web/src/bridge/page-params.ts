import { RoomIdSchema } from '@usher/protocol';

/** What the page's URL says: `?room=default&study=pilot-01&participant=P07&token=…&dev=1`. */
export interface PageParams {
  room: string;
  study: string | null;
  participant: string | null;
  /** Open the developer panel at start. */
  dev: boolean;
  /** The study link's credential (the room's host token), for a server with access control. */
  token: string | null;
}

const label = (value: string | null) => (value && /^[\w.-]{1,128}$/.test(value) ? value : null);

/** Reads the page's parameters; a room name that is not valid falls back to `default`. */
export function readPageParams(search: string): PageParams {
  const params = new URLSearchParams(search);
  const room = RoomIdSchema.safeParse(params.get('room') ?? 'default');
  return {
    room: room.success ? room.data : 'default',
    study: label(params.get('study')),
    participant: label(params.get('participant')),
    dev: params.get('dev') === '1' || params.get('dev') === 'true',
    token: /^[\w.-]{1,2048}$/.test(params.get('token') ?? '') ? params.get('token') : null,
  };
}
