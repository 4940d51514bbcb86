import { hits, span } from './match.ts';
import { parseCount } from './numbers.ts';
import { clauseAt, DAY_BRIDGE, exampleAfter, polarity } from './text.ts';
import type { Draft, Hit, Rule, Scan } from './types.ts';

/*
 * Clock words → `startTime` / `endTime` windows. Cinema hours decide ambiguities: a bare hour
 * from 1 to 11 ("before 8", "home by 11") is pm unless the clause says "morning" or "am", and a
 * time before 05:00 is after midnight, written 24:00–28:59 as the constraint model allows.
 */

/** `HH:MM` for minutes since the showing day's midnight; hours may pass 24. */
export function clock(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Minutes since midnight of an `HH:MM` time (hours up to 47). */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

const HOUR = String.raw`(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
/** One clock time as written: "7", "7pm", "7:30 pm", "19:30", "seven o'clock", "8ish", "noon". */
export const CLOCK = String.raw`(?:noon|midday|midnight|(?:half|quarter) past ${HOUR}(?:\s*(?:am|pm))?|half ${HOUR}(?!\s*(?:an?\s+hour|hours?|price|off))(?:\s*(?:am|pm))?|quarter to ${HOUR}(?:\s*(?:am|pm))?|${HOUR}(?:[:.]\d{2})?(?:\s*(?:am|pm|o'?clock))?(?:-?ish)?)`;
/* A number followed by these whole words is a count or an amount, not a time ("8 stars", but "8pm start"). */
const NOT_A_TIME = String.raw`(?!\s*(?:(?:kms?|kilomet(?:er|re)s?|mi|miles?|people|persons?|tickets?|seats?|adults?|kids?|child|children|seniors?|dollars|bucks|euros?|usd|of us|rows?|stars?|hours?|hrs?|minutes?|mins?)(?!\w)|%|/))`;
const EARLY_CUTOFF = 5 * 60;

/**
 * Minutes since midnight for a clock phrase, or undefined. `morning` turns off the pm guess.
 * `explicit` is false for a bare number ("8"), which only counts after a time word.
 */
export function parseClock(text: string, morning = false): { minutes: number; explicit: boolean } | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'noon' || t === 'midday') return { minutes: 12 * 60, explicit: true };
  if (t === 'midnight') return { minutes: 24 * 60, explicit: true };
  // "half past ten", "quarter to eight": said of a clock, so as explicit as "10:30".
  // British "half 10" is half past ten.
  const spoken = /^(half|quarter) (past|to) (\S+)(\s*(?:am|pm))?$/.exec(t.replace(/^half (?!past\b)/, 'half past '));
  if (spoken) {
    const base = parseClock(`${spoken[3]}${spoken[4] ?? ''}`, morning);
    if (!base) return undefined;
    const offset = spoken[1] === 'half' ? 30 : spoken[2] === 'past' ? 15 : -15;
    return { minutes: base.minutes + offset, explicit: true };
  }
  const m = /^([a-z]+|\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|o'?clock)?(-?ish)?$/.exec(t);
  const hour = parseCount(m?.[1] ?? '');
  const minute = Number(m?.[2] ?? 0);
  if (!m || hour === undefined || hour > 23 || minute > 59) return undefined;
  const suffix = m[3] ?? '';
  let h = hour;
  if (suffix === 'pm' && h < 12) h += 12;
  else if (suffix === 'am' && h === 12) h = 0;
  else if (suffix !== 'am' && !morning && h >= 1 && h <= 11) h += 12;
  let minutes = h * 60 + minute;
  if (minutes < EARLY_CUTOFF) minutes += 24 * 60;
  // A bare "8" or "seven" is a time only after a time word ("at", "before"); "one" alone is not a time,
  // "8ish" is.
  return { minutes, explicit: suffix !== '' || m[2] !== undefined || m[4] !== undefined };
}

const isMorning = (scan: Scan, at: number) => {
  const [start, end] = clauseAt(scan.original, at);
  return /\b(?:morning|am)\b/i.test(scan.original.slice(start, end));
};

function readClock(scan: Scan, at: number, text: string | undefined, needExplicit: boolean) {
  const parsed = parseClock(text ?? '', isMorning(scan, at));
  if (!parsed || (needExplicit && !parsed.explicit)) return undefined;
  return parsed.minutes;
}

type Kind = 'startTime' | 'endTime';
const bound = (kind: Kind, side: 'after' | 'before', minutes: number): Draft => ({
  set: side === 'after' ? { kind, after: clock(minutes) } : { kind, before: clock(minutes) },
  mode: 'refine',
});
const window = (kind: Kind, after: number, before: number): Draft => ({
  set: { kind, after: clock(after), before: clock(before) },
});

const END_CUE = '(?:done|finish(?:ed|es|ing)?|end(?:s|ed|ing)?|over|out|home|back|wrapped up)';

/* A time said as a bound or a clock: what an example of "not too late" says instead. */
const CLOCK_BOUND = new RegExp(
  String.raw`\b(?:before|after|by|until|till|at|around|about|from|no later than)\s+${CLOCK}(?!\w)|\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b`,
  'i',
);

/**
 * End times: "done by 10pm", "finish before 22:30", "home by 11", "ending after 9"; a refused bound
 * turns round ("nothing that finishes after 11" ends before 23:00); "not too late" (vague), unless
 * an example right after says what it means ("not too late, like starting before 9").
 */
export const endTimeRule: Rule = (scan) => [
  ...hits(
    scan,
    // "out of the cinema by 6", "home from the film by 10": the place between says where from.
    `${END_CUE}(?:\\s+(?:of|from)\\s+(?:the\\s+)?(?:cinema|theat(?:er|re)|pictures|movies?|films?|there|the building))?\\s+(by|before|no later than|not later than|until|at|around)\\s+(${CLOCK})${NOT_A_TIME}`,
    (m) =>
      at(m, readClock(scan, m.index ?? 0, m[2], false), (t) => {
        const turns = !/^(?:at|around)$/i.test(m[1] ?? '') && refused(scan, m);
        return [bound('endTime', turns ? 'after' : 'before', t)];
      }),
  ),
  ...hits(scan, `${END_CUE}\\s+(?:after|later than|no earlier than)\\s+(${CLOCK})${NOT_A_TIME}`, (m) =>
    at(m, readClock(scan, m.index ?? 0, m[1], false), (t) => [
      bound('endTime', refused(scan, m) ? 'before' : 'after', t),
    ]),
  ),
  // "back in the office for 12 so it has to have finished by then": the clock said before.
  ...hits(scan, `${END_CUE}\\s+(?:by|before)\\s+then\\b`, (m) => {
    const before = scan.original.slice(0, m.index ?? 0);
    const said = [...before.matchAll(SAID_CLOCK)].at(-1);
    return said
      ? at(m, readClock(scan, said.index ?? 0, said[1], false), (t) => [bound('endTime', 'before', t)])
      : undefined;
  }),
  ...hits(scan, 'not (?:too|very|that) late', (m) => ({
    ...span(m),
    drafts: CLOCK_BOUND.test(exampleAfter(scan.original, span(m).end) ?? '')
      ? []
      : [{ set: { kind: 'endTime', before: '23:00' }, vague: true, mode: 'refine' }],
  })),
];

/**
 * A clock said of something else ("last train's at 11.15", "dinner is at 8", "the bus leaves at
 * 10"): the reason for a wish, never a start time. Read as nothing, so no later rule takes it.
 */
/** Words whose clock is the showing's own: "it's at 7", "the one that's at 9pm". */
const OWN_CLOCK =
  '(?:film|movie|flick|show|showing|screening|matinee|session|it|that|this|one|which|what|there|mine|ours)';
export const otherClockRule: Rule = (scan) =>
  hits(
    scan,
    String.raw`\b(?:(?!${OWN_CLOCK}\b)[a-z]+(?:'s|\s+is|\s+leaves|\s+departs|\s+goes|\s+closes)|(?:my|our|his|her|their|the)\s+(?!${OWN_CLOCK}\b)[a-z]+\s+(?:starts|begins|ends|finishes))\s+(?:at\s+)?(?:${CLOCK})${NOT_A_TIME}`,
    (m) => ({ ...span(m), drafts: [] }),
  ).concat(
    // "after my shift ends at 4", "before the football at 3", "before we eat at 7": the clock of
    // something else said with "after" or "before": the showing starts after it, or is over before it.
    hits(
      scan,
      // "After work at 6" stays the showing's start: with "after", only a verb says the clock is the other thing's.
      String.raw`\b(?:(before)\s+(?:(?:the|my|our|his|her|their)\s+)?(?!${OWN_CLOCK}\b)(?:[a-z']+\s+){1,3}?(?:(?:starts|begins|ends|finishes|kicks off|is|'s)\s+)?|(after)\s+(?:(?:the|my|our|his|her|their)\s+)?(?!${OWN_CLOCK}\b)(?:[a-z']+\s+){1,3}?(?:starts|begins|ends|finishes|kicks off|is over|is done|'s over|'s done)\s+)at\s+(${CLOCK})${NOT_A_TIME}`,
      (m) =>
        at(m, readClock(scan, m.index ?? 0, m[3], false), (t) => [
          m[1] ? bound('endTime', 'before', t) : bound('startTime', 'after', t),
        ]),
    ),
    // "I'm free from 2 till 6", "free between 2 and 6": the showing starts after the first and is over by the second.
    hits(
      scan,
      String.raw`\b(?:free|available|off)\s+(?:from\s+(${CLOCK})\s*(?:till|until|til|to|-|–)|between\s+(${CLOCK})\s*(?:and|-|–|to))\s*(${CLOCK})${NOT_A_TIME}`,
      (m) => {
        const from = readClock(scan, m.index ?? 0, m[1] ?? m[2], false);
        const to = from === undefined ? undefined : readClock(scan, m.index ?? 0, m[3], false);
        if (from === undefined || to === undefined) return { ...span(m), drafts: [] };
        // "From 2 till 6": the second is the afternoon's too when the first is.
        const end = to < from && to + 12 * 60 < 24 * 60 ? to + 12 * 60 : to;
        return { ...span(m), drafts: [bound('startTime', 'after', from), bound('endTime', 'before', end)] };
      },
    ),
    // "I pick the kids up from school at half 3", "dinner at 8", "my train at 11.15": another errand's clock.
    hits(
      scan,
      String.raw`(?<!\b(?:after|before)\s+)\b(?:${ERRANDS})\b[^.,;!?]{0,24}?\bat\s+(?:${CLOCK})${NOT_A_TIME}`,
      (m) => ({ ...span(m), drafts: [] }),
    ),
    // "after my last lecture? it finishes at 3.30", "once my shift's done, which ends at 5": the
    // errand's end, said after it, is when the showing may start.
    hits(
      scan,
      String.raw`\b(?:after|once)\s+(?:(?:my|our|his|her|their|the)\s+(?:[a-z]+\s+){0,2}?)?(?:${ERRANDS})s?\b(?:'s\s+(?:done|over|finished))?\s*[?.,;!-]*\s*(?:it|which|that|this|she|he|they)(?:'s|\s+is)?\s+(?:finishes|finished|ends|ended|done|over|gets out|lets out|wraps up)\s+(?:at\s+|by\s+|around\s+)?(${CLOCK})${NOT_A_TIME}`,
      (m) => at(m, readClock(scan, m.index ?? 0, m[1], false), (t) => [bound('startTime', 'after', t)]),
    ),
    // "straight after work, i finish at 5:30", "we get off at 6": the speaker's own day ends then,
    // so the showing starts after it; not "we need to be finished by 10", which is the film's end.
    hits(
      scan,
      String.raw`\b(?:i|we)(?:'m|\s+am|'re|\s+are)?\s+(?:finish|get off|clock off|knock off|get out|out|leave work|done|free)(?:\s+(?:work|school|uni|college|my shift|our shift))?\s+(?:at|around|about|from)\s+(${CLOCK})${NOT_A_TIME}(?!\s*(?:till|until|til|to|-|–)\s*${CLOCK})`,
      (m) => at(m, readClock(scan, m.index ?? 0, m[1], false), (t) => [bound('startTime', 'after', t)]),
    ),
    // "before the kids' bedtime (7:30)", "after work (5.30)": the clock in brackets is the event's;
    // the showing is over before it, or starts after it.
    hits(
      scan,
      String.raw`\b(before|after)\s+(?:(?:the|my|our|his|her|their)\s+)?(?:[a-z']+\s+){0,3}?\(\s*(?:at\s+|around\s+|about\s+|~\s*)?(${CLOCK})\s*\)`,
      (m) =>
        at(m, readClock(scan, m.index ?? 0, m[2], false), (t) => [
          /^before$/i.test(m[1] ?? '') ? bound('endTime', 'before', t) : bound('startTime', 'after', t),
        ]),
    ),
    // "before dinner on saturday, we eat at 7": the meal's clock is when the film must be over;
    // said without "before", it is only a reason.
    hits(
      scan,
      String.raw`\b(?:we|i|they)(?:'ll| will)?\s+(?:eat|have (?:dinner|tea|supper)|need to eat|have to eat)\s+(?:at|around|about)\s+(${CLOCK})${NOT_A_TIME}`,
      (m) => {
        const before = /\bbefore\s+(?:dinner|tea|supper|we eat|food)\b/i.test(scan.original);
        const minutes = readClock(scan, m.index ?? 0, m[1], false);
        return { ...span(m), drafts: before && minutes !== undefined ? [bound('endTime', 'before', minutes)] : [] };
      },
    ),
    // "10.30 is the morning one isn't it?", "the 7pm's the late showing": a clock said of which showing
    // it is, asked or told, not the time wished for.
    hits(
      scan,
      String.raw`(?:the\s+)?(?:${CLOCK})(?:\s+(?:one|showing|show|screening))?(?:'s|\s+is|\s+was)\s+(?:the|a|an)\s+(?:[a-z]+\s+){0,2}?(?:one|showing|show|screening)\b`,
      (m) => ({ ...span(m), drafts: [] }),
    ),
    // "the little one naps after lunch", "she sleeps in the afternoon": someone's rest, the reason for
    // a wish said elsewhere ("a morning showing"), never a time wished for.
    hits(
      scan,
      String.raw`\b(?:naps?|napping|sleeps|sleeping|has (?:a|her|his) (?:nap|sleep)|goes down)\s+(?:after|from|in the|at|around|about)\s+(?:lunch(?:time)?|afternoon|the afternoon|${CLOCK})${NOT_A_TIME}`,
      (m) => ({ ...span(m), drafts: [] }),
    ),
    // "she doesn't land until Friday night", "I was going to say Friday": a day that is not the wish.
    hits(
      scan,
      String.raw`\b(?:doesn'?t|does not|don'?t|do not|won'?t|will not|isn'?t|not)\s+(?:land|arrive|get (?:in|here|back)|finish|come back|fly in)\w*\s+(?:until|till|til)\s+(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|tomorrow|today|tonight)(?:\s+(?:morning|afternoon|evening|night))?\b|\b(?:i\s+)?(?:was|were)\s+(?:going to|gonna)\s+(?:say|do|go for|book|pick)\s+(?:on\s+)?(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|tomorrow|today|tonight)\b`,
      (m) => ({ ...span(m), drafts: [] }),
    ),
    // "I fly home first thing Friday", "we leave on sunday": the day the participant goes, not a day
    // for the film.
    hits(
      scan,
      String.raw`\b(?:i|we|she|he|they|i'm|we're|she's|he's|they're|and)\s+(?:(?:also|then|only)\s+)?(?:fly(?:ing)?|leave|leaving|head(?:ing)?|go(?:ing)?|travel(?:l?ing)?|drive|driving)\s+(?:back\s+)?(?:home|back|away|off)\s+(?:(?:first thing|early|late|on|in the)\s+)*(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|tomorrow)(?:\s+(?:morning|afternoon|evening|night))?\b`,
      (m) => ({ ...span(m), drafts: [] }),
    ),
    // "got an early start sunday", "early shift tomorrow": the reason for a wish, never a wish for the earliest or that day.
    hits(
      scan,
      String.raw`\b(?:got|have|'ve got|having|with)\s+(?:an?\s+|my\s+)?(?:early|late)\s+(?:start|morning|night|shift|flight|train|meeting)(?:\s+(?:on\s+)?(?:today|tomorrow|tmrw|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?))?\b`,
      (m) => ({ ...span(m), drafts: [] }),
    ),
    // "our lecture doesn't finish til 5", "I'm not free until 6": busy until then, a reason for a
    // wish ("so after that"), never the showing's end.
    hits(
      scan,
      String.raw`\b(?:${ERRANDS}|i|i'm|we|we're|he|she|they)\b[^.,;!?]{0,24}?\b(?:doesn'?t|does not|don'?t|do not|won'?t|will not|isn'?t|aren'?t|not)\s+(?:finish\w*|end\w*|get out|done|over|free|back|out)\s+(?:til|till|until)\s+(?:${CLOCK})${NOT_A_TIME}`,
      (m) => ({ ...span(m), drafts: [] }),
    ),
    // "I'm at work until 5 that day", "we're busy till 6", "working until 7 on friday": nobody can
    // start before then, so the showing starts after it (never "start before 5").
    hits(
      scan,
      String.raw`\b(?:at work|at school|at the office|in class|in (?:a )?meetings?|busy|working|on shift|stuck at work|on a shift)\s+(?:(?:on|that|on that)\s+\w+\s+)?(?:until|till|til)\s+(${CLOCK})${NOT_A_TIME}`,
      (m) => {
        const minutes = readClock(scan, m.index ?? 0, m[1], false);
        return minutes === undefined
          ? { ...span(m), drafts: [] }
          : { ...span(m), drafts: [bound('startTime', 'after', minutes)] };
      },
    ),
  );

/** What else people do at a time of day: its clock is a reason for a wish ("… so it must be over by 3"). */
const ERRANDS =
  'school|work|office|shift|dinner|tea|lunch|breakfast|supper|train|bus|flight|meeting|appointment|class|lesson|lecture|seminar|tutorial|practice|rehearsal|bedtime|babysitter|sitter|childminder|nanny|pick(?:ing)?\\s+(?:\\w+\\s+){0,3}?up|collect(?:ing)?';

/** A clock someone names as a time of day ("for 12", "at 11.30", "by 6pm"), which "then" can refer to. */
const SAID_CLOCK = new RegExp(String.raw`\b(?:at|for|by|before|until|till|til|around)\s+(${CLOCK})${NOT_A_TIME}`, 'gi');

function at(m: RegExpExecArray, minutes: number | undefined, drafts: (t: number) => Draft[]): Hit | undefined {
  return minutes === undefined ? undefined : { ...span(m), drafts: drafts(minutes) };
}

const AFTER = 'after|from|later than|not before|no earlier than|not earlier than|past|start(?:s|ing)? (?:after|from)';
const BEFORE = 'before|by|no later than|not later than|not after|earlier than|until|till|start(?:s|ing)? (?:before|by)';
const AROUND = 'around|about|approximately|roughly|circa|~';
const AT = 'at|start(?:s|ing)? at|for';
/** "Around 7" means within half an hour either side. */
export const AROUND_MINUTES = 30;

/** Start times: windows ("between 6 and 8pm"), bounds ("after 6pm", "before 8"), "around 7", "at 19:30". */
export const startTimeRule: Rule = (scan) => {
  const clockAt = (m: RegExpExecArray, text: string | undefined, needExplicit: boolean) =>
    readClock(scan, m.index ?? 0, text, needExplicit);
  return [
    ...hits(
      scan,
      `(?:between|from)\\s+(${CLOCK})\\s*(?:and|to|-|until|till)\\s*(${CLOCK})${NOT_A_TIME}|(${CLOCK})\\s*-\\s*(${CLOCK})${NOT_A_TIME}`,
      (m) => {
        const [a, b] = sharedSuffix(m[1] ?? m[3], m[2] ?? m[4]);
        // "6-9pm" needs a clear second time; "2-3" alone is more likely a count.
        const from = clockAt(m, a, false);
        const to = clockAt(m, b, m[4] !== undefined);
        return from !== undefined && to !== undefined && from <= to
          ? { ...span(m), drafts: [window('startTime', from, to)] }
          : undefined;
      },
    ),
    // "At 7 or half 7", "the 6:30 or 7pm one": either start, so any start from the first to the second.
    ...hits(
      scan,
      `(?:at|for|around|about)\\s+(${CLOCK})\\s+or\\s+(?:at\\s+)?(${CLOCK})${NOT_A_TIME}(?!\\s+(?:or later|or after|or earlier|or before|at the))`,
      (m) => {
        const [a, b] = sharedSuffix(m[1], m[2]);
        const from = clockAt(m, a, false);
        const to = clockAt(m, b, false);
        if (from === undefined || to === undefined || to <= from || to - from > 3 * 60) return undefined;
        return { ...span(m), drafts: [window('startTime', from, to)] };
      },
    ),
    ...hits(scan, `(?:${AROUND})\\s*(${CLOCK})${NOT_A_TIME}`, (m) =>
      at(m, clockAt(m, m[1], false), (t) => [window('startTime', t - AROUND_MINUTES, t + AROUND_MINUTES)]),
    ),
    // "We can't start before 6:30", "we cannot get there before 7:15": the earliest start.
    ...hits(
      scan,
      `(?:can'?t|cannot|can not|won'?t be able to|unable to|couldn'?t)\\s+(?:\\w+\\s+){0,2}?(?:before|earlier than|until|till)\\s+(${CLOCK})${NOT_A_TIME}`,
      (m) => at(m, clockAt(m, m[1], false), (t) => [bound('startTime', 'after', t)]),
    ),
    // "at 8pm or later": the "at" is the bound's, not an exact start; "around 8 or later" allows the
    // half hour before.
    ...hits(
      scan,
      `(?:${AFTER})\\s+(${CLOCK})${NOT_A_TIME}|(?:(at|from|around|about)\\s+)?(${CLOCK})\\s+(?:at the earliest|or later|or after|onwards?|and later)`,
      (m) =>
        at(m, clockAt(m, m[1] ?? m[3], false), (t) => {
          const from = /^(?:around|about)$/i.test(m[2] ?? '') ? t - AROUND_MINUTES : t;
          return [bound('startTime', refused(scan, m) ? 'before' : 'after', from)];
        }),
    ),
    ...hits(
      scan,
      `(?:${BEFORE})\\s+(${CLOCK})${NOT_A_TIME}|(?:at\\s+)?(${CLOCK})\\s+(?:at the latest|or earlier|or before)`,
      (m) =>
        at(m, clockAt(m, m[1] ?? m[2], false), (t) => [bound('startTime', refused(scan, m) ? 'after' : 'before', t)]),
    ),
    // "lecture doesn't finish til 5 so after that", "dinner at 8 and a film after that": the clock said before.
    ...hits(scan, String.raw`\b(?:after|from)\s+(?:that|then)\b`, (m) => {
      const said = [...scan.original.slice(0, m.index ?? 0).matchAll(SAID_CLOCK)]
        .filter((c) => !/^for\b/i.test(c[0]))
        .at(-1);
      return said
        ? at(m, readClock(scan, said.index ?? 0, said[1], false), (t) => [bound('startTime', 'after', t)])
        : undefined;
    }),
    ...hits(
      scan,
      `(?:(${AT})\\s+)?(${CLOCK})${NOT_A_TIME}(?!\\s*(?:am|pm)?\\s+(?:or later|or after|at the earliest|or earlier|or before|at the latest)\\b)`,
      (m) => {
        // Without "at", and always after "for" ("for 7" may be seven people), only a clear clock counts.
        const needExplicit = m[1] === undefined || /^for$/i.test(m[1]);
        const ish = /ish$/i.test(m[2] ?? '');
        return at(m, clockAt(m, m[2], needExplicit), (t) =>
          ish ? [window('startTime', t - AROUND_MINUTES, t + AROUND_MINUTES)] : [window('startTime', t, t)],
        );
      },
    ),
  ];
};

/* Words that may stand between a refusal and a bound it turns round: "nothing that starts after 9". */
const REFUSAL =
  /\b(?:no|not|nothing|none|don'?t want|do not want|doesn'?t want)\b((?:\s+(?:a|an|the|that|which|starting|starts|start|to|anything|something|showings?|shows?|films?|movies?|one|ones|screenings?))*)\s*$/i;

/** Whether a bound is refused ("nothing that starts after 9pm" is a start before 21:00). */
function refused(scan: Scan, m: RegExpExecArray): boolean {
  const [start] = clauseAt(scan.original, m.index ?? 0);
  return REFUSAL.test(scan.original.slice(start, m.index ?? 0));
}

/** "6-9pm": the first time takes the second's am/pm when it has none. */
function sharedSuffix(a = '', b = ''): [string, string] {
  const suffix = /\s*(am|pm)$/i.exec(b)?.[1];
  return [suffix && !/(am|pm|o'?clock)$/i.test(a) && !/:/.test(a) ? `${a}${suffix}` : a, b];
}

/** Named parts of the day, as start-time windows. They apply before clock times in the same message. */
const PERIODS: Array<[string, number, number | undefined]> = [
  ['early evening', 17 * 60, 19 * 60],
  ['early afternoon', 12 * 60, 15 * 60],
  ['late afternoon', 15 * 60, 17 * 60],
  ['late[- ](?:night|show(?:ing)?|evening)|late at night', 21 * 60, undefined],
  // "Between lunch and dinner": after lunch, before the evening meal.
  ['between (?:lunch|lunchtime) and (?:dinner|supper|tea)(?:[- ]?time)?', 12 * 60, 18 * 60],
  ['after (?:lunch|lunchtime)', 12 * 60, undefined],
  ['before (?:lunch|lunchtime)', 0, 12 * 60],
  ['(?:at |around |over )?lunch(?:time)?', 11 * 60 + 30, 14 * 60],
  ['after (?:dinner|supper|tea)', 19 * 60, undefined],
  // "Teatime": late afternoon into the early evening.
  ['(?:at |around )?tea[- ]?time', 16 * 60, 18 * 60],
  // "After school": school is out by half past three.
  [
    "after school|once school(?:'s| is) (?:out|finished|over)|when school (?:is out|finishes|gets out)",
    15 * 60 + 30,
    undefined,
  ],
  [String.raw`(?:this\s+|in the\s+)?mornings?`, 0, 12 * 60],
  [String.raw`(?:this\s+|in the\s+)?afternoons?|matinees?`, 12 * 60, 17 * 60],
  // "Daytime", "during the day": any start before the evening.
  // Not "as late in the day as you can": the latest, said of the day.
  ["day[- ]?times?|during the day|(?<!\\bas (?:late|early)\\s)in the day(?:time)?|while it'?s light", 0, 17 * 60],
  [String.raw`(?:this\s+|in the\s+)?evenings?|nights?|after work`, 17 * 60, undefined],
];

const PERIOD = PERIODS.map(([source]) => `(?:${source})`).join('|');

function periodOf(words: string): [number, number | undefined] | undefined {
  const found = PERIODS.find(([source]) => new RegExp(`^(?:${source})$`, 'i').test(words.trim()));
  return found ? [found[1], found[2]] : undefined;
}

function periodWindow(from: number, to: number | undefined) {
  return to === undefined
    ? { kind: 'startTime' as const, after: clock(from) }
    : from === 0
      ? { kind: 'startTime' as const, before: clock(to) }
      : { kind: 'startTime' as const, after: clock(from), before: clock(to) };
}

/* "Afternoon works too", "evening is fine as well": widens the window already wanted. */
const WIDENING =
  /\b(?:works?|(?:is|are|would be) (?:fine|ok|okay|good)|also (?:works?|fine|ok)|could work|would work)\s+(?:too|as well)\b|\balso\b/i;

/**
 * "Morning" (before 12:00), "afternoon" (12:00–17:00), "evening"/"night" (after 17:00), "late show"
 * (after 21:00); "morning or early afternoon" is both (before 15:00); "afternoon works too" widens
 * the window already wanted, which stays as the preference.
 */
export const periodRule: Rule = (scan) => [
  // "I'm not a morning person": a leaning, said of oneself, never a hard bound.
  ...hits(
    scan,
    String.raw`(?:not|never been|hardly)\s+(?:a|much of a|really a|the)\s+(morning|night|evening)\s+(?:person|people|type|owl)|(?:early bird|night owl)`,
    (m) => {
      const words = m[0].toLowerCase();
      const set = words.includes('night owl')
        ? { kind: 'startTime' as const, after: '17:00' }
        : words.includes('early bird')
          ? { kind: 'startTime' as const, before: '12:00' }
          : /morning/.test(words)
            ? { kind: 'startTime' as const, after: '12:00' }
            : { kind: 'startTime' as const, before: '17:00' };
      return { ...span(m), drafts: [{ set, vague: true, rank: 0 }] };
    },
  ),
  ...hits(scan, `(${PERIOD})\\s+(?:or|and/or|to)\\s+(${PERIOD})`, (m) => {
    const a = periodOf(m[1] ?? '');
    const b = periodOf(m[m.length - 1] ?? '');
    if (!a || !b || polarity(scan.original, m.index ?? 0) !== 'positive') return undefined;
    const to = a[1] === undefined || b[1] === undefined ? undefined : Math.max(a[1], b[1]);
    return { ...span(m), drafts: [{ set: periodWindow(Math.min(a[0], b[0]), to), rank: 0 }] };
  }),
  // "any weeknight": the date rule read the days; the night is a time of day. Read in the whole
  // message, since the date rule blanked the word; the span is its night.
  ...hits({ ...scan, text: scan.original }, String.raw`\bweek-?nights?\b`, (m) =>
    polarity(scan.original, m.index ?? 0) === 'positive'
      ? { start: (m.index ?? 0) + 4, end: span(m).end, drafts: [{ set: periodWindow(17 * 60, undefined), rank: 0 }] }
      : undefined,
  ),
  ...PERIODS.flatMap(([source, from, to]) =>
    hits(scan, source, (m) => {
      // Refused only right after the refusal ("not in the evening", "not monday evening"), as a day is.
      if (polarity(scan.original, m.index ?? 0, 3, DAY_BRIDGE) !== 'positive') {
        return { ...span(m), drafts: refusedPeriod(scan, m.index ?? 0, from, to) };
      }
      const [start, end] = clauseAt(scan.original, m.index ?? 0);
      const widening = WIDENING.test(scan.original.slice(start, end));
      return {
        ...span(m),
        drafts: [{ set: periodWindow(from, to), rank: 0, ...(widening ? { mode: 'widen' as const } : {}) }],
      };
    }),
  ),
];

/* Between a refusal and a part of the day it refuses as such: "not in the morning", "no evening". */
const PERIOD_BRIDGE = /^(?:in|at|the|a|an|during|too|one|of|those|these|any|being|out)$/i;

/**
 * A part of the day refused as such leaves the rest of the day: "not in the morning" is a start
 * after 12:00, "no evening" or "not a late show" a start before its beginning, and the other side of
 * a window already wanted stays ("afternoon", then "the evening is too late"). A refusal of a day's
 * period ("not monday evening") refuses that day's evening only, which a start time cannot say, and
 * the afternoon leaves two windows; neither is read.
 */
function refusedPeriod(scan: Scan, at: number, from: number, to: number | undefined): Draft[] {
  if (polarity(scan.original, at, 3, PERIOD_BRIDGE) !== 'negative') return [];
  // One side of the day is refused: the other side of a window already wanted stands.
  if (from === 0 && to !== undefined)
    return [{ set: { kind: 'startTime', after: clock(to) }, rank: 0, mode: 'refine' }];
  if (to === undefined) return [{ set: { kind: 'startTime', before: clock(from) }, rank: 0, mode: 'refine' }];
  return [];
}

const LAST_OF_A_DAY =
  /^\s+(?:tonight|today|tomorrow|of the (?:day|night|evening)|(?:that's |thats |which is )?(?:on|showing|playing) (?:tonight|today|tomorrow|this evening))\b/i;
const AFTER_A_TIME = /\d(?:\s*(?:am|pm))?\s*,?\s*(?:at\s+)?$/i;

/**
 * "No, the later one", "an earlier showing", "something later": a showing later (earlier) than the
 * time held, or the latest (earliest) when none is held; see `merge`'s `later` and `earlier` modes.
 */
export const laterEarlierRule: Rule = (scan) =>
  hits(
    scan,
    String.raw`(?:the|a|an|any)\s+(later|earlier)\s+(?:one|showing|show|screening|time|session)|(?:something|anything|one|go|do it|make it)\s+(?:(?:a\s+)?(?:bit|little|tad|touch)\s+|slightly\s+)?(later|earlier)|(?<!\b(?:finish|finishes|finishing|work|working|i'm|we're|i am|we are|out|back|home|get (?:out|off|back|home)|arrive|land)\s+)(later|earlier)\s+(?:showings?|shows?|screenings?|than that|if (?:possible|poss|you can|there is one|there's one)|(?:would be|is) (?:better|nicer|good|great))`,
    (m) => {
      const { start, end } = span(m);
      // Words another rule took from between ("an earlier evening show"): not this phrase.
      if (scan.original.slice(start, end).replace(/\s+/g, ' ') !== m[0].replace(/\s+/g, ' ')) return undefined;
      // "An earlier one is ok if that's all there is": a fallback accepted, not a wish to move.
      if (ACCEPTED_AFTER.test(scan.original.slice(end))) return { start, end, drafts: [] };
      const word = (m[1] ?? m[2] ?? m[3] ?? '').toLowerCase();
      return { start, end, drafts: [{ set: { kind: 'startTime' }, mode: word === 'later' ? 'later' : 'earlier' }] };
    },
  );

const ACCEPTED_AFTER =
  /^\s*(?:(?:is|are|'s|would be|will be)\s+(?:also\s+)?(?:ok|okay|fine|alright|acceptable)|would do|will do|works)\b/i;

/**
 * "Earliest", "as early as possible", "first showing" → earliest; "latest", "last showing" →
 * latest. Only "the first"/"the last" is read of "the last IMAX showing" or "the last Paper Moons
 * showing" (its title read already): the format is the format rule's.
 */
export const earliestLatestRule: Rule = (scan) => [
  ...hits(
    scan,
    String.raw`(?<!\bat\s+(?:the\s+)?(?:very\s+|absolute\s+)?)(?:the\s+)?(?:earliest|soonest)|the earlier of (?:the|those|these) (?:two|2)\b|(?:whichever|whatever)(?:\s+one)?\s+(?:starts|begins|is on|'s on|plays|comes)\s+(?:first|earliest|soonest)|as early (?:in the day )?as (?:possible|(?:we|i|you|they) can|we could)|as early a (?:showing|screening|show|one|film) as (?:possible|we can|you can)|(?:the\s+)?first(?=\s+(?:(?:imax|3-?d|2-?d|standard|regular)\s+)?(?:showing|screening|show)\b)|early (?:showing|screening|show)|the earlier the better|whichever(?:\s+one)?(?:\s+is|'s)?\s+(?:the\s+)?earlier(?:\s+(?:one|showing|show|screening))?|(?:something|an|one)\s+early(?:-?ish)?(?:\s+(?:one|film|movie))?(?!\s+(?:morning|afternoon|evening|night))|early(?:-?ish)? (?:one|start)|earlier (?:is|would be) better`,
    (m) => ({ ...span(m), drafts: [{ set: { kind: 'earliest' } }] }),
  ),
  ...hits(
    scan,
    String.raw`(?<!\bat\s+(?:the\s+)?(?:very\s+|absolute\s+)?)(?:the\s+)?latest(?!\s+(?:(?!showing|screening|show)[a-z]+\s+){1,2}(?:film|movie|flick)s?\b)|(?:whichever|whatever)(?:\s+one)?\s+(?:starts|begins|is on|'s on|plays|comes)\s+(?:last|latest)|the later of (?:the|those|these) (?:two|2)\b|as late (?:in the day )?as (?:possible|(?:we|i|you|they) can|we could)|as late a (?:showing|screening|show|one|film) as (?:possible|we can|you can)|(?:the\s+)?last(?=\s+(?:(?:imax|3-?d|2-?d|standard|regular)\s+)?(?:showing|screening|show)\b)|(?:is|that's|thats|what's|whats)\s+on\s+last|the last (?:one|film|movie)|the later the better|whichever(?:\s+one)?(?:\s+is|'s)?\s+(?:the\s+)?later(?:\s+(?:one|showing|show|screening))?|(?:something|a|one)\s+late-?ish(?:\s+(?:one|film|movie))?|late(?:-?ish)? (?:one|start)|later (?:is|would be) better`,
    // "Out by 10.15 latest": right after a time, "latest" means "at the latest", as in "by 11 at the latest".
    (m) => ({
      ...span(m),
      drafts:
        (/^latest$/i.test(m[0]) && AFTER_A_TIME.test(scan.original.slice(0, m.index))) ||
        // "the last film" is the latest only of a day: "the last one tonight", not "we saw the last film".
        (/^the last (?:one|film|movie)$/i.test(m[0]) &&
          !LAST_OF_A_DAY.test(scan.original.slice((m.index ?? 0) + m[0].length)))
          ? []
          : [{ set: { kind: 'latest' } }],
    }),
  ),
];
