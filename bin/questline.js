#!/usr/bin/env node
// In a clone the TypeScript source is here and runs through tsx's loader, so
// no build step is needed and a stale dist/ is never used; the installed
// package ships only the compiled dist/ and runs it on plain Node.
import { existsSync } from 'node:fs';

const source = new URL('../server/cli/main.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import(new URL('../dist/server/api/cli.js', import.meta.url).href));
}
process.exitCode = await main(process.argv.slice(2));
