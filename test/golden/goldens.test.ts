import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GOLDEN_PATHS } from '../../server/cli/test.ts';
import { loadLibrary } from '../../server/catalog/library.ts';
import { discoverJobs } from '../../server/golden/discover.ts';
import { resultLines } from '../../server/golden/report.ts';
import { runGolden } from '../../server/golden/run-golden.ts';
import project from '../../questline.config.ts';

// Every golden transcript of the project and of the shipped flows, one vitest
// test each (tenants re-run the goldens they inherit), so a failure shows by name.
const library = loadLibrary('flows');
const { jobs, problems } = discoverJobs(DEFAULT_GOLDEN_PATHS.filter((p) => existsSync(p)), library);

describe('golden transcripts', () => {
  it('the tenant golden declarations are valid', () => {
    expect(problems).toEqual([]);
  });

  it.each(jobs.map((j) => [j.label, j] as const))('%s', async (_label, job) => {
    // the repository's own implementations (the sample CRM action), as `questline test` loads them
    const r = await runGolden(job.file, { library, ci: Boolean(process.env.CI), implementations: project,
      ...(job.tenant ? { tenant: job.tenant, overrides: job.overrides ?? [], noSnapshot: true } : {}) });
    expect(r.passed, resultLines(r).join('\n')).toBe(true);
  });
});
