import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Library } from '../catalog/library.ts';
import { parseScript } from './script.ts';
import type { Override } from './run-golden.ts';

/** One golden to run: a file, and for inherited runs the tenant and its intended divergences. */
export interface GoldenJob {
  file: string;
  tenant?: string;
  overrides?: Override[];
  /** How the job is named in output and in vitest. */
  label: string;
}

/** A tenant's declared divergences from the goldens it inherits: `flows/tenants/<t>/goldens.yaml`. */
export const TenantGoldens = z.strictObject({
  /** Inherited goldens to leave out entirely (file stem or golden name), with a reason. */
  skip: z.array(z.strictObject({ golden: z.string(), reason: z.string() })).optional(),
  overrides: z.array(z.strictObject({
    golden: z.string().describe('the golden file stem (sales-happy) or its name'),
    turn: z.union([z.number().int().positive(), z.literal('end')]),
    expect: z.record(z.string(), z.unknown()),
  })).optional(),
});
export type TenantGoldens = z.infer<typeof TenantGoldens>;

const GOLDEN = /\.golden\.ya?ml$/;

/** Golden files under the given files and folders, sorted. */
export function goldenFiles(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (!existsSync(p)) continue;
    if (statSync(p).isDirectory()) {
      for (const d of readdirSync(p, { recursive: true, withFileTypes: true })) {
        if (d.isFile() && GOLDEN.test(d.name) && !d.parentPath.split(sep).includes('node_modules')) out.add(join(d.parentPath, d.name));
      }
    } else out.add(p);
  }
  return [...out].sort();
}

const stem = (file: string) => basename(file).replace(GOLDEN, '');

/** The flow id a golden runs, read without running it (for inheritance). */
function flowIdOf(file: string, library: Library): string | undefined {
  const parsed = parseScript(readFileSync(file, 'utf8'), file);
  if (!parsed.ok || !parsed.script.flow || parsed.script.tenant) return undefined;
  const target = resolve(file, '..', parsed.script.flow);
  for (const [id, f] of library.flows) if (resolve(f.file) === target) return id;
  return library.flows.has(parsed.script.flow) ? parsed.script.flow : undefined;
}

/**
 * The jobs for a test run: every golden found, plus, for each tenant whose
 * folder is in scope, the global and industry goldens of its flows re-run on
 * its merged flow with the overrides it declares.
 */
export function discoverJobs(paths: readonly string[], library: Library): { jobs: GoldenJob[]; problems: string[] } {
  const problems: string[] = [];
  const files = goldenFiles(paths);
  const jobs: GoldenJob[] = files.map((file) => ({ file, label: relative('.', file) }));
  const scope = paths.map((p) => resolve(p));
  const inScope = (dir: string) => scope.some((p) => resolve(dir) === p || resolve(dir).startsWith(p + sep));
  const shared = goldenFiles([join(library.dir, 'global'), join(library.dir, 'packs')]);
  for (const [id, tenant] of [...library.tenants].sort(([a], [b]) => a.localeCompare(b))) {
    const dir = join(library.dir, 'tenants', id);
    if (!inScope(dir)) continue;
    let declared: TenantGoldens = {};
    const cfg = join(dir, 'goldens.yaml');
    if (existsSync(cfg)) {
      const parsed = TenantGoldens.safeParse(parseYaml(readFileSync(cfg, 'utf8')));
      if (parsed.success) declared = parsed.data;
      else problems.push(`${cfg}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    const packs = new Set(tenant.tenant?.packs ?? []);
    const flows = new Set(tenant.tenant?.flows ?? []);
    const inherited: { names: string[]; turns: number }[] = [];
    for (const file of shared) {
      const pack = relative(join(library.dir, 'packs'), file).split(sep)[0];
      if (!relative(join(library.dir, 'global'), file).startsWith('..') || (pack && packs.has(pack))) {
        const flowId = flowIdOf(file, library);
        if (!flowId || !flows.has(flowId)) continue;
        const name = stem(file);
        const parsed = parseScript(readFileSync(file, 'utf8'), file);
        const goldenName = parsed.ok ? parsed.script.name : undefined;
        inherited.push({ names: goldenName ? [name, goldenName] : [name], turns: parsed.ok ? parsed.script.turns.length : Infinity });
        const matches = (g: string) => g === name || g === goldenName;
        if (declared.skip?.some((s) => matches(s.golden))) continue;
        const overrides = (declared.overrides ?? []).filter((o) => matches(o.golden)).map((o) => ({ turn: o.turn, expect: o.expect }));
        jobs.push({ file, tenant: id, overrides, label: `${relative('.', file)} [tenant ${id}]` });
      }
    }
    problems.push(...unknownDivergences(relative('.', cfg), declared, inherited));
  }
  return { jobs, problems };
}

/**
 * A tenant's declared divergences that name no golden it inherits, or a turn
 * that golden does not have: each is a problem (a typo would otherwise be
 * ignored and the divergence never applied).
 */
function unknownDivergences(cfg: string, declared: TenantGoldens, inherited: readonly { names: string[]; turns: number }[]): string[] {
  const known = inherited.flatMap((g) => g.names);
  const find = (golden: string) => inherited.find((g) => g.names.includes(golden));
  const listed = known.length ? `it inherits: ${[...new Set(known)].sort().join(', ')}` : 'it inherits no goldens';
  const out: string[] = [];
  for (const [i, s] of (declared.skip ?? []).entries()) {
    if (!find(s.golden)) out.push(`${cfg}: skip[${i}] names golden '${s.golden}', which this tenant does not inherit (${listed})`);
  }
  for (const [i, o] of (declared.overrides ?? []).entries()) {
    const golden = find(o.golden);
    if (!golden) out.push(`${cfg}: overrides[${i}] names golden '${o.golden}', which this tenant does not inherit (${listed})`);
    else if (o.turn !== 'end' && o.turn > golden.turns) out.push(`${cfg}: overrides[${i}] names turn ${o.turn} of '${o.golden}', which has ${golden.turns} turns`);
  }
  return out;
}
