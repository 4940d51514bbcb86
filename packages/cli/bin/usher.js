#!/usr/bin/env node
// Usher is written in TypeScript and run from source; tsx compiles each module as it loads.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv);
