/** Node-only helpers of the relay contract (they read files), kept apart so browsers never load them. */
export * from './corpus.ts';
