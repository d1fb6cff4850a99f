import { resolve } from 'node:path';
import { TenantDirectory } from '../catalog/tenants.ts';
import { loadConfig, ConfigError } from '../config.ts';
import { openBackend, StartupError } from '../main.ts';
import { createLogger } from '../observability/logger.ts';
import { MemoryFunnelCounts } from '../store/funnel-counts.ts';
import { rebuildCounts } from '../store/funnel-rebuild.ts';
import { parseBucket, SEP } from '../store/funnel-tally.ts';
import { EXIT_FAILED, EXIT_OK, type CliIo } from './io.ts';

/** Options of `questline insights rebuild`. */
export interface InsightsRebuildOptions {
  /** Only compare: change nothing, exit 1 when the maintained counters differ. */
  check?: boolean;
  json?: boolean;
}

/**
 * `questline insights rebuild`: recomputes the funnel's counters from the
 * stored sessions of the server's configuration (STORE, DATA_DIR or
 * REDIS_URL, FLOWS_DIR for the tenants), says how they differed from the
 * maintained ones and replaces them. With the lowdb store the server must be
 * stopped (it holds DATA_DIR).
 */
export async function insightsRebuildCommand(opts: InsightsRebuildOptions, io: CliIo, env: Record<string, string | undefined> = process.env): Promise<number> {
  let backend;
  let tenants: string[];
  try {
    const config = loadConfig(env);
    if (config.STORE === 'memory') {
      io.err('questline insights rebuild: STORE=memory keeps nothing to rebuild from; use lowdb (DATA_DIR) or redis (REDIS_URL)');
      return EXIT_FAILED;
    }
    tenants = TenantDirectory.load(resolve(config.FLOWS_DIR)).ids();
    backend = await openBackend(config, resolve(config.DATA_DIR), createLogger('error'));
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartupError) {
      io.err(`questline insights rebuild: ${err.message}`);
      return EXIT_FAILED;
    }
    throw err;
  }
  try {
    const counts = backend.counts ?? new MemoryFunnelCounts();
    const r = await rebuildCounts(backend.store, tenants, counts, { check: opts.check === true });
    const differences = r.differences.map((d) => {
      const b = parseBucket(d.bucket);
      return { tenant: b.tenant, flow: b.flow, revision: b.revision, day: b.day, locale: b.locale, counter: d.field.split(SEP).join(' '), change: d.n };
    });
    if (opts.json) {
      io.out(JSON.stringify({ sessions: r.sessions, tenants, differences: differences.length, details: differences.slice(0, 100), replaced: !opts.check }));
    } else {
      io.out(`${r.sessions} sessions of ${tenants.length} tenant(s) read; ${differences.length === 0 ? 'the maintained counts agree' : `${differences.length} counter(s) differed`}${opts.check ? '' : '; counts rebuilt'}`);
      for (const d of differences.slice(0, 20)) io.out(`  ${d.tenant} ${d.flow} ${d.revision} ${d.day} ${d.locale || '(default)'}: ${d.counter} ${d.change > 0 ? '+' : ''}${d.change}`);
    }
    return opts.check && differences.length > 0 ? EXIT_FAILED : EXIT_OK;
  } finally {
    await backend.close();
  }
}
