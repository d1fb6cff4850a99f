import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

// The code blocks of a Markdown document, as the docs test runs them
// (test/e2e/consumer.test.ts, "every snippet of the docs runs"):
// - a block whose info string names a file (```json signup.flow.json,
//   ```js questline.config.mjs) is that file: written before anything runs;
// - every other ```js block is a program, run by node in an empty project
//   with the packed tarball installed (and type-checked as TypeScript);
// - ```ts blocks are type-checked only; ```sh lines starting with
//   `npx questline` are run; other blocks (text, output, the clone's own
//   commands) are left alone.

/** One fenced block of a document. */
export interface Snippet {
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The file the block is, when its info string names one. */
  file?: string;
  code: string;
}

/** The fenced code blocks of `path`, labelled with `doc`. */
export function snippetsOf(path: string, doc: string): Snippet[] {
  const text = readFileSync(path, 'utf8');
  const out: Snippet[] = [];
  const fence = /^```([\w-]*)[ \t]*([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    const line = text.slice(0, m.index).split('\n').length;
    const file = m[2]!.trim();
    out.push({ doc, line, lang: m[1]!, ...(file ? { file } : {}), code: m[3]! });
  }
  return out;
}

/** What a program did: its exit code (null when stopped after it listened), output, and the address it listened on. */
export interface SnippetRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The health check's status when the program printed `listening on <url>` (it is then stopped). */
  health?: number;
}

/**
 * Runs `file` with node in `cwd`. A program that ends must exit 0; one that
 * prints `listening on http://…` (a server) is asked for `/healthz` under its
 * `healthPath` and then stopped.
 */
export function runSnippet(file: string, cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<SnippetRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let health: number | undefined;
    let checking = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m && !checking) {
        checking = true;
        void fetch(`${m[1]!.replace(/\/$/, '')}/healthz`).then((r) => (health = r.status), () => (health = -1)).finally(() => child.kill('SIGTERM'));
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: checking ? null : code, stdout, stderr, ...(health !== undefined ? { health } : {}) });
    });
  });
}
