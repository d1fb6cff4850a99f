import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Tenant } from '../../server/catalog/tenant.ts';
import { ConfigSchema, loadConfig } from '../../server/config.ts';
import { DEFAULT_RATE_LIMITS, tenantCeilingOf } from '../../server/transport/rate-limits.ts';

// What the manual documents must be what the code does: the tenant file it
// shows must be one the server accepts (a documented field the schema
// rejects, once `llm.budget.tokens`, takes a tenant offline at start), and
// every setting is in the configuration table with its default.

/** The JSON block right under `heading` in a markdown file. */
function exampleUnder(file: string, heading: string): unknown {
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(heading);
  expect(from).toBeGreaterThanOrEqual(0);
  const block = /```json\n([\s\S]*?)```/.exec(text.slice(from));
  return JSON.parse(block![1]!);
}

describe('the documented tenant file', () => {
  it('is accepted by the tenant schema, every documented field included', () => {
    const doc = exampleUnder('docs/interfaces.md', '## Tenant file') as Record<string, unknown>;
    const parsed = Tenant().safeParse(doc);
    expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
    // the fields the manual promises are the schema's (a renamed field would be dropped by a strict schema's error above, and missing here)
    expect(Object.keys(doc).sort()).toEqual(Object.keys(Tenant().shape).filter((k) => k !== '$schema').sort());
    expect(doc).toMatchObject({ llm: { budget: { calls: expect.any(Number), tokens: expect.any(Number) }, daily: { calls: expect.any(Number), tokens: expect.any(Number) } } });
  });
});

describe('the documented settings', () => {
  const ops = readFileSync('docs/operations.md', 'utf8');
  const rows = new Map([...ops.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]*) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));

  it('lists every environment variable server/config.ts reads, with its default', () => {
    const defaults = loadConfig({}) as Record<string, unknown>;
    for (const name of Object.keys(ConfigSchema.shape)) {
      expect(rows.has(name), `${name} in docs/operations.md's configuration table`).toBe(true);
      if (defaults[name] !== undefined) expect(rows.get(name), `${name}'s default`).toContain(`\`${String(defaults[name])}\``);
      else expect(rows.get(name), `${name} has no default`).toMatch(/^—/);
    }
    for (const name of rows.keys()) expect(Object.keys(ConfigSchema.shape), `${name} documented but not read`).toContain(name);
  });

  it('lists every rate limit with its default and its RATE_LIMITS name', () => {
    const limits = new Map([...ops.matchAll(/^ {2}\| [^|]+ \| ([^|]+) \| `(\w+)` \|$/gm)].map((m) => [m[2]!, m[1]!]));
    // the tenant's hard ceiling has no stored default: it is derived from perTenant (tenantCeilingOf)
    const defaults = { ...DEFAULT_RATE_LIMITS, tenantCeiling: tenantCeilingOf(DEFAULT_RATE_LIMITS) };
    expect([...limits.keys()].sort()).toEqual(Object.keys(defaults).sort());
    for (const [name, rate] of Object.entries(defaults)) expect(limits.get(name), name).toContain(`\`${rate.points}/${rate.seconds}\``);
  });
});
