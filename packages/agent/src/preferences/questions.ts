import type { PreferenceModel } from './types.ts';

/*
 * What the reader could not settle, as one short question each. Only doubts that could change the
 * booking are asked about: how many are coming when the message names people without a number
 * ("me and the kids"), and words no rule read that hold a number ("book for 7": seven people or
 * 7pm?). Filler words ("please", "hi", "something") are no doubt.
 */

const UNCOUNTED =
  /\b(?:my|our|the)\s+(?:kids|children|little ones|friends|mates|family|grandkids|grandchildren|gang|lot)\b/i;

/** Questions still open after a message: a new doubt, or an old one the message did not settle. */
export function openQuestions(before: PreferenceModel, after: PreferenceModel, text: string, rest: string): string[] {
  const questions: string[] = [];
  const counted = after.hard.some((c) => c.kind === 'seatCount');
  const partyUnknown = UNCOUNTED.test(text) || (before.questions ?? []).includes(HOW_MANY);
  if (partyUnknown && !counted) questions.push(HOW_MANY);
  const number = /\b\d{1,4}\b/.exec(rest);
  if (number) questions.push(`What did you mean by "${around(text, number.index, number[0].length)}"?`);
  return questions;
}

export const HOW_MANY = 'How many tickets do you need, and how old are any children coming?';

/** The words around an unread number, as the participant wrote them (after corrections). */
function around(text: string, index: number, length: number): string {
  const before = text.slice(0, index).split(/\s+/).filter(Boolean).slice(-2);
  const after = text
    .slice(index + length)
    .split(/[\s,.;!?]+/)
    .filter(Boolean)
    .slice(0, 1);
  return [...before, text.slice(index, index + length), ...after].join(' ').replace(/[,.;!?]+$/, '');
}

/* Words that say nothing about the booking: left unread without doubt. */
const FILLER = new Set(
  "a an the and or but so to for of on in at by with me my we us our i i'm you it is are be can could would will please thanks thank hi hello hey ok okay yes no just some something anything any one get book see watch want need like love would like to go going want movie film films movies ticket tickets showing show let's lets that this what's whats good".split(
    ' ',
  ),
);

/** The words no rule used, filler left out: what the agent may say it did not follow. */
export function unreadWords(rest: string): string[] {
  return rest
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter((w) => w !== '' && !FILLER.has(w));
}
