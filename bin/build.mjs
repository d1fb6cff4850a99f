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

// 1. core.js: every module `import('questline')` needs, in one file (one read, one compile). Each module's
//    exports are kept under a name of its own (m0, m1, …), so the other entries can share them.
const graph = await esbuild.build({ ...common, entryPoints: ['server/api/index.ts'], outdir: join(dist, '.graph'), write: false, metafile: true });
const core = Object.keys(graph.metafile.inputs).filter((f) => f.startsWith('server/')).sort();
const coreIndex = new Map(core.map((f, i) => [f, i]));
await esbuild.build({
  ...common,
  stdin: { contents: core.map((f, i) => `export * as m${i} from ${JSON.stringify(`./${f}`)};`).join('\n'), resolveDir: root, loader: 'ts', sourcefile: 'questline-core.ts' },
  outfile: join(outdir, 'core.js'),
});
const modules = await import(pathToFileURL(join(outdir, 'core.js')).href);
/** A module of core.js, re-exported under its own names. */
const reexport = (i) => `import { m${i} as m } from './core.js';\nexport const { ${Object.keys(modules[`m${i}`]).join(', ')} } = m;\n`;
// `questline` itself: its names, from core.js
writeFileSync(join(outdir, 'index.js'), `// questline: the public API (server/api/index.ts), bundled in core.js by bin/build.mjs\n${reexport(coreIndex.get('server/api/index.ts'))}`);

// 2. The other entry points, with code splitting; a module that is in core.js is read from there, never bundled twice.
const fromCore = {
  name: 'questline-core',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (a) => {
      if (a.namespace === 'questline-core') return { path: a.path, external: true };
      const i = coreIndex.get(relative(root, resolve(a.resolveDir, a.path)).split(sep).join('/'));
      return i === undefined ? undefined : { path: String(i), namespace: 'questline-core' };
    });
    b.onLoad({ filter: /.*/, namespace: 'questline-core' }, (a) => ({ contents: reexport(a.path), resolveDir: root, loader: 'js' }));
  },
};
const bundled = await esbuild.build({
  ...common,
  entryPoints: { server: 'server/api/server.ts', testing: 'server/api/testing.ts', cli: 'server/cli/main.ts' },
  outdir,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  plugins: [fromCore],
});
if (bundled.errors.length > 0) process.exit(1);

for (const file of STATIC) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
}
console.log(`build: dist/ ready (server bundle, ${Object.keys(CLIENT_BUNDLES).length} client bundles, ${STATIC.length} static files)`);
