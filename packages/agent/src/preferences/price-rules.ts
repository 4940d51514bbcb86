import { hits, span } from './match.ts';
import { parseCount } from './numbers.ts';
import type { Hit, Rule, Scan } from './types.ts';

/*
 * Price limits as people write them: "under $40", "max 25 total", "budget's 40", "no more than
 * $30 for both", "under 20 a ticket", "cap it at 20 quid each", "can't spend more than 50".
 *
 * A number is money when it carries a currency ("$", "quid", "bucks"), when the words around it
 * speak of money ("budget", "spend", "pay", "cost"), or when it is counted per ticket or in total
 * ("20 a ticket", "25 total", "30 for both"). A bare "under 20" says none of that (20 minutes? 20
 * km?), so it is left unread and the agent asks. Larger number words were made digits by the
 * spelling step ("twenty quid" → "20 quid"); small ones ("ten quid each") are read here.
 *
 * The booking's constraint model holds a limit on the total (`price.maxTotal`); a limit per ticket
 * is kept beside the model and becomes a total once the seat count is known (see merge).
 */

const CUR = '[$€£]';
const DIGITS = String.raw`\d{1,4}(?:\.\d{1,2})?`;
const SMALL = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';
const NUMBER = `(?:${DIGITS}|${SMALL})`;
const CUR_WORD = '(?:dollars?|bucks?|usd|eur|euros?|pounds?|quid|gbp)';
/** Slang for a note: "a tenner each". */
const NOTES: Record<string, number> = { fiver: 5, tenner: 10 };
const NOTE = `(?:an?\\s+)?(?:${Object.keys(NOTES).join('|')})`;
/** An amount with its currency, or a bare number (money only with a money word around it). */
const AMOUNT = `(?:${CUR}\\s*${NUMBER}(?:\\s*${CUR_WORD})?|${NUMBER}\\s*(?:${CUR_WORD}|${CUR})|${NOTE}|${NUMBER})`;
/** What follows an amount that is not money: durations, distances, clock times, people. */
const NOT_MONEY = String.raw`(?!\s*(?:hours?|hrs?|h|mins?|minutes?|km|kms|k|miles?|mi|pm|am|o'?clock|:\d|%|percent|per cent|people|persons|tickets?|seats?|of us|kids|children|adults|years?|yo|rows?|stars?|\/10|out of))`;

const PER = String.raw`(?:\s*(?:per|a|an|each|every|for each|for every|\/)\s*(?:ticket|person|head|seat|pop|adult)|\s+each|\s+apiece|\s+a\s+pop)`;
const TOTAL_WORDS = String.raw`(?:\s+(?:for\s+)?the\s+(?:pair|lot|two|three|four)\b(?!\s+(?:of\b|tickets?|seats?|people|together))|\s+between\s+(?:us|(?:the\s+)?(?:\w+\s+)?of\s+us|us\s+(?:both|all|two|three|four))|\s+(?:in\s+)?total|\s+all\s+in|\s+all\s+together|\s+altogether|\s+overall|\s+for\s+everything|\s+for\s+(?:the\s+|all\s+)?(?:\d{1,2}|two|three|four|five|six)\s+(?:tickets|seats|of us)(?:\s+together)?)`;
/** "For both", "for the 3 of us": a total, and the party rule still reads the people. */
const FOR_ALL = String.raw`(?=\s+for\s+(?:both|all|everyone|everybody|the\s+lot|us\s+all|the\s+(?:\w+\s+)?of\s+us|all\s+of\s+us|both\s+of\s+us))`;
const TAIL = `(?:${PER}|${TOTAL_WORDS}|${FOR_ALL})`;

const UP_TO =
  '(?:under|below|less than|no more than|not more than|nothing more than|at most|max(?:imum)?|up to|no higher than|not over|nothing over|nothing above|not above|tops|cheaper than|no dearer than)';
/** A refused "more than" ("can't spend more than", "don't want to pay over"): a ceiling. */
const NOT_OVER = String.raw`(?:not|never|can'?t|cannot|won'?t|don'?t|do not|doesn'?t|does not|shouldn'?t|should not|mustn'?t|rather not)(?:\s+[a-z']+){0,3}?\s+(?:more than|over|above|beyond|higher than|exceed(?:ing)?)`;
const MONEY_LEAD = String.raw`(?:(?:up|raise|increase|bump|push|stretch)\s+(?:up\s+)?(?:the\s+|our\s+|my\s+)?(?:budget|limit|max(?:imum)?|spend)(?:\s+up)?\s+to|budget(?:'s|\s+is|\s+of|\s+at|\s+around|\s+about|:)?(?:\s+(?:now|actually|really))?|(?:can|could)\s+(?:stretch|go)\s+(?:up\s+)?to|stretch\s+(?:it\s+)?to|limit(?:'s|\s+is)|(?:max(?:imum)?\s+)?spend(?:ing)?(?:\s+limit)?(?:\s+(?:is|of))?|(?:price|cost)\s+(?:limit|cap)(?:'s|\s+is|\s+of)?|cap(?:ped)?(?:\s+(?:it|that|the price|the cost|the total))?\s+at|limit(?:ed)?(?:\s+(?:it|that|ourselves|myself))?\s+(?:to|at|of)|(?:spend|pay|cost(?:s|ing)?|afford)(?:\s+(?:only|just))?)`;
const ABOUT = String.raw`(?:\s+(?:of|about|around|roughly|approx(?:imately)?|like))?`;
/** After an amount: "40 max", "$40 tops", "25 or less", "50 budget". */
const AFTER = String.raw`(?:\s+(?:max(?:imum)?|tops|or less|or under|or below|at most|at the most|limit|budget|cap|max(?:imum)? budget))`;

/** An amount that carries its currency: "70 quid", "$40", "a tenner". */
const MONEY = `(?:${CUR}\\s*${NUMBER}(?:\\s*${CUR_WORD})?|${NUMBER}\\s*(?:${CUR_WORD}|${CUR})|${NOTE})`;
/** Money the participant has is their budget: "we've got about 70 quid between us", "i only have $30". */
const HAVE = String.raw`(?:we|i)(?:'ve|\s+have)?\s+(?:(?:only|just|literally|really|actually|still|barely)\s+)?(?:got|have)`;
/** Money said to be all there is: "$30 is all we have", "40 quid is our limit". */
const ALL_WE_HAVE = String.raw`\s+(?:is|'s)\s+(?:all|the most|as much as)\s+(?:we|i)\s+(?:have|'ve got|got|can spend|can pay|can afford)|\s+(?:is|'s)\s+(?:our|my|the)\s+(?:limit|max(?:imum)?|budget|cap)`;

const LEADS = [
  `(?<lead>${HAVE})${ABOUT}\\s+(?<amount>${MONEY})(?<tail>${TAIL})?`,
  `(?<lead>${MONEY_LEAD}(?:\\s+${UP_TO})?|${NOT_OVER}|${UP_TO})${ABOUT}\\s+(?<amount>${AMOUNT})${NOT_MONEY}(?<tail>${TAIL})?${AFTER}?`,
  `(?<amount>${AMOUNT})${NOT_MONEY}(?<tail>${TAIL})?(?<after>${AFTER})`,
  `(?:(?:we|i)(?:'ve|\\s+have)?\\s+(?:got\\s+)?|got\\s+)?(?<amount>${AMOUNT})${NOT_MONEY}(?<tail>${TAIL})?\\s+(?<lead>to spend)`,
  `(?<amount>${AMOUNT})${NOT_MONEY}(?<tail>${PER}|${TOTAL_WORDS})`,
  `(?<amount>${MONEY})(?<after>${ALL_WE_HAVE})`,
];

/** The amount an `AMOUNT` match names, and whether it carried a currency. */
function money(text: string): { value: number; currency: boolean } | undefined {
  const t = text.toLowerCase();
  const note = Object.entries(NOTES).find(([word]) => t.includes(word));
  if (note) return { value: note[1], currency: true };
  const digits = new RegExp(DIGITS).exec(t)?.[0];
  const value = digits !== undefined ? Number(digits) : parseCount(new RegExp(SMALL).exec(t)?.[0] ?? '');
  if (value === undefined || !Number.isFinite(value) || value <= 0) return undefined;
  return { value, currency: new RegExp(`${CUR}|${CUR_WORD}`, 'i').test(t) };
}

/** The smallest bare number read as money: counts stop at 12 and a child is under 12. */
const BARE_MONEY = 13;
/** Words before "under 13" that make it an age: "kids under 13", "no one under 18". */
const AGE_BEFORE =
  /\b(?:kids?|children|child|boys?|girls?|teens?|teenagers?|people|persons|ages?|aged|one|anyone|everyone|nobody|no-one|someone|those|rated|rating|film|movie)\s+$/i;

/** Words before a bare number that make it a place, not money: "row 15 or less", "seat 20 max", "screen 14 or under". */
const PLACE_BEFORE = /\b(?:rows?|seats?|screens?|aisles?|sections?|auditorium|hall|number|no\.?)\s*#?\s*$/i;
/** Words before a bare number in its clause that make it a score, a length or a distance: "a metascore under 70". */
const MEASURE_BEFORE =
  /\b(?:\w*scores?|ratings?|rated|reviews?|tomatometer|tomatoes|imdb|stars?|minutes?|mins|runtime|running time|long|km|miles?|away|ages?|aged|years?)\b[^,.;!?$£€]*$/i;

/** Price ceilings, in total or per ticket. */
export const priceRule: Rule = (scan) => LEADS.flatMap((source) => hits(scan, source, readLimit));

function readLimit(m: RegExpExecArray, scan: Scan): Hit | undefined {
  const { amount: said = '', tail = '', lead = '', after = '' } = m.groups ?? {};
  const amount = money(said);
  if (!amount) return undefined;
  const perTicket = tail !== '' && new RegExp(`^${PER}$`, 'i').test(tail);
  const moneyWords = /budget|spend|pay|cost|afford|cap|limit|price|stretch/i.test(`${lead} ${after}`);
  // A bare small number ("under 12", "4 max") could be people, an age or a row: money only when
  // it says so. Past any party size or child's age, "under 25" is what a ticket costs.
  const bare = !amount.currency && !moneyWords && tail === '';
  const before = scan.original.slice(0, m.index);
  const clause = before.slice(Math.max(before.search(/[^,.;!?]*$/), 0));
  if (
    bare &&
    (amount.value < BARE_MONEY || AGE_BEFORE.test(before) || PLACE_BEFORE.test(before) || MEASURE_BEFORE.test(clause))
  )
    return undefined;
  return { ...span(m), drafts: [{ set: { kind: 'price', maxTotal: amount.value }, perTicket }] };
}
