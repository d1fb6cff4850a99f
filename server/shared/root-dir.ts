import { fileURLToPath } from 'node:url';

// The files the server serves beside its code (client bundles, page HTML and
// CSS, the demo page) are found from one place. This file sits two folders
// below the directory that holds `server/` and `client/` — the repository
// root when running from source, `dist/` in the package — and so does every
// bundled chunk of the package (`dist/server/api/*.js`, bin/build.mjs) and of
// the start-up bundle (`.cache/start/*.mjs`, bin/start.mjs), so paths
// resolved here stay right however the code is laid out.

/** The directory holding `server/` and `client/`: the repository root from source, `dist/` in the package. */
export const ROOT_URL = new URL('../../', import.meta.url);

/** An absolute path under ROOT_URL, e.g. `rootPath('client/demo')`. */
export function rootPath(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT_URL));
}
