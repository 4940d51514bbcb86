/**
 * Reads what a participant might type with the agent's reader, and prints what it understood and
 * any question it would ask: a quick way to see how a phrasing is read before writing a test.
 *
 *   npx tsx packages/harness/scripts/read.ts [--scenario FILE] "message" ["first message || second message" …]
 *
 * Each argument is one conversation; " || " separates its messages. The films, genres and theaters
 * the reader knows, and the study's day, come from the scenario (the default one when none is given).
 */
import { readFileSync } from 'node:fs';
import { EMPTY_MODEL, type PreferenceModel, updatePreferences } from '@usher/agent';
import { defaultScenario, parseScenario } from '@usher/booking';

const args = process.argv.slice(2);
const at = args.indexOf('--scenario');
const file = at >= 0 ? args[at + 1] : undefined;
const scenario = file ? parseScenario(JSON.parse(readFileSync(file, 'utf8')), file) : defaultScenario();
const conversations = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
if (conversations.length === 0) {
  console.error('usage: read.ts [--scenario FILE] "message" ["first message || second message" …]');
  process.exit(2);
}
const context = {
  today: scenario.today,
  knownTitles: scenario.movies.map((m) => m.title),
  knownGenres: [...new Set(scenario.movies.flatMap((m) => m.genres))],
  // As if the agent had seen the theater stage; on a first message it has not, and reads places loosely.
  knownTheaters: scenario.theaters.map((t) => t.name),
  knownFilms: scenario.movies.map((m) => ({
    title: m.title,
    genres: m.genres,
    ageRating: m.ageRating,
    rating: m.rating,
  })),
};
for (const conversation of conversations) {
  let model: PreferenceModel = EMPTY_MODEL;
  for (const message of conversation.split(' || ')) {
    const understood = updatePreferences(model, message, context);
    model = understood.model;
    const question = model.questions?.[0];
    console.log(`> ${message}\n  ${understood.summary}${question ? `\n  asks: ${question}` : ''}`);
  }
}
