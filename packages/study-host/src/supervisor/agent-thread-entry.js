// The entry of an agent thread: a worker has none of its parent's module hooks, so it registers
// tsx itself before loading its TypeScript body (as the `usher` bin does).
import { register } from 'tsx/esm/api';

register();
await import('./agent-thread.ts');
