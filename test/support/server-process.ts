import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The server as `npm start` runs it (`node --import tsx server/main.ts`), in a
// child process, for the tests that kill it or run several at once. Every
// process started here is tracked: killServers() SIGKILLs what is still
// running (call it from afterEach or afterAll), and should the test runner
// itself go away, the servers go along.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));

/** A server process and what it logged. */
export interface ServerProcess {
  proc: ChildProcess;
  pid: number;
  /** The URL from its "Questline listening on …" log line. */
  url: string;
  /** Its stdout lines and stderr chunks. */
  logs: string[];
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

export interface SpawnServerOptions {
  /** Names the process in errors; default "the server". */
  label?: string;
  /** How long to wait for the listening line; default 15 s. */
  timeoutMs?: number;
  /** Keep at most this many stdout lines in `logs` (a long run under load); default: all. */
  maxLogLines?: number;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

/** SIGKILLs every server process still running and waits until they are gone (also when a test failed half-way). */
export async function killServers(): Promise<void> {
  await Promise.all([...running].map((p) => new Promise<void>((done) => {
    if (p.exitCode !== null || p.signalCode !== null) return done();
    p.once('exit', () => done());
    p.kill('SIGKILL');
  })));
  running.clear();
}

/**
 * Starts `node --import tsx server/main.ts` with `env` over the test runner's
 * environment (PORT=0, HOST=127.0.0.1 and LOG_LEVEL=info unless `env` says
 * otherwise); resolves with the URL it logs once listening, rejects with its
 * logs if it exits first or does not listen within `timeoutMs`.
 */
export function spawnServer(env: Record<string, string>, opts: SpawnServerOptions = {}): Promise<ServerProcess> {
  const label = opts.label ?? 'the server';
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxLogLines = opts.maxLogLines ?? Infinity;
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  const logs: string[] = [];
  const exited = new Promise<void>((done) => proc.once('exit', () => {
    running.delete(proc);
    done();
  }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${label}: no "Questline listening on" line within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${err.message}\n${logs.join('\n')}`));
    };
    let buffered = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (logs.length < maxLogLines) logs.push(line);
        let entry: { msg?: string; url?: string } = {};
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          continue; // not a log line
        }
        if (entry.url && entry.msg?.startsWith('Questline listening on')) {
          clearTimeout(timer);
          resolve({ proc, pid: proc.pid!, url: entry.url, logs, exited });
        }
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8').trimEnd()));
    proc.once('exit', (code, signal) => fail(new Error(`${label} exited (code ${code}, signal ${signal}) before listening`)));
  });
}
