/**
 * Joins the prototype host (an mvp-0.2 host with the research prototype's shapes, written without
 * Usher's booking engine, `packages/agent/src/testing/prototype-host/`) to a running relay, on the
 * default scenario's world, so the agent can be tried on it by hand:
 *
 *   npx usher serve                                              # the relay (open the page only to watch)
 *   npx tsx packages/harness/scripts/prototype-host.ts [--url http://127.0.0.1:8787] [--room default]
 *   npx usher agent --goal "two adults for Orbital Drift tomorrow evening"
 *
 * The page's chat is stamped on the world's day unless `--wall-clock` is given (the prototype's own
 * chat is stamped by the participant's clock, whatever the study day). The agent's stderr says what
 * it read in part, skipped or could not use. Ctrl-C leaves the room and prints the bookings made.
 */

import { fromWorld, PrototypeHost } from '@usher/agent/prototype-host';
import { defaultScenario } from '@usher/booking';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
};

const world = defaultScenario();
const { catalog, toWorld } = fromWorld(world);
const url = flag('url', 'http://127.0.0.1:8787');
const room = flag('room', 'default');
const now = process.argv.includes('--wall-clock') ? () => new Date() : () => new Date(`${world.today}T10:00:00Z`);
const host = await PrototypeHost.join({ url, room, catalog, now });
console.log(
  `prototype host joined room "${room}" at ${url} (${catalog.movies.length} films, ${catalog.showings.length} showings, study day ${catalog.studyDate})`,
);
const leave = () => {
  for (const booking of host.page.bookings) {
    const b = toWorld(booking);
    console.log(`booking ${booking.id}: ${b.showingId} seats ${b.seats.map((s) => s.id).join(', ')}, total ${b.total}`);
  }
  console.log(`largest frame sent: ${host.largestFrame} bytes; refused by the relay: ${host.refused.length}`);
  void host.close().then(() => process.exit(0));
};
process.once('SIGINT', leave);
process.once('SIGTERM', leave);
