import * as chrono from 'chrono-node';
import { polarity } from './text.ts';
import type { Draft, Hit, Rule } from './types.ts';

/*
 * Dates the date rules do not know ("11/27", "27/11", "in 3 days", "3 days from now"), read by
 * chrono-node against the study's day, never the machine's clock. It runs after the date rules,
 * on what they left, and keeps only whole days written with a slash, a month or a count of days: a time of day is
 * the time rules' to read, and chrono's guesses from words alone ("a week") are not taken.
 */

const MONTH_WORD = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

function referenceOf(today: string): chrono.ParsingReference {
  const [y, m, d] = today.split('-').map(Number);
  // Noon of the study's day in UTC, read in UTC: no time zone moves the day.
  return { instant: new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, 12)), timezone: 0 };
}

/*
 * "9/12" is 12 September to an American and 9 December to most others. Both readings are taken
 * and the nearer one on or after the study's day wins: a booking is for the coming weeks.
 */
const DAY_MONTH_EITHER = /^(\d{1,2})\s*\/\s*(\d{1,2})\b/;

function nearerReading(result: chrono.ParsedResult, today: string, text: string): string {
  const us = result.start.date().toISOString().slice(0, 10);
  const parts = DAY_MONTH_EITHER.exec(result.text);
  if (!parts || Number(parts[1]) > 12 || Number(parts[2]) > 12 || parts[1] === parts[2]) return us;
  const other = chrono.en.GB.parse(text.slice(result.index), referenceOf(today), { forwardDate: true })[0];
  if (other?.index !== 0) return us;
  const gb = other.start.date().toISOString().slice(0, 10);
  if (gb < today) return us;
  return us < today || gb < us ? gb : us;
}

export const calendarRule: Rule = (scan) => {
  const { today } = scan.context;
  const results = chrono.en.casual.parse(scan.text, referenceOf(today), { forwardDate: true });
  const out: Hit[] = [];
  for (const r of results) {
    if (r.start.isCertain('hour') || !(r.start.isCertain('day') || r.start.isCertain('weekday'))) continue;
    // A slash date, a month, or a count of days or weeks: "3D" is a format, not the 3rd.
    if (!(/\d\s*\/\s*\d/.test(r.text) || MONTH_WORD.test(r.text) || /\d+\s+(?:days?|weeks?)\b/i.test(r.text))) continue;
    const date = nearerReading(r, today, scan.text);
    if (date < today) continue;
    const at = r.index;
    const p = polarity(scan.original, at);
    const drafts: Draft[] =
      p === 'skip'
        ? []
        : p === 'negative'
          ? [{ remove: 'date', value: date }]
          : [{ set: { kind: 'date', dates: [date] } }];
    out.push({ start: at, end: at + r.text.length, drafts });
  }
  return out;
};
