import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { Request, Response } from 'express';
import { ROOT_URL, rootPath } from '../../shared/root-dir.ts';

/**
 * The browser code in `client/` is TypeScript. The published package ships
 * it prebuilt (`npm run build` writes `dist/client/<name>`, which is where
 * this file's compiled copy looks); running from source, there is no such
 * file and esbuild bundles the entry in memory when the server first serves
 * it (a few tens of milliseconds), so a clone needs no build step and tests
 * serve the current source. Each bundle is made once per process and kept.
 */
export const CLIENT_BUNDLES = {
  'widget.js': 'client/widget/index.ts',
  'widget-socket.js': 'client/widget/socket-entry.ts',
  'widget-texts.js': 'client/widget/texts-entry.ts',
  'admin.js': 'client/admin/main.ts',
  'studio.js': 'client/studio/main.ts',
  'demo.js': 'client/demo/main.ts',
} as const;

export type BundleName = keyof typeof CLIENT_BUNDLES;

/** The repository root from source (`server/…`), or `dist/` in the package (`dist/server/…`). */
const root = rootPath('.');

/** A built bundle with its validator and compressed forms (made once, with the build). */
export interface BuiltBundle {
  js: string;
  etag: string;
  gzip: Buffer;
  br: Buffer;
}

const built = new Map<BundleName, Promise<BuiltBundle>>();

/** One client entry point, built on first use, then cached for the life of the process. */
export function builtBundle(name: BundleName): Promise<BuiltBundle> {
  let pending = built.get(name);
  if (!pending) {
    pending = bundleText(name).then((js) => {
      const bytes = Buffer.from(js, 'utf8');
      return {
        js,
        etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
        gzip: gzipSync(bytes, { level: 9 }),
        br: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
      };
    });
    built.set(name, pending);
    pending.catch(() => built.delete(name));
  }
  return pending;
}

/** The bundled JavaScript of one client entry point. */
export async function clientBundle(name: BundleName): Promise<string> {
  return (await builtBundle(name)).js;
}

/**
 * Serves a bundle: brotli or gzip when the client takes it, an ETag, and
 * `no-cache` so browsers revalidate (a 304 costs a few bytes) and never run a
 * stale widget after the server is updated.
 */
export function bundleHandler(name: BundleName) {
  return async (req: Request, res: Response): Promise<void> => {
    const b = await builtBundle(name);
    res.type('application/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', b.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    const match = req.get('if-none-match');
    if (match && match.split(',').some((t) => t.trim() === b.etag)) {
      res.status(304).end();
      return;
    }
    const accept = req.get('accept-encoding') ?? '';
    if (/\bbr\b/.test(accept)) {
      res.setHeader('Content-Encoding', 'br');
      res.send(b.br);
    } else if (/\bgzip\b/.test(accept)) {
      res.setHeader('Content-Encoding', 'gzip');
      res.send(b.gzip);
    } else {
      res.send(b.js);
    }
  };
}

/** The prebuilt bundle beside the compiled server, else a fresh build from source. */
async function bundleText(name: BundleName): Promise<string> {
  try {
    return await readFile(new URL(`client/${name}`, ROOT_URL), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return bundleFromSource(name, root);
  }
}

/**
 * Bundles one client entry with esbuild (a development dependency, loaded
 * only here): used by the server running from source and by the build.
 */
export async function bundleFromSource(name: BundleName, repoRoot: string): Promise<string> {
  const entry = CLIENT_BUNDLES[name];
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error(`esbuild produced nothing for ${entry}`);
  return out.text;
}
