#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so a clone needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
