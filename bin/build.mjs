#!/usr/bin/env node
// Builds the published package into dist/: the types of the public API (.d.ts
// by tsc), the server bundled by esbuild from the TypeScript source, the
// browser bundles prebuilt by esbuild, and the static pages the server serves
// beside them. Run by `npm run build` and by `prepack`; the repository itself
// runs from source and never needs it.
//
// The server is bundled, not shipped as ~400 compiled files: Node's module
// loader resolving, reading and compiling each file was most of
// `import('questline')` (docs/benchmarks.md). What `questline` loads is one
// file, dist/server/api/core.js (index.js re-exports its names); the other
// entry points (`questline/server`, `questline/testing`, the CLI) are bundled
// with code splitting and take those modules from core.js, so every module has
// one copy in a process, and what is imported on demand (the server's parts,
// Redis, Claude, the CLI's commands) stays in chunks of its own, loaded when
// used. Every file sits two folders below dist/, as server/shared/root-dir.ts
// expects.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
// tsc's JavaScript gives way to the bundle (its .d.ts files stay: they are the package's types)
const removeJs = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) removeJs(p);
    else if (e.name.endsWith('.js')) rmSync(p);
  }
};
removeJs(join(dist, 'server'));
const esbuild = await import('esbuild');
const outdir = join(dist, 'server', 'api');
const common = { absWorkingDir: root, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', legalComments: 'none', logLevel: 'warning' };

// 1. core.js: every module `import('questline')` needs, in one file (one read, one compile), keeping only
//    the names some entry point uses. A module's export `x` is kept as `m<i>_x` (i: the module's index), so
//    the other entries can take it from there. Three esbuild passes: the names every module exports (a
//    bundle keeping all of them, imported once here), then the names the other entries take from each core
//    module (bundled with the core modules left outside), then core.js with those names only. Keeping every
//    export of every module cost `import('questline')` about a tenth of its own time (docs/benchmarks.md).
const graph = await esbuild.build({ ...common, entryPoints: ['server/api/index.ts'], outdir: join(dist, '.graph'), write: false, metafile: true });
const core = Object.keys(graph.metafile.inputs).filter((f) => f.startsWith('server/')).sort();
const coreIndex = new Map(core.map((f, i) => [f, i]));
const entryIndex = coreIndex.get('server/api/index.ts');
const allNamesFile = join(dist, '.graph', 'all-names.js');
await esbuild.build({
  ...common,
  stdin: { contents: core.map((f, i) => `export * as m${i} from ${JSON.stringify(`./${f}`)};`).join('\n'), resolveDir: root, loader: 'ts', sourcefile: 'questline-core.ts' },
  outfile: allNamesFile,
});
const allNames = await import(pathToFileURL(allNamesFile).href);
/** Every name core module `i` exports. */
const exportsOf = (i) => Object.keys(allNames[`m${i}`]);
/** A plugin resolving the other entries' imports of a core module to `contents(i)`, a module of its own. */
const coreModules = (contents) => ({
  name: 'questline-core',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (a) => {
      if (a.namespace === 'questline-core') return { path: a.path, external: true };
      const i = coreIndex.get(relative(root, resolve(a.resolveDir, a.path)).split(sep).join('/'));
      return i === undefined ? undefined : { path: String(i), namespace: 'questline-core' };
    });
    b.onLoad({ filter: /.*/, namespace: 'questline-core' }, (a) => ({ contents: contents(Number(a.path)), resolveDir: root, loader: 'js' }));
  },
});
const entries = { server: 'server/api/server.ts', testing: 'server/api/testing.ts', cli: 'server/cli/main.ts' };
const used = new Map(core.map((_, i) => [i, new Set(i === entryIndex ? exportsOf(i) : [])]));
const probe = await esbuild.build({
  ...common, entryPoints: entries, outdir: join(dist, '.graph'), splitting: true, write: false,
  plugins: [coreModules((i) => `export { ${exportsOf(i).join(', ')} } from './questline-core-${i}.js';`)],
});
for (const out of probe.outputFiles) {
  for (const m of out.text.matchAll(/(?:import|export)\s*(\*\s*as\s*\w+|\{[^}]*\})\s*from\s*"\.\/questline-core-(\d+)\.js"/g)) {
    const names = m[1].startsWith('*') ? exportsOf(Number(m[2])) : m[1].slice(1, -1).split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean);
    for (const n of names) used.get(Number(m[2])).add(n);
  }
}
rmSync(join(dist, '.graph'), { recursive: true, force: true });
/** `export { m<i>_x as x, … } from './core.js'`: the names of core module `i` an entry takes. */
const reexport = (i) => `export { ${[...used.get(i)].map((n) => `m${i}_${n} as ${n}`).join(', ')} } from './core.js';\n`;
await esbuild.build({
  ...common,
  stdin: {
    contents: core.map((f, i) => (used.get(i).size ? `export { ${[...used.get(i)].map((n) => `${n} as m${i}_${n}`).join(', ')} } from ${JSON.stringify(`./${f}`)};` : '')).join('\n'),
    resolveDir: root, loader: 'ts', sourcefile: 'questline-core.ts',
  },
  outfile: join(outdir, 'core.js'),
});
// `questline` itself: its names, from core.js
writeFileSync(join(outdir, 'index.js'), `// questline: the public API (server/api/index.ts), bundled in core.js by bin/build.mjs\n${reexport(entryIndex)}`);

// 2. The other entry points, with code splitting; a module that is in core.js is read from there, never bundled twice.
const bundled = await esbuild.build({ ...common, entryPoints: entries, outdir, splitting: true, chunkNames: 'chunk-[hash]', plugins: [coreModules(reexport)] });
if (bundled.errors.length > 0) process.exit(1);

for (const file of STATIC) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
}
console.log(`build: dist/ ready (server bundle, ${Object.keys(CLIENT_BUNDLES).length} client bundles, ${STATIC.length} static files)`);
