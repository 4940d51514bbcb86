/**
 * Joins the second host (a cinema site written without Usher's booking engine,
 * `packages/agent/src/testing/second-host/`) to a running relay, on the default scenario's world, so the agent
 * can be tried on a host it was not built with:
 *
 *   npx usher serve                                           # the relay (open the page only to watch)
 *   npx tsx packages/harness/scripts/second-host.ts [--url http://127.0.0.1:8787] [--room default]
 *   npx usher agent --goal "two adults for Orbital Drift tomorrow evening"
 *
 * The agent's stderr says what it read in part, skipped or could not use. Ctrl-C leaves the room.
 */

import { fromWorld, SecondHost } from '@usher/agent/second-host';
import { defaultScenario } from '@usher/booking';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
};

const world = defaultScenario();
const { catalog } = fromWorld(world);
const url = flag('url', 'http://127.0.0.1:8787');
const room = flag('room', 'default');
// The site's chat is stamped on the world's day, as a site running that day would.
const host = await SecondHost.join({ url, room, catalog, now: () => new Date(`${world.today}T10:00:00Z`) });
console.log(
  `second host joined room "${room}" at ${url} (${catalog.films.length} films, ${catalog.sessions.length} sessions)`,
);
const leave = () => {
  for (const order of host.flow.orders)
    console.log(`order ${order.orderId}: ${order.sessionRef} seats ${order.seats.join(', ')}, total ${order.total}`);
  void host.close().then(() => process.exit(0));
};
process.once('SIGINT', leave);
process.once('SIGTERM', leave);
