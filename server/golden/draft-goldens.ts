import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import type { TranscriptEntry } from '../protocol/session.ts';
import { coverageFor, coverageReport, recordCoverage, type CoverageReport, type FlowCoverage } from './coverage.ts';
import type { Library } from '../catalog/library.ts';
import { discoverJobs } from './discover.ts';
import { runGolden, type GoldenOptions, type Override } from './run-golden.ts';
import { parseScript } from './script.ts';

// The Studio's goldens: the goldens beside a flow file run against a draft
// (no trace snapshot: the draft's trace differs on purpose), with the
// coverage they reach; and a preview chat written down as a new golden.

/** The golden files beside a flow file that name it (`flow: <its file name>`), sorted. */
export function goldensOfFlow(flowFile: string): string[] {
  const dir = dirname(flowFile);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /\.golden\.ya?ml$/.test(n)).sort();
  } catch {
    return [];
  }
  return names.map((n) => join(dir, n)).filter((file) => {
    const parsed = parseScript(readFileSync(file, 'utf8'), file);
    return parsed.ok && !parsed.script.tenant && parsed.script.flow !== undefined && resolve(dir, parsed.script.flow) === resolve(flowFile);
  });
}

/** One golden to run on a draft: a file, and for a tenant's merged flow the tenant and the divergences it declares. */
export interface DraftGoldenJob {
  file: string;
  tenant?: string;
  overrides?: readonly Override[];
}

/**
 * The goldens a tenant's flow answers to, as `questline test` runs them for
 * the tenant's folder: the global and pack goldens of that flow (less the
 * tenant's `skip`s, with its `overrides` from `goldens.yaml`) and the
 * tenant's own goldens of that flow.
 */
export function tenantGoldenJobs(library: Library, tenant: string, flow: string): { jobs: DraftGoldenJob[]; problems: string[] } {
  const base = library.flows.get(flow)?.file;
  const names = (file: string) => {
    const parsed = parseScript(readFileSync(file, 'utf8'), file);
    if (!parsed.ok || !parsed.script.flow) return undefined;
    return { tenant: parsed.script.tenant, flow: parsed.script.flow === flow || (base !== undefined && resolve(dirname(file), parsed.script.flow) === resolve(base)) };
  };
  const { jobs, problems } = discoverJobs([join(library.dir, 'tenants', tenant)], library);
  const out: DraftGoldenJob[] = [];
  for (const j of jobs) {
    const n = names(j.file);
    if (!n?.flow) continue;
    if (j.tenant === tenant) out.push({ file: j.file, tenant, ...(j.overrides?.length ? { overrides: j.overrides } : {}) });
    else if (!j.tenant && n.tenant === tenant) out.push({ file: j.file, tenant });
  }
  return { jobs: out, problems };
}

/** What running the goldens on a draft gives: per golden, and what the draft's graph never saw. */
export interface DraftGoldenRun {
  passed: number;
  failed: number;
  results: Array<{ file: string; name: string; ok: boolean; message?: string; tenant?: string }>;
  coverage: (CoverageReport & { coveredNodes: string[]; coveredEdges: string[] }) | null;
}

/** Runs goldens (files, or jobs with a tenant's overrides) against a compiled draft and gathers their coverage. */
export async function runDraftGoldens(files: ReadonlyArray<string | DraftGoldenJob>, flow: CompiledFlow, implementations?: GoldenOptions['implementations']): Promise<DraftGoldenRun> {
  const results: DraftGoldenRun['results'] = [];
  const map = new Map<string, FlowCoverage>();
  const c = coverageFor(map, flow);
  for (const job of files) {
    const { file, tenant, overrides } = typeof job === 'string' ? { file: job, tenant: undefined, overrides: undefined } : job;
    const r = await runGolden(file, { flow, noSnapshot: true, ...(tenant ? { tenant } : {}), ...(overrides ? { overrides } : {}), ...(implementations ? { implementations } : {}) });
    recordCoverage(c, r.events, r.shown ?? []);
    const first = r.failures[0];
    const message = first
      ? `turn ${first.turn}${first.line ? ` (line ${first.line})` : ''}: ${first.mismatches.map((m) => m.why).join('; ') || first.message || 'failed'}`
      : undefined;
    results.push({ file: basename(file), name: r.name, ok: r.passed, ...(message ? { message } : {}), ...(tenant ? { tenant } : {}) });
  }
  const passed = results.filter((r) => r.ok).length;
  return {
    passed, failed: results.length - passed, results,
    coverage: files.length ? { ...coverageReport(c), coveredNodes: [...c.nodes].sort(), coveredEdges: [...c.edges].sort() } : null,
  };
}

/**
 * A preview chat as a golden: each visitor message is a turn expecting the
 * node the bot asked next (and the bot's last words), the end expecting the
 * status it reached. Extractor `rules` and the chat's start as `now`.
 */
export function goldenFromTranscript(opts: { name: string; flow: string; tenant?: string; now: string; transcript: readonly TranscriptEntry[]; status: string; locale?: string }): string {
  const turns: Array<Record<string, unknown>> = [];
  const entries = opts.transcript;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.role !== 'user') continue;
    const replies: TranscriptEntry[] = [];
    for (let j = i + 1; j < entries.length && entries[j]!.role !== 'user'; j++) replies.push(entries[j]!);
    const asked = [...replies].reverse().find((r) => r.nodeId);
    const last = replies.at(-1);
    turns.push({ user: e.text, ...(asked?.nodeId || last ? { expect: { ...(asked?.nodeId ? { node: asked.nodeId } : {}), ...(last ? { say: last.text } : {}) } } : {}) });
  }
  const doc = {
    name: opts.name, flow: opts.flow, ...(opts.tenant ? { tenant: opts.tenant } : {}), extractor: 'rules', now: opts.now,
    ...(opts.locale ? { locale: opts.locale } : {}), turns, end: { status: opts.status },
  };
  return `# recorded in the Studio from a preview chat\n${stringify(doc, { lineWidth: 0 })}`;
}
