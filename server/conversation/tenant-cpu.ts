// A tenant's share of the event loop. Every turn runs its engine work (parsing
// the message, checking patterns and guards, moving through the graph) on the
// one thread that serves every tenant; a tenant whose visitors send costly
// turns could take it from the others. Each tenant has a budget of
// milliseconds of that work per second, with a burst: turns are charged what
// they took, the debt drains at the budget's rate, and while a tenant's debt
// is over the burst its new turns are refused as `busy` (429, retryable) —
// the other tenants' turns are not. A turn is charged the processor time it
// used (process.cpuUsage), not the wall time it took: on a busy machine the
// operating system pauses the process in the middle of a turn, and that pause
// is nobody's work (charging it refused ordinary turns as `busy` under load).

/** How much of the event loop one tenant's turns may take. */
export interface TenantCpuSettings {
  /** Milliseconds of turn work per second of time, long-run (0: no budget). */
  msPerSecond: number;
  /** Milliseconds a tenant may run ahead of its budget before its turns wait. */
  burstMs: number;
}

/** The default: 400 ms a second (40% of one core) with a 1 s burst. */
export const DEFAULT_TENANT_CPU: TenantCpuSettings = { msPerSecond: 400, burstMs: 1000 };

/** Milliseconds of processor time this process has used (user and system). */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Per-tenant debt of turn work, drained at the budget's rate. */
export class TenantCpu {
  private readonly debt = new Map<string, { ms: number; at: number }>();
  private readonly clock: () => number;
  private readonly work: () => number;

  /** `clock` drains the debt (wall time); `work` measures a turn (processor time; the given clock when only a clock is given, as a test does). */
  constructor(
    private readonly settings: TenantCpuSettings = DEFAULT_TENANT_CPU,
    clock?: () => number,
    work?: () => number,
  ) {
    this.clock = clock ?? (() => performance.now());
    this.work = work ?? clock ?? processCpuMs;
  }

  /** Whether the tenant may run a turn now; otherwise how many ms until it may. */
  allows(tenant: string): { ok: true } | { ok: false; retryAfterMs: number } {
    if (this.settings.msPerSecond <= 0) return { ok: true };
    const over = this.current(tenant) - this.settings.burstMs;
    return over <= 0 ? { ok: true } : { ok: false, retryAfterMs: Math.ceil((over / this.settings.msPerSecond) * 1000) };
  }

  /** Charges a tenant the milliseconds a turn's work took. */
  charge(tenant: string, ms: number): void {
    if (this.settings.msPerSecond <= 0 || !(ms > 0)) return;
    this.debt.set(tenant, { ms: this.current(tenant) + ms, at: this.clock() });
  }

  /** Runs `work` (a turn's synchronous part) and charges its tenant what it took. */
  measure<T>(tenant: string, work: () => T): T {
    const t0 = this.work();
    try {
      return work();
    } finally {
      this.charge(tenant, this.work() - t0);
    }
  }

  /** The tenant's debt now, after draining. */
  private current(tenant: string): number {
    const d = this.debt.get(tenant);
    if (!d) return 0;
    const now = this.clock();
    const ms = Math.max(0, d.ms - ((now - d.at) * this.settings.msPerSecond) / 1000);
    if (ms === 0) this.debt.delete(tenant);
    else this.debt.set(tenant, { ms, at: now });
    return ms;
  }
}
