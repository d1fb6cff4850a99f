import { afterAll, beforeAll, beforeEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import { inCi } from './ci.ts';

// A private redis-server for the tests: 127.0.0.1, a free port, no
// persistence, its pid and log in a temp directory. It runs under a small
// shell that holds a pipe from this process: when the test process ends for
// any reason (even kill -9), the pipe closes and the shell stops Redis, so
// no server is left behind.

/** The redis-server the tests start: REDIS_SERVER, else the first `redis-server` on PATH (undefined when there is none). */
export const REDIS_SERVER: string | undefined = process.env.REDIS_SERVER || onPath('redis-server');

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** What to do about a missing redis-server, in one line (undefined when it is there). */
export function redisServerMissing(): string | undefined {
  if (REDIS_SERVER && executable(REDIS_SERVER)) return undefined;
  const what = process.env.REDIS_SERVER ? `${process.env.REDIS_SERVER} (REDIS_SERVER) is not an executable` : 'redis-server is not on PATH';
  return `${what}: install it (apt-get install -y redis-server, brew install redis; .ci/run does) or set REDIS_SERVER`;
}

/**
 * For a test file that needs a redis-server: when there is none, every test
 * of the calling file (or describe block) is skipped with one line on stderr
 * saying what to install — but under CI the file fails instead, as the
 * browser tests do. Returns whether redis-server is there.
 */
export function needsRedisServer(): boolean {
  const missing = redisServerMissing();
  if (!missing) return true;
  if (inCi()) {
    beforeAll(() => {
      throw new Error(missing);
    });
  } else {
    process.stderr.write(`[redis tests] skipping: ${missing} (set CI to make this an error)\n`);
    beforeEach((ctx) => ctx.skip());
  }
  return false;
}

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  /** A new client on this server (closed by stop()). */
  client(): Redis;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ready(port: number, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    c.on('error', () => {});
    try {
      await c.connect();
      if ((await c.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      c.disconnect();
    }
    await sleep(50);
  }
  const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-10).join('\n') : '(no log)';
  throw new Error(`redis-server did not start on 127.0.0.1:${port}:\n${tail}`);
}

/** Starts a private Redis. Fails with a clear message when redis-server is not installed. */
export async function startTestRedis(): Promise<TestRedis> {
  const missing = redisServerMissing();
  if (missing || !REDIS_SERVER) throw new Error(missing);
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'questline-redis-'));
    const log = join(dir, 'redis.log');
    const args = [
      '--port', String(port), '--bind', '127.0.0.1', '--save', "''", '--appendonly', 'no',
      '--daemonize', 'no', '--dir', dir, '--pidfile', join(dir, 'redis.pid'), '--logfile', log,
    ];
    // the shell stops Redis when stdin closes (this process ended) or on TERM
    // (and removes the directory, so a killed test process leaves nothing behind)
    const script = `${REDIS_SERVER} ${args.map((a) => (a.startsWith("'") ? a : `'${a}'`)).join(' ')} & r=$!
trap 'kill $r 2>/dev/null; wait $r; rm -rf '"'"'${dir}'"'"'; exit 0' TERM
cat >/dev/null
kill $r 2>/dev/null; wait $r; rm -rf '${dir}'`;
    const child = spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    const clients: Redis[] = [];
    const stop = async () => {
      for (const c of clients.splice(0)) c.disconnect();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.stdin?.end();
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5_000)]);
      }
      rmSync(dir, { recursive: true, force: true });
    };
    try {
      await ready(port, child, log);
    } catch (e) {
      await stop();
      if (attempt < 2) continue; // the port was taken in between
      throw e;
    }
    const url = `redis://127.0.0.1:${port}`;
    return {
      url,
      port,
      dir,
      client() {
        const c = new Redis(url, { maxRetriesPerRequest: 1 });
        clients.push(c);
        return c;
      },
      stop,
    };
  }
}

/**
 * A private Redis for the calling test file: started before its tests and
 * stopped after them (the tests skip without redis-server, see needsRedisServer). The returned object reads through to it once started.
 */
export function useTestRedis(): Pick<TestRedis, 'url' | 'client'> {
  let redis: TestRedis | undefined;
  if (needsRedisServer()) {
    beforeAll(async () => {
      redis = await startTestRedis();
    }, 20_000);
  }
  afterAll(async () => {
    await redis?.stop();
  });
  const started = (): TestRedis => {
    if (!redis) throw new Error('the test Redis is not started yet (use it inside a test or a hook)');
    return redis;
  };
  return {
    get url() {
      return started().url;
    },
    client: () => started().client(),
  };
}
