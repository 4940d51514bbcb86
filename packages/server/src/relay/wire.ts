import { PROTOCOL_VERSION } from '@usher/protocol';

/**
 * Serializes an envelope around a payload that is already JSON. The relay stringifies each
 * payload once and uses the text both for the study log and for the frame it forwards.
 */
export function envelopeText(
  type: string,
  payloadJson: string,
  ids: { id?: string | undefined; replyTo?: string | undefined } = {},
): string {
  let text = `{"v":"${PROTOCOL_VERSION}","type":${JSON.stringify(type)}`;
  if (ids.id !== undefined) text += `,"id":${JSON.stringify(ids.id)}`;
  if (ids.replyTo !== undefined) text += `,"replyTo":${JSON.stringify(ids.replyTo)}`;
  return `${text},"payload":${payloadJson}}`;
}
