import { existsSync } from 'node:fs';
import { coverageFor, coverageReport, formatCoverage, recordCoverage, type FlowCoverage } from '../golden/coverage.ts';
import { discoverJobs } from '../golden/discover.ts';
import { resultLines } from '../golden/report.ts';
import { runGolden, type GoldenResult } from '../golden/run-golden.ts';
import { loadLibrary } from '../flow/library.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';

export interface TestOptions {
  update?: boolean;
  ci?: boolean;
  coverage?: boolean;
  json?: boolean;
  flows?: string;
}

/** Default places goldens live: the project's golden tests and the flows themselves. */
export const DEFAULT_GOLDEN_PATHS = ['test/golden', 'flows'];

/** `questline test [PATH...]`: run golden transcripts, compare trace snapshots, report coverage. */
export async function testCommand(paths: readonly string[], opts: TestOptions, io: CliIo): Promise<number> {
  const roots = paths.length ? [...paths] : DEFAULT_GOLDEN_PATHS.filter((p) => existsSync(p));
  const missing = roots.filter((p) => !existsSync(p));
  if (missing.length) {
    io.err(`questline test: no such file or folder: ${missing.join(', ')}`);
    return EXIT_USAGE;
  }
  const library = loadLibrary(opts.flows ?? 'flows');
  const { jobs, problems } = discoverJobs(roots, library);
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
      library, ci, ...(opts.update ? { update: true } : {}),
      ...(job.tenant ? { tenant: job.tenant, overrides: job.overrides ?? [], noSnapshot: true } : {}),
    });
    results.push(r);
    if (r.flow) recordCoverage(coverageFor(coverage, r.flow), r.events);
    if (!opts.json) io.out(resultLines(r).join('\n'));
  }
  const failed = results.filter((r) => !r.passed).length + problems.length;
  const reports = [...coverage.values()].map(coverageReport).sort((a, b) => a.flowId.localeCompare(b.flowId) || a.revision.localeCompare(b.revision));
  if (opts.json) {
    io.out(JSON.stringify({
      passed: results.length - failed, failed,
      results: results.map(({ flow: _f, events: _e, ...r }) => r),
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
