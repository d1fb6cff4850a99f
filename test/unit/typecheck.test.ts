import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm test` is what CI runs, and tsx runs the code without checking types:
// so the type checks run here. The browser code imports its wire types from
// server/protocol, so the client check also holds it to the server's shapes.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function tsc(project: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [TSC, '--noEmit', '-p', project], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('types', () => {
  it.each([['the server, tests and benchmarks', '.'], ['the browser code (DOM lib)', 'client']])('%s type-check (tsc -p %s)', (_what, project) => {
    const r = tsc(project);
    expect(r.out.trim(), r.out).toBe('');
    expect(r.status).toBe(0);
  }, 180_000);
});
