#!/usr/bin/env node
// Builds the published package into dist/: the server compiled by tsc
// (JavaScript + .d.ts, imports rewritten from .ts to .js), the browser bundles
// prebuilt by esbuild, and the static pages the server serves beside them.
// Run by `npm run build` and by `prepack`; the repository itself runs from
// source and never needs it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const STATIC = ['client/admin/index.html', 'client/admin/console.css', 'client/studio/index.html', 'client/studio/studio.css', 'client/demo/index.html', 'client/demo/demo.css'];

rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) {
  console.error('build: tsc failed');
  process.exit(compiled.status ?? 1);
}

// The compiled client-assets module knows the entries and the esbuild options:
// one definition serves the build and the server running from source.
const { CLIENT_BUNDLES, bundleFromSource } = await import(new URL('../dist/server/transport/http/client-assets.js', import.meta.url).href);
mkdirSync(join(dist, 'client'), { recursive: true });
for (const name of Object.keys(CLIENT_BUNDLES)) {
  writeFileSync(join(dist, 'client', name), await bundleFromSource(name, root));
}
for (const file of STATIC) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
}
console.log(`build: dist/ ready (server, ${Object.keys(CLIENT_BUNDLES).length} client bundles, ${STATIC.length} static files)`);
