import type { StartHost } from '@usher/agent/suite';
import { startServer } from '@usher/server';

/**
 * Serves each of the suite's worlds the way a study would: a relay on a free port with the
 * booking engine as the headless host of room `default`, study logs in `logsDir`. Used by the
 * suite script and the agent benchmark.
 */
export function localHost(logsDir: string): StartHost {
  return async (world) => {
    const server = await startServer({
      port: 0,
      bind: '127.0.0.1',
      room: 'default',
      headlessHost: true,
      scenario: world,
      logsDir,
      warn: () => {},
    });
    return {
      url: server.url,
      room: 'default',
      submitted: () => server.headlessHost?.submitted() ?? null,
      close: () => server.close(),
    };
  };
}
