import type { TicketTypeId } from '@usher/booking';

/*
 * Who a person is, from how people describe them: the ticket an age or a word buys (the default
 * world's: a child is under 12, a senior 65 or over), and the age ratings a young person may see.
 * Relations and words that name people are listed here so the party rule reads like prose.
 */

/** Ages at which the tickets change (the default world's labels: "Child (under 12)", "Senior (65+)"). */
export const CHILD_UNDER = 12;
export const SENIOR_FROM = 65;
/** Under this age a person may not see PG-13 films on their own; under 17, not R. */
const PG13_FROM = 13;
const R_FROM = 17;

export function ticketForAge(age: number): TicketTypeId {
  if (age < CHILD_UNDER) return 'child';
  if (age >= SENIOR_FROM) return 'senior';
  return 'adult';
}

/** The age ratings a party may see when its youngest is `age` (undefined when all are adults). */
export function ratingsForAge(age: number): Array<'G' | 'PG' | 'PG-13'> | undefined {
  if (age < PG13_FROM) return ['G', 'PG'];
  if (age < R_FROM) return ['G', 'PG', 'PG-13'];
  return undefined;
}

/** Words for one companion; "the missus" is rewritten to "my wife" before the rules run. */
export const RELATION =
  'wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|friend|buddy|mate|pal|mom|mum|mother|mommy|mummy|dad|father|daddy|sister|brother|colleague|coworker|co-worker|workmate|teammate|housemate|classmate|coursemate|course mate|schoolmate|uni mate|bandmate|twin brother|twin sister|twin|stepson|stepdaughter|stepmum|stepmom|stepdad|stepbrother|stepsister|godson|goddaughter|godchild|student|neighbou?r|date|son|daughter|boy|girl|nephew|niece|grandson|granddaughter|grandchild|grandma|grandpa|grandmother|grandfather|granny|gran|grandad|granddad|nan|nana|cousin|aunt|auntie|uncle|roommate|flatmate|toddler|baby|kid|child|lad|lass|youngster|nipper|teenager|teen|carer|caregiver|companion|support worker|personal assistant|aide|escort';
/** Words for several companions; a count may stand before them ("my 3 kids"). */
export const RELATIONS =
  'friends|mates|buddies|pals|colleagues|coworkers|workmates|teammates|housemates|flatmates|roommates|classmates|coursemates|course mates|schoolmates|stepkids|stepchildren|godchildren|students|cousins|kids|children|kiddos|kiddies|little ones|parents|grandparents|sons|daughters|boys|girls|twins|nephews|nieces|grandkids|grandchildren|brothers|sisters|folks|lads|lasses|youngsters|nippers|teenagers|teens';
/** Relation words whose number is known without a count. */
export const PAIRS: Record<string, number> = { parents: 2, grandparents: 2, twins: 2, folks: 2 };
/** Relation words that name a child whatever the age. */
export const CHILD_WORDS =
  /^(?:kids?|child|children|kiddos|kiddies|little ones|toddlers?|baby|grandkids|grandchildren|grandchild)$/i;
/**
 * Relation words for grown-ups: when a party is said again, they may keep a senior's ticket from
 * before but never take a child's ("me, my wife and our son" after "2 adults and a child").
 */
export const ADULT_WORDS =
  /^(?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|colleagues?|coworkers?|co-workers?|workmates?|teammates?|housemates?|flatmates?|roommates?|date|mom|mum|mother|mommy|mummy|dad|father|daddy|parents|grandparents|folks|grandma|grandpa|grandmother|grandfather|granny|gran|grandad|granddad|nan|nana|nanna|aunt|auntie|uncle)$/i;
/** What follows a number that is a height, a weight or a pregnancy, not an age ("I'm 6'5\"", "I'm 5 foot 2", "I'm 8 months pregnant"). */
export const NOT_AN_AGE = String.raw`(?!\d|\s*(?:['′"”]|ft\b|feet\b|foot\b|inch(?:es)?\b|cm\b|kg\b|kilos?\b|stone\b|st\b|lbs?\b|(?:months?|weeks?)\s+(?:pregnant|gone|along|postpartum|post[- ]op)\b))`;
