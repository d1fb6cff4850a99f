import { formatDiagnostic, hasErrors, type Diagnostic } from '../flow/diagnostic.ts';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { checkImplementations, type RegisteredNames } from './implementations-check.ts';
import { effectiveFlow, loadLibrary, type Library, type LibraryOptions } from './library.ts';
import type { Tenant } from './tenant.ts';
import { FlowRegistry, MemoryArchive, type RevisionArchive } from './registry.ts';

/** An origin as browsers send it: scheme, host and port, no path. */
const originOf = (o: string) => o.replace(/\/+$/, '').toLowerCase();

/**
 * The tenants and the flows they serve, compiled at start: each tenant's
 * effective flows (global → packs → tenant), the revisions live sessions are
 * pinned to, and the lookups the transports need (key → tenant, origin check).
 * A flow with errors is reported and not served; the others are.
 */
export class TenantDirectory {
  private readonly tenants = new Map<string, Tenant>();
  private readonly keys = new Map<string, string>();
  private readonly latest = new Map<string, CompiledFlow>();
  /** `tenant/flow` → why it is not served: still loading (open, then compileInBackground), or its problems. */
  private readonly notServed = new Map<string, { loading: boolean; reason: string }>();
  readonly registry: FlowRegistry;
  problems: string[] = [];
  /** Runs before a session starts: brings in revisions published by another instance (the Studio's publish log, with Redis). */
  private syncer: (() => Promise<void>) | undefined;
  /** Tenants whose tenant.json could not be used (unreadable, invalid, id not the folder's): not served; the server refuses to start unless told to skip them. */
  invalid: Array<{ id: string; file: string; diagnostics: Diagnostic[] }> = [];

  private constructor(public library: Library, archive: RevisionArchive, private readonly names?: RegisteredNames) {
    this.registry = new FlowRegistry(archive);
  }

  /**
   * Loads a flows folder and compiles every tenant's flows. With `names`, a
   * flow naming a validator or action not among them is not served either.
   */
  static load(flowsDir: string, archive: RevisionArchive = new MemoryArchive(), names?: RegisteredNames, opts: LibraryOptions = {}): TenantDirectory {
    const dir = new TenantDirectory(loadLibrary(flowsDir, opts), archive, names);
    dir.compile();
    return dir;
  }

  /**
   * Reads a flows folder and its tenants without compiling their flows: keys,
   * origins and invalid tenants are known at once; each flow is served once
   * `compileInBackground` reaches it (until then `unavailable` says it is loading).
   */
  static open(flowsDir: string, archive: RevisionArchive = new MemoryArchive(), names?: RegisteredNames, opts: LibraryOptions = {}): TenantDirectory {
    const dir = new TenantDirectory(loadLibrary(flowsDir, opts), archive, names);
    for (const [id, flowId] of dir.index()) dir.notServed.set(`${id}/${flowId}`, { loading: true, reason: `flow '${flowId}' is still loading; try again in a moment` });
    return dir;
  }

  /**
   * Compiles the flows `open` left, smallest first, one at a time with the
   * event loop free between them: a tenant with small flows is served while a
   * big flow of another still compiles. Resolves when every flow is served or
   * marked unavailable with its reason.
   */
  async compileInBackground(onFlow?: (tenant: string, flow: string, served: boolean) => void): Promise<void> {
    const size = (flowId: string) => this.library.flows.get(flowId)?.ir?.nodes.length ?? 0;
    const todo = [...this.notServed].filter(([, v]) => v.loading).map(([k]) => k.split('/') as [string, string])
      .sort(([ta, fa], [tb, fb]) => size(fa) - size(fb) || ta.localeCompare(tb) || fa.localeCompare(fb));
    for (const [id, flowId] of todo) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      // a reload (a publish) meanwhile compiled everything already
      if (!this.notServed.get(`${id}/${flowId}`)?.loading) continue;
      onFlow?.(id, flowId, this.compileOne(id, flowId));
    }
  }

  /** Why a tenant's flow is not served (still loading, or its problems), or undefined when it is. */
  unavailable(tenantId: string, flowId: string): { loading: boolean; reason: string } | undefined {
    return this.notServed.get(`${tenantId}/${flowId}`) ?? (flowId.startsWith('flow.') ? undefined : this.notServed.get(`${tenantId}/flow.${flowId}`));
  }

  /** How many flows are still loading. */
  loading(): number {
    let n = 0;
    for (const v of this.notServed.values()) if (v.loading) n++;
    return n;
  }

  /**
   * Serves a new reading of the flows folder (a Studio publish or rollback):
   * new sessions start on the flows it compiles to at once; running sessions
   * keep the revision they are pinned to (every revision stays in the registry
   * and its archive).
   */
  reload(library: Library): void {
    this.adopt(this.derive(library));
  }

  /** A new reading of the flows folder compiled the way this one is (same implementations), not served yet. */
  derive(library: Library): TenantDirectory {
    const fresh = new TenantDirectory(library, new MemoryArchive(), this.names);
    fresh.compile();
    return fresh;
  }

  /** Serves what `derive` compiled (see `reload`). */
  adopt(fresh: TenantDirectory): void {
    this.library = fresh.library;
    this.tenants.clear();
    this.keys.clear();
    this.latest.clear();
    this.notServed.clear();
    for (const [k, v] of fresh.notServed) this.notServed.set(k, v);
    for (const [k, v] of fresh.tenants) this.tenants.set(k, v);
    for (const [k, v] of fresh.keys) this.keys.set(k, v);
    for (const [k, v] of fresh.latest) {
      this.latest.set(k, v);
      this.registry.publish(v);
    }
    this.problems = fresh.problems;
    this.invalid = fresh.invalid;
  }

  /** Installs what runs before a session starts (see `sync`). */
  onSync(syncer: () => Promise<void>): void {
    this.syncer = syncer;
  }

  /** Brings in what another instance published, when a publish log is shared (Redis); otherwise nothing to do. */
  async sync(): Promise<void> {
    if (this.syncer) await this.syncer();
  }

  private compile(): void {
    for (const [id, flowId] of this.index()) this.compileOne(id, flowId);
  }

  /** Indexes the tenants (keys, invalid files, the library's problems); returns every tenant's flows to compile. */
  private index(): Array<[string, string]> {
    for (const d of this.library.diagnostics) if (d.severity === 'error') this.problems.push(formatDiagnostic(d));
    const todo: Array<[string, string]> = [];
    for (const [id, t] of [...this.library.tenants].sort(([a], [b]) => a.localeCompare(b))) {
      if (!t.tenant) {
        this.invalid.push({ id, file: t.file, diagnostics: t.diagnostics.filter((d) => d.severity === 'error' && (d.file === t.file || d.file === t.dir)) });
        continue;
      }
      this.tenants.set(id, t.tenant);
      for (const key of t.tenant.keys) this.keys.set(key, id);
      for (const flowId of t.tenant.flows) todo.push([id, flowId]);
    }
    return todo;
  }

  /** Compiles one tenant's flow and serves it; a flow with problems is recorded as not served, with why. */
  private compileOne(id: string, flowId: string): boolean {
    const eff = effectiveFlow(this.library, flowId, id);
    const base = this.library.flows.get(flowId);
    const missing = eff.flow && this.names
      ? checkImplementations(eff.flow, this.names, base ? { file: base.file, ir: base.ir, ...(base.map ? { map: base.map } : {}) } : undefined)
      : [];
    if (!eff.flow || hasErrors(eff.diagnostics) || missing.length) {
      const errors = [...eff.diagnostics, ...missing].filter((d) => d.severity === 'error').map(formatDiagnostic);
      this.problems.push(`tenant ${id}: flow ${flowId} is not served:`, ...errors);
      this.notServed.set(`${id}/${flowId}`, { loading: false, reason: `flow '${flowId}' does not compile on this server; see the server log` });
      return false;
    }
    this.notServed.delete(`${id}/${flowId}`);
    this.latest.set(`${id}/${flowId}`, eff.flow);
    this.registry.publish(eff.flow);
    return true;
  }

  /** The tenant a public widget key belongs to. */
  byKey(key: string): Tenant | undefined {
    const id = this.keys.get(key);
    return id ? this.tenants.get(id) : undefined;
  }

  tenant(id: string): Tenant | undefined {
    return this.tenants.get(id);
  }

  /** Tenant ids, sorted. */
  ids(): string[] {
    return [...this.tenants.keys()].sort();
  }

  /**
   * Whether a request's Origin may use this tenant's key. Browsers always send
   * Origin on websocket and cross-origin requests; a request without one
   * (a server, curl) carries no browser context to protect.
   */
  allowsOrigin(tenant: Tenant, origin: string | undefined): boolean {
    if (origin === undefined) return true;
    const o = originOf(origin);
    return tenant.origins.some((allowed) => allowed === '*' || originOf(allowed) === o);
  }

  /** The flows a tenant serves now. */
  flows(tenantId: string): string[] {
    return (this.tenants.get(tenantId)?.flows ?? []).filter((f) => this.latest.has(`${tenantId}/${f}`));
  }

  /** The current revision of a tenant's flow, for new sessions. */
  flow(tenantId: string, flowId: string): CompiledFlow | undefined {
    // the short name works too: `sales` is the tenant's `flow.sales` (what an embed's data-flow says)
    return this.latest.get(`${tenantId}/${flowId}`) ?? (flowId.startsWith('flow.') ? undefined : this.latest.get(`${tenantId}/flow.${flowId}`));
  }

  /** The revision a session is pinned to. */
  pinned(flowId: string, revision: string): CompiledFlow | undefined {
    return this.registry.pinned(flowId, revision);
  }
}
