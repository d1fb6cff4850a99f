// Model spend caps: per session (the session's stored usage), per tenant per
// day and for the whole process per day. The daily ledger is in memory, per
// process: with several instances each one holds its own daily totals.

/** A cap on model calls and tokens (input + output); an absent field is no cap. */
export interface Caps {
  calls?: number;
  tokens?: number;
}

/** What a cap is measured against. */
export interface Spent {
  calls: number;
  tokens: number;
}

/** Which cap refused a call. */
export type BudgetScope = 'session' | 'tenant' | 'global';

const GLOBAL = '*';
const utcDay = (): string => new Date().toISOString().slice(0, 10);

/** True when `spent` has reached a cap: no further call may start. */
export function capped(spent: Spent, caps: Caps | undefined): boolean {
  if (!caps) return false;
  return (caps.calls !== undefined && spent.calls >= caps.calls) || (caps.tokens !== undefined && spent.tokens >= caps.tokens);
}

/** Calls a cap still allows (Infinity when it does not bound calls). */
function callsLeft(spent: Spent, caps: Caps | undefined): number {
  return caps?.calls === undefined ? Infinity : caps.calls - spent.calls;
}

/** Calls and tokens spent today (UTC) per tenant and in total, in this process; shared by every tenant's extractor. */
export class DailySpend {
  private day = '';
  private readonly spent = new Map<string, Spent>();

  constructor(private readonly today: () => string = utcDay) {}

  /** Today's spend of a tenant, or of the process when `tenant` is absent. */
  get(tenant?: string): Spent {
    this.roll();
    return { ...(this.spent.get(tenant ?? GLOBAL) ?? { calls: 0, tokens: 0 }) };
  }

  /** Adds to a tenant's and the process's totals (negative calls give back a reservation). */
  add(tenant: string, calls: number, tokens: number): void {
    this.roll();
    for (const key of [tenant, GLOBAL]) {
      const s = this.spent.get(key) ?? { calls: 0, tokens: 0 };
      this.spent.set(key, { calls: s.calls + calls, tokens: s.tokens + tokens });
    }
  }

  private roll(): void {
    const day = this.today();
    if (day !== this.day) {
      this.day = day;
      this.spent.clear();
    }
  }
}

/** The caps one tenant's model calls answer to. */
export interface SpendLimits {
  /** Per session, against the session's own stored usage (survives restarts of the conversation and the server). */
  session?: Caps;
  /** Per tenant per UTC day. */
  daily?: Caps;
  /** For the whole process per UTC day, across tenants. */
  global?: Caps;
  tenant: string;
  ledger: DailySpend;
}

/** A call admitted by `SpendGate.admit`: how many attempts it may make (1 + SDK retries). */
export interface Admitted {
  attempts: number;
}

/**
 * Decides, before each model call, whether a cap is spent, and reserves the
 * call's attempts against the daily totals at once (so concurrent sessions of
 * one tenant cannot overshoot a calls cap); `settle` gives back what was not
 * used and adds the tokens. A token cap stops the next call once reached: the
 * last call may pass it by its own tokens.
 */
export class SpendGate {
  private readonly announced = new Set<string>();

  constructor(private readonly limits: SpendLimits) {}

  /** The scope whose cap is spent, or the admitted call with at most `maxAttempts` attempts (fewer when a calls cap is near). */
  admit(session: Spent, maxAttempts: number): { refused: BudgetScope; first: boolean } | Admitted {
    const { ledger, tenant } = this.limits;
    const checks: Array<[BudgetScope, Spent, Caps | undefined]> = [
      ['session', session, this.limits.session],
      ['tenant', ledger.get(tenant), this.limits.daily],
      ['global', ledger.get(), this.limits.global],
    ];
    for (const [scope, spent, caps] of checks) {
      if (capped(spent, caps)) return { refused: scope, first: this.announce(scope) };
    }
    const attempts = Math.max(1, Math.min(maxAttempts, ...checks.map(([, spent, caps]) => callsLeft(spent, caps))));
    ledger.add(tenant, attempts, 0);
    return { attempts };
  }

  /** After the call: the attempts it really made (the rest of the reservation goes back) and its tokens. */
  settle(admitted: Admitted, attempts: number, tokens: number): void {
    this.limits.ledger.add(this.limits.tenant, attempts - admitted.attempts, tokens);
  }

  /** True the first time a scope's cap is reported today (one log line per cap, not one per message). */
  private announce(scope: BudgetScope): boolean {
    const key = `${scope}:${new Date().toISOString().slice(0, 10)}`;
    if (scope === 'session' || this.announced.has(key)) return scope === 'session';
    this.announced.add(key);
    return true;
  }
}
