import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSnippet, snippetsOf, type Snippet } from '../support/doc-snippets.ts';

// The package as a user gets it: `npm pack` (which builds dist/ through
// prepack), the tarball installed into a fresh project, and everything run
// there by plain `node` — no tsx, no TypeScript sources, no optional peers.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const EXAMPLES = ['engine-script.mjs', 'custom-validator-action.mjs', 'custom-extractor.mjs', 'custom-store.mjs', 'express-mount.mjs', 'signup.flow.json', 'flows'];

/** A flow with an unknown field on line 4. */
const BROKEN_FLOW = '{\n  "version": "v1",\n  "id": "flow.broken",\n  "nodes": [{ "id": "q.a", "type": "question", "key": "a", "colour": "red" }]\n}\n';

interface PackedFile { path: string; size: number }
interface Packed { filename: string; size: number; unpackedSize: number; entryCount: number; files: PackedFile[] }

let work = '';
let app = '';
let packed: Packed;

/** Runs a command in the consumer project; resolves with its output and exit code instead of throwing. */
async function inApp(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: app, env: { ...process.env, NODE_OPTIONS: '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The JSON summary an example prints on its last line. */
function lastJson(stdout: string): { status: string; answers: Record<string, unknown> } {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { status: string; answers: Record<string, unknown> };
}

beforeAll(async () => {
  const t0 = Date.now();
  work = mkdtempSync(join(tmpdir(), 'questline-consumer-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 });
  // prepack's build output comes before the JSON on stdout.
  packed = (JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as Packed[])[0]!;
  const t1 = Date.now();
  app = join(work, 'app');
  await run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', join(work, packed.filename), '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts'], { cwd: app });
  for (const f of EXAMPLES) cpSync(join(ROOT, 'examples', f), join(app, f), { recursive: true });
  writeFileSync(join(app, 'broken.flow.json'), BROKEN_FLOW);
  console.log(`consumer: tarball ${packed.filename} ${(packed.size / 1024).toFixed(0)} kB (${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked), ${packed.entryCount} files; pack+build ${t1 - t0} ms, install ${Date.now() - t1} ms`);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('the packed tarball', () => {
  it('holds the compiled entry points, types, widget and CLI, and no tests, benches, fixtures or data', () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of ['package.json', 'bin/questline.js', 'dist/server/api/index.js', 'dist/server/api/index.d.ts', 'dist/server/api/server.js',
      'dist/server/api/testing.js', 'dist/client/widget.js', 'dist/client/widget-socket.js', 'dist/client/widget-texts.js', 'flows/flow.schema.json', 'CHANGELOG.md']) {
      expect(paths).toContain(p);
    }
    expect(paths.filter((p) => /(^|\/)(test|tests|bench|fixtures|data|examples)\//.test(p) || /\.test\.|\.golden\./.test(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
  });

  it('installs without the optional peers (Redis, Anthropic SDK, graph layout) or the build tools', () => {
    for (const name of ['ioredis', '@socket.io/redis-streams-adapter', '@anthropic-ai/sdk', '@dagrejs/dagre', 'esbuild', 'tsx', 'typescript']) {
      expect(existsSync(join(app, 'node_modules', name)), name).toBe(false);
    }
    expect(existsSync(join(app, 'node_modules', 'questline', 'dist', 'server', 'api', 'index.js'))).toBe(true);
  });
});

describe('a Node project using the installed package', () => {
  it('imports questline from plain node and lists the public API', async () => {
    const script = "const q = await import('questline'); console.log(JSON.stringify(Object.keys(q).sort()));";
    const r = await inApp(process.execPath, ['--input-type=module', '-e', script]);
    expect(r.stderr).toBe('');
    const names = JSON.parse(r.stdout) as string[];
    for (const name of ['openFlow', 'converse', 'checkImplementations', 'defineConfig', 'LocalConversation', 'start', 'turn', 'compileText', 'formatDiagnostic', 'OfflineExtractor', 'MemoryStore']) expect(names).toContain(name);
  });

  it('runs a two-question conversation with a named validator and an action (examples/custom-validator-action.mjs)', async () => {
    const r = await inApp(process.execPath, ['custom-validator-action.mjs']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The validator refuses the personal address with the flow's message; the action's output lands in the answers.
    expect(r.stdout).toContain('bot: Please give your work email, not a personal one.');
    expect(r.stdout).toContain('bot: Thanks! 12 seats come to 144 EUR a month; we will write to alice@acme.io.');
    expect(lastJson(r.stdout)).toEqual({ status: 'completed', answers: { email: 'alice@acme.io', seats: 12, quote_total: 144 } });
  });

  it('compiles a flow given as an object and holds a conversation in memory (examples/engine-script.mjs)', async () => {
    const r = await inApp(process.execPath, ['engine-script.mjs']);
    expect(r.stderr).toBe('');
    expect(lastJson(r.stdout)).toEqual({ status: 'completed', answers: { name: 'Ada Lovelace', email: 'ada@example.org' } });
  });

  it('reports a broken flow as diagnostics with file, line and column, not an exception', async () => {
    const script = "import { openFlow } from 'questline'; const r = openFlow('broken.flow.json'); console.log(JSON.stringify(r));";
    const r = await inApp(process.execPath, ['--input-type=module', '-e', script]);
    const result = JSON.parse(r.stdout) as { ok: boolean; diagnostics: Array<{ file: string; line: number; col: number; message: string }> };
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ severity: 'error', code: 'unknown_field', file: 'broken.flow.json', line: 4, col: 60 }));
  });

  it('holds a conversation with an extractor of its own (examples/custom-extractor.mjs)', async () => {
    const r = await inApp(process.execPath, ['custom-extractor.mjs']);
    expect(r.stderr).toBe('');
    // one message proposes three answers: product and city are kept, the quantity 0 is not (the flow's min is 1), so it is asked next
    expect(r.stdout).toContain('you: product: lamp, quantity: 0, city: Lyon\nbot: How many?\nyou: quantity: 4');
    expect(lastJson(r.stdout)).toEqual({ status: 'completed', answers: { product: 'lamp', quantity: 4, city: 'Lyon' } });
  });

  it('runs its own SessionStore (examples/custom-store.mjs)', async () => {
    const r = await inApp(process.execPath, ['custom-store.mjs']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ created: { ok: true }, saved: { ok: true, version: 2 }, transcript: 1, listed: 1 });
  });

  it('mounts createQuestline from questline/server in an express app under /chat, and holds a REST conversation (examples/express-mount.mjs)', async () => {
    const r = await inApp(process.execPath, ['express-mount.mjs']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // the named validator and the action run on the server; the app's own route still answers
    expect(r.stdout).toContain('bot: Please give your work email, not a personal one. What is your work email?');
    expect(r.stdout).toContain('bot: Thanks! 3 seats come to 36 EUR a month; we will write to bob@acme.io.');
    // mounted under /chat: the API and the widget's bundle answer there, the app's own home page at /
    expect(lastJson(r.stdout)).toEqual({ home: true, widget: 200, status: 'completed' });
  }, 60_000);

  it('serves no demo page or console with pages: false, and needs none of the optional peers', async () => {
    const script = [
      "import { createServer } from 'node:http';",
      "import { createLogger, createQuestline } from 'questline/server';",
      "const q = await createQuestline({ flowsDir: 'flows', pages: false, adminKey: 'admin-secret', logger: createLogger('silent'), validators: { work_email: () => null }, actions: { 'pricing.quote': async () => ({ total: 1 }) } });",
      'const http = createServer(q.handler); q.attach(http);',
      "await new Promise((r) => http.listen(0, '127.0.0.1', r));",
      'const base = `http://127.0.0.1:${http.address().port}`;',
      "const codes = await Promise.all(['/', '/admin', '/widget.js', '/healthz'].map(async (p) => (await fetch(base + p)).status));",
      "const graph = await fetch(base + '/api/v1/tenants/demo/flows/flow.signup/graph', { headers: { 'x-questline-key': 'pk_demo_signup' } });",
      'const body = await graph.json();',
      // the operator's view of a session still opens, without the path on the flow map
      "const started = await (await fetch(base + '/api/v1/tenants/demo/sessions', { method: 'POST', headers: { 'content-type': 'application/json', 'x-questline-key': 'pk_demo_signup' }, body: JSON.stringify({ flow: 'flow.signup' }) })).json();",
      "const detail = await fetch(base + '/api/v1/admin/sessions/' + started.sessionId, { headers: { 'x-questline-admin': 'admin-secret' } });",
      'const d = await detail.json();',
      'await q.close();',
      'console.log(JSON.stringify({ codes, graph: graph.status, error: body.error, detail: detail.status, flow: d.flow?.id, trail: d.trail }));',
    ].join('\n');
    const r = await inApp(process.execPath, ['--input-type=module', '-e', script]);
    // without @dagrejs/dagre installed, only the graph layout route fails, saying which package to install; everything else runs
    expect(JSON.parse(r.stdout)).toEqual({
      codes: [404, 404, 404, 200], graph: 501,
      error: { code: 'not_installed', message: 'The flow map needs the optional package @dagrejs/dagre, which is not installed here (npm install @dagrejs/dagre).' },
      detail: 200, flow: 'flow.signup', trail: { nodes: [], edges: [] },
    });
  }, 60_000);

  it('draws a flow as Mermaid with npx questline graph, and says which package the laid-out formats need', async () => {
    const mermaid = await inApp('npx', ['--no-install', 'questline', 'graph', 'signup.flow.json']);
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout).toMatch(/^flowchart TD/m);
    const json = await inApp('npx', ['--no-install', 'questline', 'graph', 'signup.flow.json', '--format', 'json']);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe('');
    expect(json.stderr).toContain('questline graph: --format json needs the optional package @dagrejs/dagre, which is not installed here (npm install @dagrejs/dagre). --format mermaid needs no layout.');
  }, 90_000);

  it('validates flows with npx questline validate', async () => {
    const ok = await inApp('npx', ['--no-install', 'questline', 'validate', 'signup.flow.json']);
    expect(ok.stderr).toContain('ok signup.flow.json: flow.signup');
    expect(ok.code).toBe(0);
    const bad = await inApp('npx', ['--no-install', 'questline', 'validate', 'broken.flow.json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("broken.flow.json:4:60");
  }, 90_000);

  it('runs a golden with npx questline test, and --record says which package it needs (no Anthropic SDK installed)', async () => {
    writeFileSync(join(app, 'questline.config.mjs'), [
      'export default {',
      "  validators: { work_email: (value, args) => (args.blocked.includes(String(value).split('@')[1]) ? 'personal' : null) },",
      "  actions: { 'pricing.quote': async ({ seats }) => ({ total: seats * 12 }) },",
      '};',
    ].join('\n'));
    mkdirSync(join(app, 'test', 'golden'), { recursive: true });
    writeFileSync(join(app, 'test', 'golden', 'signup.golden.yaml'), [
      'name: a visitor signs up with a work address',
      'flow: ../../signup.flow.json',
      'extractor: rules',
      'turns:',
      '  - user: "bob@gmail.com"',
      "    expect: { node: q.email, say: '/work email/' }",
      '  - user: "alice@acme.io"',
      '    expect: { node: q.seats, answers: { email: alice@acme.io } }',
      '  - user: "12"',
      '    expect: { status: completed, answers: { seats: 12, quote_total: 144 } }',
    ].join('\n'));
    // a developer's own machine, not CI: the first run writes the trace snapshot (under CI a missing one fails)
    const r = await inApp('npx', ['--no-install', 'questline', 'test', 'test/golden'], { CI: '' });
    expect(r.stdout + r.stderr).toContain('1 passed, 0 failed');
    expect(r.code).toBe(0);
    const rec = await inApp('npx', ['--no-install', 'questline', 'test', '--record', 'test/golden'], { ANTHROPIC_API_KEY: 'sk-not-used' });
    expect(rec.code).toBe(1);
    expect(rec.stdout + rec.stderr).toContain('needs the optional package @anthropic-ai/sdk, which is not installed here (npm install @anthropic-ai/sdk).');
    rmSync(join(app, 'questline.config.mjs'));
  }, 90_000);

  it('checks the names a flow uses against questline.config with validate --config', async () => {
    writeFileSync(join(app, 'only-actions.config.mjs'), "export default { actions: { 'pricing.quote': async () => ({ total: 0 }) } };\n");
    const r = await inApp('npx', ['--no-install', 'questline', 'validate', '--config', 'only-actions.config.mjs', 'signup.flow.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^signup\.flow\.json:11:30: error \[unregistered_validator\] validator 'work_email' is not registered/m);
  }, 90_000);

  it('ships the prebuilt widget under questline/widget.js', async () => {
    const r = await inApp(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('questline/widget.js'))"]);
    const file = fileURLToPath(r.stdout.trim());
    expect(statSync(file).size).toBeGreaterThan(1000);
    expect(readFileSync(file, 'utf8')).not.toMatch(/^import /m);
  });

  it('type-checks TypeScript code against the shipped declarations', async () => {
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['check.ts'],
    }));
    writeFileSync(join(app, 'check.ts'), [
      "import { converse, openFlow, type ActionRegistry, type EngineOptions, type Exchange, type Extractor, type SessionStore } from 'questline';",
      "import { createQuestline, type Questline } from 'questline/server';",
      "const validators: EngineOptions['validators'] = { even: (v) => (Number(v) % 2 === 0 ? null : 'odd') };",
      "const actions: ActionRegistry = { 'x.y': async (input) => ({ echoed: input }) };",
      "const opened = openFlow('signup.flow.json', { packs: [] });",
      "if (opened.ok) { const first: Promise<Exchange> = converse(opened.flow, { actions, validators }).start(); void first; }",
      "export const mounted: Promise<Questline> = createQuestline({ flowsDir: 'flows', pages: false, actions, validators });",
      "export type Both = [Extractor, SessionStore];",
      "import type { TurnWrites } from 'questline';",
      "export const noTurn: TurnWrites = { transcript: [], events: [] };",
      "// @ts-expect-error: a validator returns a message or null, not a boolean",
      "export const wrong: EngineOptions['validators'] = { bad: () => true };",
    ].join('\n'));
    const r = await inApp(process.execPath, [TSC, '-p', '.']);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);
});

// Docs that run: every code block of README.md and docs/library.md, as a
// developer pastes it into an empty project with the tarball installed
// (test/support/doc-snippets.ts says which blocks are files, programs,
// types or commands). Each document gets its own folder under the project.
for (const [path, name] of [['README.md', 'readme'], ['docs/library.md', 'library']] as const) {
  describe(`every snippet of ${path} runs against the tarball`, () => {
    const snippets = snippetsOf(join(ROOT, path), path);
    const programs = snippets.filter((s) => s.lang === 'js' && !s.file);
    const commands = snippets.filter((s) => s.lang === 'sh').flatMap((s) =>
      s.code.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l.startsWith('npx questline ')).map((l) => ({ ...s, code: l })));
    let dir = '';
    const programFile = (s: Snippet) => `snippet-${s.line}.mjs`;

    beforeAll(() => {
      dir = join(app, `docs-${name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `docs-${name}`, private: true, type: 'module' }));
      cpSync(join(ROOT, 'examples', 'custom-store.mjs'), join(dir, 'custom-store.mjs'));
      for (const s of snippets) {
        if (s.file) {
          mkdirSync(dirname(join(dir, s.file)), { recursive: true });
          writeFileSync(join(dir, s.file), s.code);
        }
      }
      // checked as a developer checks a JavaScript file with types (// @ts-check): the example files it imports are not
      for (const s of programs) writeFileSync(join(dir, programFile(s)), s.code);
      for (const s of programs) writeFileSync(join(dir, `check-${s.line}.mjs`), `// @ts-check\n${s.code}`);
      for (const s of snippets.filter((f) => f.file?.endsWith('.mjs') && !f.file.includes('.test.'))) writeFileSync(join(dir, `check-${s.line}.mjs`), `// @ts-check\n${s.code}`);
      snippets.filter((s) => s.lang === 'ts').forEach((s) => writeFileSync(join(dir, `snippet-${s.line}.ts`), s.code));
      // the TypeScript a developer has: Node's and express's types (copied from this repository's devDependencies)
      cpSync(join(ROOT, 'node_modules', '@types'), join(app, 'node_modules', '@types'), { recursive: true });
    });

    it('has snippets to run', () => {
      expect(programs.length).toBeGreaterThan(0);
    });

    for (const s of programs) {
      it(`${path}:${s.line} runs as written`, async () => {
        const r = await runSnippet(programFile(s), dir, { PORT: '0' });
        expect(r.stderr).toBe('');
        // a program ends with 0; a server prints "listening on <url>" and answers /healthz
        if (r.code === null) expect(r.health).toBe(200);
        else expect(r.code).toBe(0);
      }, 60_000);
    }

    for (const c of commands) {
      it(`${path}:${c.line} \`${c.code}\` runs`, async () => {
        const r = await inApp('sh', ['-c', `cd docs-${name} && ${c.code.replace(/^npx /, 'npx --no-install ')} </dev/null`]);
        expect(r.stderr).not.toMatch(/error/i);
        expect(r.code).toBe(0);
      }, 60_000);
    }

    for (const [resolution, module] of [['nodenext', 'nodenext'], ['bundler', 'esnext']] as const) {
      it(`type-checks under strict TypeScript with moduleResolution ${resolution}`, async () => {
        const config = `tsconfig.${resolution}.json`;
        writeFileSync(join(dir, config), JSON.stringify({
          compilerOptions: {
            target: 'ES2022', module, moduleResolution: resolution, strict: true, noEmit: true, skipLibCheck: true,
            allowJs: true, checkJs: false, types: ['node'], lib: ['ES2023'],
          },
          include: ['check-*.mjs', 'snippet-*.ts'],
        }));
        const r = await inApp(process.execPath, [TSC, '-p', join(`docs-${name}`, config)]);
        expect(r.stdout + r.stderr).toBe('');
        expect(r.code).toBe(0);
      }, 90_000);
    }
  });
}
