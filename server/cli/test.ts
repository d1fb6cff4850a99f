import { existsSync } from 'node:fs';
import { coverageFor, coverageReport, formatCoverage, recordCoverage, type FlowCoverage } from '../golden/coverage.ts';
import { discoverJobs } from '../golden/discover.ts';
import { resultLines } from '../golden/report.ts';
import { runGolden, type GoldenResult } from '../golden/run-golden.ts';
import type { AnthropicExtractorOptions } from '../extract/anthropic/index.ts';
import { loadLibrary } from '../catalog/library.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';
import type { QuestlineConfig } from '../project-config.ts';

export interface TestOptions {
  update?: boolean;
  ci?: boolean;
  coverage?: boolean;
  json?: boolean;
  flows?: string;
  /** Run against the live model (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL) and write each turn's `llm:` block. */
  record?: boolean;
  /** The project's implementations (questline.config); goldens call its actions and validators. */
  implementations?: QuestlineConfig;
}

/** The model options `--record` reads from the environment, or why it cannot run. */
export function recordOptions(env: NodeJS.ProcessEnv = process.env): AnthropicExtractorOptions | string {
  const apiKey = env.ANTHROPIC_API_KEY;
  if (!apiKey) return 'questline test --record: set ANTHROPIC_API_KEY (and optionally ANTHROPIC_MODEL, ANTHROPIC_BASE_URL) to record against the live model';
  return { apiKey, ...(env.ANTHROPIC_MODEL ? { model: env.ANTHROPIC_MODEL } : {}), ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) };
}

/** Default places goldens live: the project's golden tests and the flows themselves. */
export const DEFAULT_GOLDEN_PATHS = ['test/golden', 'flows'];

/** `questline test [PATH...]`: run golden transcripts, compare trace snapshots, report coverage. */
export async function testCommand(paths: readonly string[], opts: TestOptions, io: CliIo): Promise<number> {
  const impl = opts.implementations ?? {};
  const roots = paths.length ? [...paths] : DEFAULT_GOLDEN_PATHS.filter((p) => existsSync(p));
  const missing = roots.filter((p) => !existsSync(p));
  if (missing.length) {
    io.err(`questline test: no such file or folder: ${missing.join(', ')}`);
    return EXIT_USAGE;
  }
  const record = opts.record ? recordOptions() : undefined;
  if (typeof record === 'string') {
    io.err(record);
    return EXIT_USAGE;
  }
  const library = loadLibrary(opts.flows ?? 'flows');
  const discovered = discoverJobs(roots, library);
  const problems = discovered.problems;
  // recording writes the golden file itself: a tenant's inherited re-run of a global golden is not recorded
  const jobs = record ? discovered.jobs.filter((j) => !j.tenant) : discovered.jobs;
  for (const p of problems) io.err(p);
  if (jobs.length === 0) {
    io.err(`questline test: no *.golden.yaml under ${roots.join(', ')}`);
    return EXIT_USAGE;
  }
  const ci = opts.ci ?? Boolean(process.env.CI);
  const results: GoldenResult[] = [];
  const coverage = new Map<string, FlowCoverage>();
  for (const job of jobs) {
    const r = await runGolden(job.file, {
      library, ci, implementations: { ...(impl.validators ? { validators: impl.validators } : {}), ...(impl.actions ? { actions: impl.actions } : {}) },
      ...(opts.update ? { update: true } : {}), ...(record ? { record } : {}),
      ...(job.tenant ? { tenant: job.tenant, overrides: job.overrides ?? [], noSnapshot: true } : {}),
    });
    results.push(r);
    if (r.flow) recordCoverage(coverageFor(coverage, r.flow), r.events, r.shown);
    if (!opts.json) io.out(resultLines(r).join('\n'));
    if (r.recorded && !opts.json) {
      const count = (what: string) => r.recorded!.filter((x) => x?.startsWith(what)).length;
      io.out(`  recorded ${r.file}: ${count('model')} model turns, ${count('offline')} settled offline, ${count('fallback')} fallbacks`);
      const fell = r.recorded.flatMap((x, i) => (x?.startsWith('fallback') ? [`turn ${i + 1} (${x})`] : []));
      if (fell.length) io.err(`  warning: ${r.file}: the model failed on ${fell.join(', ')}; those turns hold the offline proposal`);
    }
  }
  const failed = results.filter((r) => !r.passed).length + problems.length;
  const reports = [...coverage.values()].map(coverageReport).sort((a, b) => a.flowId.localeCompare(b.flowId) || a.revision.localeCompare(b.revision));
  if (opts.json) {
    io.out(JSON.stringify({
      passed: results.length - failed, failed,
      results: results.map(({ flow: _f, events: _e, shown: _s, ...r }) => r),
      ...(opts.coverage ? { coverage: reports } : {}),
    }, null, 2));
  } else {
    if (opts.coverage) {
      io.out('\ncoverage');
      for (const r of reports) io.out(formatCoverage(r).join('\n'));
    }
    io.out(`\n${results.length - failed} passed, ${failed} failed`);
  }
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}
