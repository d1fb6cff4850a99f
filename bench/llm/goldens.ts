import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { loadScript, type GoldenScript } from '../../server/golden/script.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { hasErrors } from '../../server/flow/diagnostic.ts';
import { compileFile } from '../../server/flow/document.ts';
import { goldenFiles } from '../../server/golden/discover.ts';
import { effectiveFlow, loadLibrary, type Library } from '../../server/catalog/library.ts';

/** Where goldens live. */
export const GOLDEN_DIRS = ['flows', 'test/golden'] as const;
const FLOWS_DIR = resolve('flows');

/** One golden to benchmark, with its flow resolved as `questline test` resolves it. */
export interface BenchGolden {
  file: string;
  script: GoldenScript;
  flow: CompiledFlow;
  /** The figures are grouped under this key: the flow id, `<flow id>@<tenant>` for a tenant's merged flow. */
  group: string;
  /** The flow comes from the shipped `flows/` folder (not a test fixture). */
  shipped: boolean;
  /** The flow file (absolute), or `tenant:<id>` for a tenant's merged flow. */
  flowFile: string;
}

export interface Discovered {
  goldens: BenchGolden[];
  /** Left out, with why. */
  skipped: Array<{ file: string; reason: string }>;
}

/**
 * Every golden under flows/ and test/golden/. A golden naming a flow file
 * relative to itself runs that file; one with `tenant:` runs the tenant's
 * merged flow from the library (the same rule as server/golden/run-golden.ts).
 * Tenants' inherited re-runs of global goldens are not added: they replay the
 * same user turns. The group is the flow id; a second flow file with the same
 * id outside flows/global gets `#<its path under flows/>` appended.
 */
export function discoverBenchGoldens(opts: { includeReplay?: boolean; includeFixtures?: boolean } = {}): Discovered {
  const goldens: BenchGolden[] = [];
  const skipped: Discovered['skipped'] = [];
  let library: Library | undefined;
  for (const file of goldenFiles([...GOLDEN_DIRS])) {
    const rel = relative('.', file);
    const parsed = loadScript(file);
    if (!parsed.ok) {
      skipped.push({ file: rel, reason: 'does not parse' });
      continue;
    }
    const script = parsed.script;
    if (script.extractor === 'replay' && !opts.includeReplay) {
      skipped.push({ file: rel, reason: 'extractor: replay (its model calls are recorded in the golden)' });
      continue;
    }
    if (!script.flow) {
      skipped.push({ file: rel, reason: 'names no flow' });
      continue;
    }
    const asFile = resolve(dirname(file), script.flow);
    let flow: CompiledFlow | undefined;
    let shipped = false;
    let group = '';
    if (!script.tenant && existsSync(asFile)) {
      const r = compileFile(asFile);
      if (r.kind === 'flow' && r.flow && !hasErrors(r.diagnostics)) flow = r.flow;
      shipped = asFile.startsWith(FLOWS_DIR + sep);
      group = flow?.id ?? '';
    } else {
      library ??= loadLibrary(FLOWS_DIR);
      let id = script.flow;
      if (existsSync(asFile)) {
        const r = compileFile(asFile);
        if (r.kind === 'flow' && r.ir) id = r.ir.id;
      }
      const eff = effectiveFlow(library, id, script.tenant);
      if (eff.flow && !hasErrors(eff.diagnostics)) flow = eff.flow;
      shipped = true;
      group = script.tenant ? `${id}@${script.tenant}` : id;
    }
    if (!flow) {
      skipped.push({ file: rel, reason: 'its flow does not compile' });
      continue;
    }
    if (!shipped && !opts.includeFixtures) {
      skipped.push({ file: rel, reason: 'runs a test fixture flow, not a shipped one' });
      continue;
    }
    goldens.push({ file: rel, script, flow, group, shipped, flowFile: script.tenant ? `tenant:${script.tenant}` : asFile });
  }
  // two flow files with one id (flows/examples/seed-sales.flow.json is also flow.sales): the one outside
  // flows/global is named by its file, so different flows are never added up
  const files = new Map<string, Set<string>>();
  for (const g of goldens) files.set(g.group, (files.get(g.group) ?? new Set()).add(g.flowFile));
  for (const g of goldens) {
    if ((files.get(g.group)?.size ?? 0) > 1 && !g.flowFile.startsWith(resolve(FLOWS_DIR, 'global') + sep) && !g.flowFile.startsWith('tenant:')) {
      g.group = `${g.group}#${relative(FLOWS_DIR, g.flowFile).replace(/\.flow\.(json|ya?ml)$/, '')}`;
    }
  }
  return { goldens, skipped };
}
