#!/usr/bin/env node
// `npm start` in a clone: runs the server from a bundle of server/ made by
// esbuild, instead of compiling the TypeScript at every start (tsx compiled
// ~400 files each time: most of the seconds before /healthz answered).
//
// The bundle is kept in .cache/start-<key>/, where <key> hashes every file
// under server/ (path, size, modification time) and tsconfig.json: an edit to
// server/ makes a new key, so the next `npm start` bundles again (about a
// second) and runs the edit; an unchanged tree reuses the bundle. Packages stay
// in node_modules (nothing from it is bundled). Stack traces name the .ts
// files (source maps). QUESTLINE_FROM_SOURCE=1 runs server/main.ts through tsx
// as before (so does a checkout without esbuild installed).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(root, '.cache');
/** Bundles kept besides the current one (a server still running from an older one may load a lazy chunk of it). */
const KEEP = 3;

/** A key that changes whenever a file under server/ (or tsconfig.json) is added, removed or edited. */
function sourceKey() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        hash.update(`${p.slice(root.length)}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  walk(join(root, 'server'));
  const ts = statSync(join(root, 'tsconfig.json'));
  hash.update(`tsconfig.json\0${ts.size}\0${ts.mtimeMs}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** The bundle's directory for the current sources, bundled now if there is none; null without esbuild. */
async function currentBundle() {
  const dir = join(cache, `start-${sourceKey()}`);
  if (existsSync(join(dir, 'main.js'))) return dir;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return null;
  }
  // built beside, then renamed into place: a second `npm start` at the same moment never sees half a bundle
  const tmp = join(cache, `tmp-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: { main: 'server/main.ts' },
      outdir: tmp,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      chunkNames: 'chunk-[hash]',
      logLevel: 'warning',
    });
    try {
      renameSync(tmp, dir);
    } catch (err) {
      if (!existsSync(join(dir, 'main.js'))) throw err; // else another start made the same bundle first
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const older = readdirSync(cache).filter((n) => n.startsWith('start-') && join(cache, n) !== dir)
    .map((n) => ({ n, t: statSync(join(cache, n)).mtimeMs })).sort((a, b) => b.t - a.t).slice(KEEP);
  for (const { n } of older) rmSync(join(cache, n), { recursive: true, force: true });
  return dir;
}

const dir = process.env.QUESTLINE_FROM_SOURCE === '1' ? null : await currentBundle();
if (dir) {
  process.setSourceMapsEnabled(true);
  const { runFromEnv } = await import(pathToFileURL(join(dir, 'main.js')).href);
  await runFromEnv();
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runFromEnv } = await import(pathToFileURL(join(root, 'server', 'main.ts')).href);
  await runFromEnv();
}
