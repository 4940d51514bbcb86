import { hits, span } from './match.ts';
import { ALSO_SAID, clauseAt, clauseStrength, DAY_BRIDGE, polarity } from './text.ts';
import type { Draft, Hit, Rule, Scan } from './types.ts';

/*
 * Calendar words → `date` constraints, resolved against the study's "today". Arithmetic runs
 * in UTC on `YYYY-MM-DD` strings, as in @usher/booking, so results never depend on time zones.
 */

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;

function utc(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
}
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The date `days` after `date`. */
export function addDays(date: string, days: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}

/** 0 for Sunday … 6 for Saturday. */
export function weekdayIndex(date: string): number {
  return utc(date).getUTCDay();
}

/** "Sun 22 Nov", the label the booking UI uses. */
export function shortDateLabel(date: string): string {
  const d = utc(date);
  const weekday = WEEKDAYS[d.getUTCDay()] ?? '';
  const month = MONTHS[d.getUTCMonth()] ?? '';
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1, 3);
  return `${cap(weekday)} ${d.getUTCDate()} ${cap(month)}`;
}

/** The first date on or after `today` that falls on `weekday` (today itself counts). */
export function nextWeekday(today: string, weekday: number): string {
  return addDays(today, (weekday - weekdayIndex(today) + 7) % 7);
}

/** The Saturday and Sunday of the coming weekend, leaving out days already past. */
export function weekendDates(today: string): string[] {
  if (weekdayIndex(today) === 0) return [today];
  const saturday = nextWeekday(today, 6);
  return [saturday, addDays(saturday, 1)];
}

/** Days named by a count ("in two days"). */
const DAY_COUNTS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

/** Today and the days after it up to Friday (none on a weekend). */
export function weekdaysBeforeWeekend(today: string): string[] {
  const day = weekdayIndex(today);
  if (day === 0 || day === 6) return [];
  return Array.from({ length: 6 - day }, (_, i) => addDays(today, i));
}

/** Monday to Friday after the coming weekend. */
export function weekdaysAfterWeekend(today: string): string[] {
  const monday = addDays(today, (1 - weekdayIndex(today) + 7) % 7 || 7);
  return Array.from({ length: 5 }, (_, i) => addDays(monday, i));
}

/** The weekdays (Monday to Friday) among today and the six days after it. */
export function weekdaysAhead(today: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(today, i)).filter((d) => {
    const day = weekdayIndex(d);
    return day !== 0 && day !== 6;
  });
}

/**
 * "Next weekend": said during a weekend, the following one; said on a weekday, the coming one
 * (people use it both ways on weekdays; the nearer reading keeps the most showings in play).
 */
export function nextWeekendDates(today: string): string[] {
  const day = weekdayIndex(today);
  if (day !== 0 && day !== 6) return weekendDates(today);
  const saturday = addDays(today, day === 6 ? 7 : 6);
  return [saturday, addDays(saturday, 1)];
}

/** The Monday of the week after this one (a week on, when today is Monday). */
export function mondayAfter(today: string): string {
  return addDays(today, (8 - weekdayIndex(today)) % 7 || 7);
}

/** The Saturday and Sunday `weeks` weeks after this weekend's (the one under way, on a Sunday). */
export function weekendAfter(today: string, weeks: number): string[] {
  const day = weekdayIndex(today);
  const saturday = addDays(day === 0 ? addDays(today, -1) : nextWeekday(today, 6), 7 * weeks);
  return [saturday, addDays(saturday, 1)];
}

/** A day and month (1-based) without a year: this year, or next year when already past. */
export function resolveDayMonth(today: string, day: number, month: number, year?: number): string | undefined {
  const make = (y: number) => {
    const d = new Date(Date.UTC(y, month - 1, day));
    return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? iso(d) : undefined;
  };
  const thisYear = utc(today).getUTCFullYear();
  if (year !== undefined) return make(year);
  const date = make(thisYear);
  return date !== undefined && date < today ? make(thisYear + 1) : date;
}

/** "The 24th": this month if not yet past, otherwise next month. */
export function resolveDayOfMonth(today: string, day: number): string | undefined {
  const t = utc(today);
  for (let ahead = 0; ahead < 3; ahead++) {
    const d = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + ahead, day));
    if (d.getUTCDate() === day && iso(d) >= today) return iso(d);
  }
  return undefined;
}

/**
 * "Sorry, I meant next sunday", "no, the friday after": said when the day held is that weekday, a
 * week later. Returns the day meant, or undefined when the words do not say so of `held`.
 */
export function weekLater(held: string, text: string): string | undefined {
  const m = WEEK_LATER.exec(text);
  const said = m?.[1] ?? m?.[2];
  return said !== undefined && weekdayOf(said) === weekdayIndex(held) ? addDays(held, 7) : undefined;
}

/** A weekday by its name or a usual short form, as a group. */
const WEEKDAY_WORD =
  '(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|weds|thu|thurs?|fri|sat|sun)';
/** "Next sunday", "the friday after": the weekday said (see {@link weekLater}). */
const WEEK_LATER = new RegExp(
  String.raw`\b(?:next\s+${WEEKDAY_WORD}|(?:the\s+)?${WEEKDAY_WORD}\s+after(?:\s+(?:that|next|this one))?(?!\s+\w+day\b))\b`,
  'i',
);
/** A day named by its weekday, "today"/"tonight" (group 2) or "tomorrow" (group 3). */
const DAY_NAMED = new RegExp(String.raw`\b(?:${WEEKDAY_WORD}|(today|tonight)|(tomorrow))\b`, 'gi');
/** Monday to Friday by name. */
const WORKDAY_NAMED = /\b(?:monday|tuesday|wednesday|thursday|friday|mon|tues?|wed|weds|thu|thurs?|fri)\b/gi;
/** Before a day, words that refuse it: "any weekday but friday". */
const REFUSED_DAY = /\b(?:not|no|except|but|apart from|other than|besides|excluding|never)\s+(?:on\s+)?(?:a\s+)?$/i;

/**
 * Whether a day from Monday to Friday is named and wished for as it stands (neither refused nor
 * hedged: "any weekday, ideally tuesday" still says any weekday), so that "a weekday" beside it only
 * says where to look.
 */
function namesOneWeekday(text: string): boolean {
  return [...text.matchAll(WORKDAY_NAMED)].some((m) => {
    const at = m.index ?? 0;
    return !REFUSED_DAY.test(text.slice(Math.max(0, at - 16), at)) && clauseStrength(text, at) !== 'soft';
  });
}

/** Any day named, short forms too: "what's on next week? … friday" names the day. */
const ANY_DAY_NAMED = new RegExp(String.raw`\b(?:${WEEKDAY_WORD}|today|tonight|tomorrow|tmrw)\b`, 'i');
const WEEKDAY = '(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|weds|thu|thurs?|fri)';
/* "On wed 9 dec": the "on" is read with the date, so "on wed" alone is not read as another day. */
const ANY_WEEKDAY = String.raw`(?:(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)`;
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const YEAR = String.raw`(?:,?\s+(\d{4}))?`;

const monthOf = (token: string) => MONTHS.findIndex((m) => token.toLowerCase().startsWith(m)) + 1;
const weekdayOf = (token: string) => WEEKDAYS.findIndex((w) => w.startsWith(token.toLowerCase().slice(0, 3)));

/* Days with a fixed date that people name instead of the date (see NAMED_DAYS). */
const NAMED_DAY =
  "(?:christmas|xmas)(?: eve| day)?|boxing day|new year'?s(?: eve| day)?|hall?owe'?en|valentine'?s(?: day)?";

/** The date patterns, each resolving a match to the dates it names (several for "this weekend"). */
const PATTERNS: Array<[string, (m: RegExpExecArray, today: string) => string[]]> = [
  [String.raw`(\d{4})-(\d{2})-(\d{2})`, (m, t) => opt(resolveDayMonth(t, Number(m[3]), Number(m[2]), Number(m[1])))],
  [String.raw`(?:the\s+)?day after tomorrow`, (_m, t) => [addDays(t, 2)]],
  // "I'm working friday. the day after", "a wedding on saturday. the night before instead?": the day
  // after (before) the last day named before it in the message.
  [
    String.raw`(?:the\s+)?(?:day|night|evening)\s+(after|before)(?!\s+(?:tomorrow|that|this|next|work|school|\w+ing)\b)(?=\s*(?:[,.;!?]|$|instead|then|please|pls|same|works|is|would))`,
    (m, t) => {
      // The last day named before it: a weekday, or "tomorrow or the day after".
      const said = [...m.input.slice(0, m.index).matchAll(DAY_NAMED)].at(-1);
      const step = /^before$/i.test(m[1] ?? '') ? -1 : 1;
      if (!said) return [];
      const day = said[2] ? t : said[3] ? addDays(t, 1) : nextWeekday(t, weekdayOf(said[1] ?? ''));
      return [addDays(day, step)];
    },
  ],
  // "They're away thursday. whichever is the next day after that": the days after the day named
  // before it in the message (the first that fits: see dateRule); "the day after that": the one day.
  [
    String.raw`(?:the\s+)?(?:(next|first|earliest)\s+)?day\s+after\s+(?:that|then|this)(?=\s|$|[,.;!?])`,
    (m, t) => {
      const said = [...m.input.slice(0, m.index).matchAll(new RegExp(String.raw`\b${WEEKDAY_WORD}\b`, 'gi'))].at(-1);
      if (!said) return [];
      const day = nextWeekday(t, weekdayOf(said[1] ?? ''));
      return m[1] ? Array.from({ length: 7 }, (_, i) => addDays(day, i + 1)) : [addDays(day, 1)];
    },
  ],
  // "In two days", "in 3 days' time", "three days from today": that many days from today.
  [
    String.raw`in\s+(a|one|two|three|four|five|six|\d)\s+days?(?:'?\s*time)?|(one|two|three|four|five|six|\d)\s+days?(?:'?\s*time|\s+(?:from|after)\s+(?:today|tonight|now))`,
    (m, t) => {
      const said = m[1] ?? m[2] ?? '';
      const n = DAY_COUNTS[said.toLowerCase()] ?? Number(said);
      return n >= 1 && n <= 6 ? [addDays(t, n)] : [];
    },
  ],
  // "A week today", "this day next week", "in a week's time": seven days on; "in a fortnight": fourteen.
  [
    String.raw`(?:a\s+week\s+(?:today|tonight|from\s+today|from\s+now)|(?:today|tonight)\s+week|(?:this|the\s+same)\s+day\s+next\s+week|in\s+(?:a|one)\s+week'?s?\s*time|(?:in\s+)?(a\s+fortnight|two\s+weeks)(?:\s+(?:today|from\s+today|from\s+now)|'?\s*time)?)`,
    (m, t) => [addDays(t, m[1] ? 14 : 7)],
  ],
  // "A week on Friday", "Friday week": that weekday a week after it next comes.
  [
    String.raw`a\s+week\s+(?:on\s+)?${WEEKDAY_WORD}|${WEEKDAY_WORD}\s+week\b`,
    (m, t) => [addDays(nextWeekday(t, weekdayOf(m[1] ?? m[2] ?? '')), 7)],
  ],
  // "Before the weekend": the days left until Friday; "after the weekend": the next Monday to Friday.
  [
    String.raw`(before|after)\s+the\s+weekend`,
    (m, t) => (m[1]?.toLowerCase() === 'before' ? weekdaysBeforeWeekend(t) : weekdaysAfterWeekend(t)),
  ],
  // "A weekday", "on weekdays", "any weeknight": Monday to Friday of the coming seven days (the
  // time rules read the night of a weeknight).
  // "A weekday matinee. tuesday": a weekday named firmly as well says which.
  [String.raw`(?:a|any|on|on a)?\s*week(?:day|night)s?`, (m, t) => (namesOneWeekday(m.input) ? [] : weekdaysAhead(t))],
  // "Friday to Sunday", "from mon till wed", "mon-wed next week": every day from the first to the
  // second; with "next week", in the week after this one; "next" before it, as for one day.
  [
    String.raw`(?:from\s+)?(?:(next)\s+)?${WEEKDAY_WORD}(?:\s*[-–]\s*|\s+(?:to|till|until|through|thru)\s+)${WEEKDAY_WORD}(?!\s*(?:\d|the\s+\d))(?:\s+(next)\s+week)?`,
    (m, t) => {
      const from = weekdayOf(m[2] ?? '');
      const coming = nextWeekday(t, from);
      const first = m[4] ? addDays(mondayAfter(t), (from + 6) % 7) : m[1] && coming === t ? addDays(t, 7) : coming;
      const span = (weekdayOf(m[3] ?? '') - from + 7) % 7;
      return Array.from({ length: span + 1 }, (_, i) => addDays(first, i));
    },
  ],
  // "Sometime next week", "one evening next week": Monday to Sunday of the next week. Not "next
  // weekend"; not "this week", which says as often that any day will do ("any day this week works").
  [
    String.raw`(?:(?:any\s+(?:day|time|evening|night|afternoon|morning)|sometime|some\s+time|some\s+(?:day|evening|night)|one\s+(?:day|evening|night)|at\s+some\s+point|during|in)\s+)?next\s+week(?!\s*(?:end|day|night|'s))\b`,
    (m, t) => {
      // "What's on next week? … friday": the day named is the wish; the week only says where to look.
      if (ANY_DAY_NAMED.test(m.input)) return [];
      return Array.from({ length: 7 }, (_, i) => addDays(mondayAfter(t), i));
    },
  ],
  [String.raw`today|tonight|this(?=\s+(?:evening|afternoon|morning)\b)`, (_m, t) => [t]],
  ['tomorrow|tmrw', (_m, t) => [addDays(t, 1)]],
  // "The weekend after this one", "the weekend after next": the weekend a week (two) after this one.
  [
    String.raw`(?:the\s+)?weekend\s+after\s+(?:(next)(?:\s+one)?|(?:this|the\s+(?:coming|next))(?:\s+one)?)`,
    (m, t) => weekendAfter(t, m[1] ? 2 : 1),
  ],
  [
    String.raw`(?:(this|next|the|on the|at the|over the)\s+)?weekend`,
    (m, t) => (m[1]?.toLowerCase() === 'next' ? nextWeekendDates(t) : weekendDates(t)),
  ],
  [
    `${ANY_WEEKDAY}?(?:the\\s+)?${DAY}\\s+(?:of\\s+)?${MONTH}\\.?${YEAR}`,
    (m, t) => opt(resolveDayMonth(t, Number(m[1]), monthOf(m[2] ?? ''), optNumber(m[3]))),
  ],
  [
    `${ANY_WEEKDAY}?${MONTH}\\.?\\s+(?:the\\s+)?${DAY}${YEAR}(?![:\\d])`,
    (m, t) => opt(resolveDayMonth(t, Number(m[2]), monthOf(m[1] ?? ''), optNumber(m[3]))),
  ],
  [
    // "Saturday the 28th", "next Sunday, the 29th": the day of the month says which one.
    String.raw`(?:(?:next|this|coming|on)\s+)?(?:${WEEKDAY}|sat|sun|saturday|sunday)\.?,?\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)(?!\s*(?:row|seat|place))`,
    (m, t) => opt(resolveDayOfMonth(t, Number(m[2]))),
  ],
  [
    String.raw`(?:(next|this|coming|on)\s+)?${WEEKDAY}\.?(?:s\b)?`,
    (m, t) => {
      const day = nextWeekday(t, weekdayOf(m[2] ?? ''));
      // "Next Saturday" said on a Saturday means a week ahead, not today; so does the second day
      // of "next tuesday or wednesday".
      const carried = NEXT_CARRIED.exec(m.input.slice(0, m.index));
      if (carried) {
        // Not before the first day said: "next saturday or sunday" is one weekend.
        const first = nextWeekday(t, weekdayOf(carried[1] ?? ''));
        const from = first === t ? addDays(t, 7) : first;
        return [day < from || day === t ? addDays(day, 7) : day];
      }
      return [m[1]?.toLowerCase() === 'next' && day === t ? addDays(t, 7) : day];
    },
  ],
  [
    // "encore sun, 2 ppl", "sat 7pm": "sat" and "sun" are days only where a day fits (after "on", before a comma, a period of the day or a clock).
    // After "this", "next" or "coming" they are days wherever they stand ("this sat please").
    String.raw`(?:(next|this|on|coming)\s+)?(sat|sun)\.?(?=\s*(?:[,.;!?]|$)|\s+(?:morning|afternoon|evening|night|nite|matinee|at|for)\b|\s+(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)|\d{1,2}[:.]\d{2})\b|\s+or\s+(?:sat|sun)\b)|(next|this|coming)\s+(sat|sun)\b\.?`,
    (m, t) => {
      const [prefix, word] = m[2] ? [m[1], m[2]] : [m[3], m[4]];
      const day = nextWeekday(t, weekdayOf(word ?? ''));
      return [prefix?.toLowerCase() === 'next' && day === t ? addDays(t, 7) : day];
    },
  ],
  // "Christmas day", "new year's eve": this year's, or next year's once past.
  [`(?:on\\s+)?(${NAMED_DAY})`, (m, t) => namedDay(t, m[1] ?? '')],
  [
    String.raw`(?:the|on)\s+(\d{1,2})(?:st|nd|rd|th)(?!\s*(?:row|seat|place))`,
    (m, t) => opt(resolveDayOfMonth(t, Number(m[1]))),
  ],
];
/** Days with a fixed date that people name instead of the date: day and month. */
const NAMED_DAYS: Array<[RegExp, number, number]> = [
  [/^(?:christmas|xmas) eve$/i, 24, 12],
  [/^(?:christmas|xmas)(?: day)?$/i, 25, 12],
  [/^boxing day$/i, 26, 12],
  [/^new year'?s eve$/i, 31, 12],
  [/^new year'?s(?: day)?$/i, 1, 1],
  [/^hall?owe'?en$/i, 31, 10],
  [/^valentine'?s(?: day)?$/i, 14, 2],
];

function namedDay(today: string, words: string): string[] {
  const found = NAMED_DAYS.find(([re]) => re.test(words.replace(/\s+/g, ' ')));
  return found ? opt(resolveDayMonth(today, found[1], found[2])) : [];
}
const opt = (d: string | undefined) => (d === undefined ? [] : [d]);
const optNumber = (s: string | undefined) => (s === undefined ? undefined : Number(s));

const DAY_NEGATION_REACH = 2;

/*
 * "Sunday works too", "also Monday": a fallback, which widens the days wanted as "afternoon works
 * too" widens a window (either day acceptable, the first still preferred); "either" adds. A
 * "too" before the word it qualifies ("too busy", "too late") is a degree, not "also".
 */
const WIDENING = ALSO_SAID;
const ADDING = /\beither\b/i;

/** "Next tuesday or …": the "next" is said of the day after "or" as well. */
const NEXT_CARRIED = new RegExp(String.raw`\bnext\s+${WEEKDAY_WORD}\s*(?:,|\bor\b|\/)\s*$`, 'i');
const NEXT_DAY = /^(?:the\s+)?(?:next|first|earliest)\s+day\s+after\b/i;

/** Dates: today, tonight, tomorrow, weekends, weekday names, explicit dates; "not Monday" drops one. */
export const dateRule: Rule = (scan) =>
  PATTERNS.flatMap(([source, resolve]) =>
    hits(scan, source, (m) => {
      const dates = resolve(m, scan.context.today).filter((d) => d >= scan.context.today);
      // "Before the weekend" said at the weekend names no day left, and is never the weekend itself.
      if (dates.length === 0) return /weekend/i.test(m[0]) ? { ...span(m), drafts: [] } : undefined;
      const drafts = dateDrafts(scan, m, dates);
      // "The next day after that" with a showing that fits: the earliest of those days.
      if (NEXT_DAY.test(m[0]) && drafts.some((d) => 'set' in d)) drafts.push({ set: { kind: 'earliest' } });
      return { ...span(m), drafts };
    }),
  );

function dateDrafts(scan: Scan, m: RegExpExecArray, dates: string[]): Hit['drafts'] {
  const at = m.index ?? 0;
  // A day is refused only right after the refusal ("not on Monday"): in "anything but the Hollow
  // House tonight" and "anything but horror on monday" the refusal ends with the film or genre.
  const p = polarity(scan.original, at, DAY_NEGATION_REACH, DAY_BRIDGE);
  if (p === 'skip') return [];
  if (p === 'negative') return dates.map((value): Draft => ({ remove: 'date', value }));
  const [start, end] = clauseAt(scan.original, at);
  const clause = scan.original.slice(start, end);
  // "Or sunday, whichever is cheaper" opening a message: one more day, not another.
  const orOpens = /^\s*(?:(?:oh|and)\s+)?or\b/i.test(scan.original.slice(0, at + m[0].length)) && start === 0;
  const mode = WIDENING.test(clause) ? 'widen' : ADDING.test(clause) || orOpens ? 'add' : 'replace';
  const drafts: Draft[] = [{ set: { kind: 'date', dates }, mode }];
  // "Tonight" is a time as well as a day: the evening, unless a clock time says otherwise; not the
  // evening of another day said with it ("tonight or tomorrow": tomorrow at any time).
  const otherDay = ANY_DAY_NAMED.test(clause.replace(/\btonight\b/gi, ' '));
  if (/^tonight$/i.test(m[0]) && !otherDay) drafts.push({ set: { kind: 'startTime', after: '17:00' }, rank: 0 });
  return drafts;
}
