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
