import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/redis.ts';

// `npm start` (bin/start.mjs) runs a bundle of server/ kept in .cache/, made
// again when a file under server/ changes. Played on a copy of the repository
// (its node_modules linked), so the test can edit server/ without touching
// the real one.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'questline-npm-start-'));
for (const dir of ['server', 'client', 'flows', 'bin']) cpSync(join(ROOT, dir), join(copy, dir), { recursive: true });
for (const file of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, file), join(copy, file));
symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
const running: ChildProcess[] = [];

afterAll(() => {
  for (const c of running) c.kill('SIGKILL');
  rmSync(copy, { recursive: true, force: true });
});

/** Starts `node bin/start.mjs` in the copy; resolves with its log once /healthz answers. */
async function start(env: Record<string, string> = {}): Promise<{ log: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/start.mjs'], {
    cwd: copy, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'questline-npm-start-data-')), LOG_LEVEL: 'info', ...env },
  });
  running.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bin/start.mjs exited ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) throw new Error(`no /healthz within 90 s:\n${out}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    log: () => out,
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

const bundles = () => readdirSync(join(copy, '.cache')).filter((n) => n.startsWith('start-')).sort();

describe('npm start (bin/start.mjs)', () => {
  it('runs a bundle of server/, reuses it while server/ is unchanged, and runs an edit on the next start', async () => {
    const first = await start();
    await first.stop();
    expect(bundles()).toHaveLength(1);
    expect(readdirSync(join(copy, '.cache', bundles()[0]!))).toContain('main.js');

    const again = await start();
    await again.stop();
    expect(bundles()).toHaveLength(1); // nothing changed: the same bundle

    const main = join(copy, 'server', 'main.ts');
    writeFileSync(main, readFileSync(main, 'utf8').replace('accepting connections on ${url}', 'EDITED accepting connections on ${url}'));
    const edited = await start();
    await new Promise((r) => setTimeout(r, 200));
    await edited.stop();
    expect(edited.log()).toContain('EDITED accepting connections on');
    expect(bundles()).toHaveLength(2);
  }, 240_000);

  it('runs server/main.ts through tsx with QUESTLINE_FROM_SOURCE=1', async () => {
    const before = bundles().length;
    const s = await start({ QUESTLINE_FROM_SOURCE: '1' });
    await new Promise((r) => setTimeout(r, 200));
    await s.stop();
    expect(s.log()).toContain('EDITED accepting connections on');
    expect(bundles()).toHaveLength(before);
  }, 120_000);
});
