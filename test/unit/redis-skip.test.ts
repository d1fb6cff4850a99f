import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A fresh machine has Node and no redis-server: the Redis test files must skip
// with one line saying what to install, and fail under CI (test/support/redis.ts).
// Each case runs vitest on one Redis test file with REDIS_SERVER pointing nowhere.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

function runRedisFile(ci: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, REDIS_SERVER: '/nonexistent/redis-server', CI: ci, NO_COLOR: '1' };
  delete env.VITEST;
  delete env.VITEST_WORKER_ID;
  delete env.VITEST_POOL_ID;
  delete env.TEST;
  delete env.NODE_ENV;
  const r = spawnSync(process.execPath, [VITEST, 'run', 'test/unit/redis-rate-limits.test.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('Redis tests without redis-server', () => {
  it('skip with one line saying what to install', () => {
    const r = runRedisFile('');
    expect(r.out).toContain('[redis tests] skipping: /nonexistent/redis-server (REDIS_SERVER) is not an executable: install it (apt-get install -y redis-server');
    expect(r.out).toMatch(/3 skipped/);
    expect(r.status).toBe(0);
  }, 60_000);

  it('fail under CI=true', () => {
    const r = runRedisFile('true');
    expect(r.out).toContain('is not an executable: install it');
    expect(r.status).not.toBe(0);
  }, 60_000);
});
