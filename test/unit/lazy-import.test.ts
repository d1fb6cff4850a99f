import { beforeEach, describe, expect, it, vi } from 'vitest';

// `import('questline')` must stay fast (issue 32; the figures are in
// docs/benchmarks.md, the timing in bench/import.ts, never here): importing
// the entry builds no zod schema. Schemas are built on first use
// (server/shared/lazy.ts). This counts every call of a `z.…` factory made
// while the entry's modules load, with the module that made it, through a
// counting `zod` (vi.mock applies to every module the test imports).

const calls: string[] = [];

vi.mock('zod', async (importOriginal) => {
  const zod = await importOriginal<typeof import('zod')>();
  /** The first stack line outside zod and this file: the module that called `z.…`. */
  const caller = () => (new Error().stack ?? '').split('\n').slice(2).find((l) => !l.includes('node_modules/zod') && !l.includes('lazy-import.test'))?.trim() ?? '?';
  const z = new Proxy(zod.z, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      // factories are lower-case (z.object, z.string…); classes (z.ZodError…) are passed through for `new` and `instanceof`
      if (typeof value !== 'function' || typeof key !== 'string' || !/^[a-z]/.test(key)) return value;
      return (...args: unknown[]) => {
        calls.push(`z.${key} from ${caller()}`);
        return (value as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  return { ...zod, z };
});

beforeEach(() => {
  vi.resetModules();
  calls.length = 0;
});

describe("import('questline') builds no zod schema", () => {
  it('loads the entry without one call of a zod factory', async () => {
    const api = await import('../../server/api/index.ts');
    expect(typeof api.converse).toBe('function');
    expect([...new Set(calls.map((c) => c.replace(/^.*\/(server\/[^:]+):.*$/, '$1')))]).toEqual([]);
  });

  it('builds the flow schema on first use (so the count above can see one)', async () => {
    const api = await import('../../server/api/index.ts');
    expect(calls).toEqual([]);
    const doc = api.compileText(JSON.stringify({ version: 'v1', id: 'lazy', nodes: [{ id: 'q', type: 'question', key: 'name' }] }), 'lazy.json');
    expect(doc.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.some((c) => c.includes('flow/schema.ts'))).toBe(true);
  });
});

describe("import('questline') loads no package it loads on first use through require()", () => {
  // packages a language pack names at load but reads through createRequire on first use (server/language/stem.ts):
  // the static check in optional-peers.test.ts cannot see them, so this imports the entry in a fresh process
  it('snowball-stemmers is not loaded by the import, and is by the first option read in other words', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = [
      "import { createRequire } from 'node:module';",
      'const cache = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes("snowball-stemmers")).length;',
      "const api = await import('./server/api/index.ts');",
      'const before = cache();',
      "const { stemmer } = await import('./server/language/stem.ts');",
      "stemmer('english')('vaccines');",
      'console.log(JSON.stringify({ before, after: cache(), api: typeof api.converse }));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout.trim())).toEqual({ before: 0, after: 1, api: 'function' });
  }, 60_000);
});
