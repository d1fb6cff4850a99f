import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Nothing optional is required: what an entry point of the package (and the
// `questline` command) loads when imported must not include an optional peer
// dependency (the Anthropic SDK, ioredis, dagre, the Redis adapter). Those
// are imported on first use (`await import(...)`), so a fresh install without
// them runs every command that does not need them. This walks the static
// imports that stay in the compiled JavaScript (verbatimModuleSyntax: an
// `import type` is erased, any other import is kept) from each entry point.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependenciesMeta: Record<string, { optional?: boolean }> };
const OPTIONAL = Object.keys(pkg.peerDependenciesMeta).filter((n) => pkg.peerDependenciesMeta[n]!.optional);

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

/** The packages each file reachable from `entry` through runtime static imports loads, with the chain that reaches it. */
function staticPackages(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
    for (const st of src.statements) {
      let spec: string | undefined;
      if (ts.isImportDeclaration(st) && !st.importClause?.isTypeOnly) spec = (st.moduleSpecifier as ts.StringLiteral).text;
      if (ts.isExportDeclaration(st) && !st.isTypeOnly && st.moduleSpecifier) spec = (st.moduleSpecifier as ts.StringLiteral).text;
      if (!spec) continue;
      const here = [...chain, relative(ROOT, file)];
      if (spec.startsWith('.')) {
        const target = join(dirname(file), spec);
        if (existsSync(target)) visit(target, here);
      } else if (!spec.startsWith('node:') && !found.has(packageOf(spec))) {
        found.set(packageOf(spec), here);
      }
    }
  };
  visit(join(ROOT, entry), []);
  return found;
}

const ENTRIES: Array<[string, string[]]> = [
  ['server/api/index.ts', []], // import 'questline'
  ['server/api/server.ts', []], // import 'questline/server'
  ['server/api/testing.ts', ['vitest']], // import 'questline/testing': its contract suites run under vitest
  ['server/cli/main.ts', []], // the questline command
  ['server/cli/test.ts', []], // questline test
  ['server/cli/eval.ts', []], // questline eval
  ['server/cli/chat.ts', []], // questline chat
  ['server/cli/run.ts', []], // questline run
  ['server/cli/validate.ts', []], // questline validate
  ['server/main.ts', []], // npm start, questline serve
];

describe('optional peer dependencies are loaded on first use only', () => {
  it('knows the optional peers', () => {
    expect(OPTIONAL).toEqual(expect.arrayContaining(['@anthropic-ai/sdk', 'ioredis', '@dagrejs/dagre']));
  });
  for (const [entry, allowed] of ENTRIES) {
    it(`${entry} does not import one statically`, () => {
      const loaded = staticPackages(entry);
      const bad = OPTIONAL.filter((n) => loaded.has(n) && !allowed.includes(n)).map((n) => `${n} via ${loaded.get(n)!.join(' → ')}`);
      expect(bad).toEqual([]);
    });
  }
});

// The packages that made `import('questline')` slow (bench/import.ts, docs/benchmarks.md) are loaded when a
// message, a YAML file, a pattern or a request first needs them (server/shared/lazy-require.ts), never by an import.
const HEAVY = ['yaml', 're2js', 'chrono-node', 'libphonenumber-js', 'js-quantities', 'csv-stringify', 'damerau-levenshtein'];

describe('heavy packages are loaded on first use only', () => {
  for (const entry of ['server/api/index.ts', 'server/api/server.ts', 'server/main.ts']) {
    it(`${entry} does not import one statically`, () => {
      const loaded = staticPackages(entry);
      expect(HEAVY.filter((n) => loaded.has(n)).map((n) => `${n} via ${loaded.get(n)!.join(' → ')}`)).toEqual([]);
    });
  }
});

// What `questline/server` takes most time to load (bench/import.ts) is loaded when the server is made
// (createQuestline, startServer) or the first logger or limiter is, never by importing the entry.
const SERVER_HEAVY = ['express', 'socket.io', 'prom-client', '@opentelemetry/api', 'rate-limiter-flexible', 'pino', 'proxy-addr', 'ipaddr.js'];

describe("the server's packages are loaded when the server is made", () => {
  for (const entry of ['server/api/server.ts', 'server/main.ts']) {
    it(`${entry} does not import one statically`, () => {
      const loaded = staticPackages(entry);
      expect(SERVER_HEAVY.filter((n) => loaded.has(n)).map((n) => `${n} via ${loaded.get(n)!.join(' → ')}`)).toEqual([]);
    });
  }
});
