import { accessSync, constants, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../flow/diagnostic.ts';
import type { MergeReport } from '../flow/packs/report.ts';
import type { PublishLog, PublishRecord, PublishedRevision } from '../store/publish-log.ts';
import { effectiveFlow, loadLibrary, type Library } from './library.ts';
import { flowsFedBy, listSources, sourceFile, sourceKind, sourcePath, textVersion, type SourceInfo, type TenantFlow } from './sources.ts';
import type { TenantDirectory } from './tenants.ts';

// Publishing without a restart (the Studio). A publish puts a source file's
// new text in place — written back to FLOWS_DIR when it is writable, else kept
// in the publish log under DATA_DIR — and reloads the catalog: new sessions
// start on the new revision at once, running ones keep the revision they are
// pinned to. Every publish and rollback is a record in the publish log, which
// is also where a tenant's list of revisions comes from.

/** A checked draft: its diagnostics and what it compiles to for each tenant's flow it feeds. */
export interface CheckResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** The tenants' flows the file feeds, with the flow each compiles to (absent when it does not compile). */
  flows: Array<TenantFlow & { compiled?: CompiledFlow }>;
  /** The flow to draw: the first tenant's effective flow, or the global flow alone when no tenant offers it. */
  graph?: CompiledFlow;
  /** For an overlay: what it changes in the first flow it feeds. */
  report?: MergeReport;
  /** The catalog as it would be with the draft (what publish serves). */
  catalog: TenantDirectory;
}

/** A tenant's flow's revision as the Studio lists it. */
export interface RevisionEntry {
  tenant: string;
  flow: string;
  revision: string;
  publishedAt: string;
  by: string;
  note: string | null;
  current: boolean;
  kind: PublishRecord['kind'] | 'files';
  /** The source file this revision's text came from, and the text (for diffs). */
  path: string;
  text: string;
  seq: number;
}

export type PublishOutcome =
  | { ok: true; revisions: PublishedRevision[]; writtenBack: boolean }
  | { ok: false; reason: 'stale'; version: string }
  | { ok: false; reason: 'invalid'; diagnostics: Diagnostic[] };

export type CreateOutcome =
  | { ok: true; version: string; revisions: PublishedRevision[]; writtenBack: boolean }
  | { ok: false; reason: 'exists' }
  | { ok: false; reason: 'no_folder' }
  | { ok: false; reason: 'invalid'; diagnostics: Diagnostic[] };

export type RollbackOutcome =
  | { ok: true; revision: string; revisions: PublishedRevision[] }
  | { ok: false; reason: 'unknown_revision' }
  | { ok: false; reason: 'stale' }
  | { ok: false; reason: 'invalid'; diagnostics: Diagnostic[] };

/** Who publishes, and why. */
export interface PublishMeta {
  by: string;
  note?: string;
}

const same = (a: TenantFlow, b: TenantFlow) => a.tenant === b.tenant && a.flow === b.flow;

/** Publishes source texts into a running catalog and keeps their records. */
export class Publisher {
  /** Texts that stand for files (not written back, or a shared log): absolute file → text. */
  private readonly texts = new Map<string, string>();
  private seen = 0;
  /** One publish at a time in this process (a version check and its write must not interleave). */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly catalog: TenantDirectory,
    private readonly log: PublishLog,
    private readonly now: () => string,
    private readonly writeBack: boolean,
  ) {}

  /** Opens the publisher over a loaded catalog: texts in the log not written back to FLOWS_DIR (or from a shared log) are served again. */
  static async open(opts: { catalog: TenantDirectory; log: PublishLog; now?: () => string; writeBack?: boolean }): Promise<Publisher> {
    const p = new Publisher(opts.catalog, opts.log, opts.now ?? (() => new Date().toISOString()), opts.writeBack !== false);
    const records = await opts.log.all();
    if (p.take(records)) p.catalog.reload(p.library());
    // with a shared log (Redis), every session start first reads what other instances published
    if (opts.log.shared) opts.catalog.onSync(() => p.sync());
    return p;
  }

  /** The flows folder. */
  get dir(): string {
    return this.catalog.library.dir;
  }

  /** Every source file with the tenants' flows it feeds (a new file kept under DATA_DIR too). */
  sources(): SourceInfo[] {
    const listed = listSources(this.catalog.library);
    const kept = [...this.texts.keys()].map((f) => sourcePath(this.dir, f)).filter((p) => sourceKind(p) && !listed.some((s) => s.path === p));
    if (!kept.length) return listed;
    return [...listed, ...kept.map((path) => ({ path, kind: sourceKind(path)!, flows: flowsFedBy(this.catalog.library, join(this.dir, path)) }))]
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /** A source's current text and version, or undefined when the path is not a source or does not exist. */
  read(path: string): { path: string; text: string; version: string } | undefined {
    const file = sourceFile(this.dir, path);
    if (!file) return undefined;
    const text = this.textOf(join(this.dir, path));
    return text === undefined ? undefined : { path, text, version: textVersion(text) };
  }

  /** Checks a draft of a source file against the flows folder as served, saving nothing. */
  check(path: string, text: string): CheckResult {
    const file = join(this.dir, path);
    const lib = this.library(new Map([[file, text]]));
    const fed = [...flowsFedBy(this.catalog.library, file), ...flowsFedBy(lib, file)]
      .filter((f, i, all) => all.findIndex((g) => same(f, g)) === i);
    const catalog = this.catalog.derive(lib);
    const seen = new Set<string>();
    const diagnostics: Diagnostic[] = [];
    const add = (ds: readonly Diagnostic[]) => {
      for (const d of ds) {
        const key = `${d.file}|${d.line}|${d.col}|${d.code}|${d.message}`;
        if (!seen.has(key)) {
          seen.add(key);
          diagnostics.push(d);
        }
      }
    };
    add(lib.diagnostics.filter((d) => d.file === file));
    let report: MergeReport | undefined;
    const flows = fed.map((f) => {
      const eff = effectiveFlow(lib, f.flow, f.tenant);
      add(eff.diagnostics);
      report ??= eff.report;
      const compiled = catalog.flow(f.tenant, f.flow);
      // compiles, yet not served: a validator or action the server does not have
      if (eff.flow && !hasErrors(eff.diagnostics) && !compiled) {
        add([{ code: 'not_served', severity: 'error', file, line: 1, col: 1,
          message: `tenant ${f.tenant} would not serve ${f.flow}: ${catalog.problems.filter((p) => !p.startsWith('tenant ')).join('; ') || 'see the server log'}` }]);
      }
      return { ...f, ...(compiled ? { compiled } : {}) };
    });
    let graph = flows.find((f) => f.compiled)?.compiled;
    if (!graph && sourceKind(path) === 'global') graph = [...lib.flows.values()].find((f) => f.file === file)?.flow;
    const sorted = sortDiagnostics(diagnostics);
    return { ok: !hasErrors(sorted), diagnostics: sorted, flows, ...(graph ? { graph } : {}), ...(report && sourceKind(path) !== 'global' ? { report } : {}), catalog };
  }

  /** Publishes a source's new text: refused when `version` is not the current text's, or when the draft has errors. */
  publish(path: string, text: string, version: string, meta: PublishMeta): Promise<PublishOutcome> {
    return this.serially(async () => {
      await this.sync();
      const file = join(this.dir, path);
      const current = this.textOf(file) ?? '';
      if (textVersion(current) !== version) return { ok: false, reason: 'stale', version: textVersion(current) };
      const checked = this.check(path, text);
      if (!checked.ok) return { ok: false, reason: 'invalid', diagnostics: checked.diagnostics };
      const done = await this.apply([{ file, text }], checked.catalog, 'publish', meta);
      if (!done) {
        // another instance published between our read and our write (its lock expired): stale, nothing written
        await this.sync();
        return { ok: false, reason: 'stale', version: textVersion(this.textOf(file) ?? '') };
      }
      return { ok: true, ...done };
    });
  }

  /**
   * Saves a new source file (a draft from "Describe your intake"): refused
   * when the file exists, its folder does not (a tenant's), or the text has
   * errors (also a global flow whose id another file has). Written to
   * FLOWS_DIR, or kept under DATA_DIR like a publish; recorded as a publish.
   */
  create(path: string, text: string, meta: PublishMeta): Promise<CreateOutcome> {
    return this.serially(async () => {
      await this.sync();
      const file = join(this.dir, path);
      if (this.textOf(file) !== undefined) return { ok: false, reason: 'exists' };
      if (!existsSync(dirname(file))) return { ok: false, reason: 'no_folder' };
      const checked = this.check(path, text);
      const lib = checked.catalog.library;
      const diagnostics = [...checked.diagnostics];
      // the first file (by name) with an id keeps it and the clash is reported on the other: either way the new file may not take an id
      for (const d of lib.diagnostics) {
        if (d.code === 'duplicate_flow_id' && d.file !== file && d.message.includes(file)) diagnostics.push({ ...d, file, line: 1, col: 1, message: `this flow's id is already the id of ${sourcePath(this.dir, d.file ?? '')}` });
      }
      if (hasErrors(diagnostics)) return { ok: false, reason: 'invalid', diagnostics: sortDiagnostics(diagnostics) };
      // a new file: no baseline before it; written when FLOWS_DIR takes it, else kept under DATA_DIR like a publish
      const done = await this.apply([{ file, text }], checked.catalog, 'publish', { by: meta.by, note: meta.note ?? 'created in the Studio' }, { created: true });
      if (!done) return { ok: false, reason: 'exists' };
      return { ok: true, version: textVersion(text), ...done };
    });
  }

  /** The revisions a tenant's flow went through, oldest first: the one served before its first publish, then every publish and rollback. */
  async revisions(tenant: string, flow: string): Promise<RevisionEntry[]> {
    await this.sync();
    const tf = { tenant, flow };
    const served = this.catalog.flow(tenant, flow)?.revision;
    const entries: RevisionEntry[] = [];
    for (const r of await this.log.all()) {
      const rev = r.revisions.find((x) => same(x, tf));
      if (!rev) continue;
      // a baseline of a second file (a layer) repeats the revision already listed
      if (r.kind === 'baseline' && entries.some((e) => e.revision === rev.revision)) continue;
      entries.push({ tenant, flow, revision: rev.revision, publishedAt: r.publishedAt, by: r.by, note: r.note ?? null, current: false, kind: r.kind, path: r.path, text: r.text, seq: r.seq });
    }
    if (entries.length === 0 && served) {
      // nothing published yet: the revision FLOWS_DIR serves
      const base = this.catalog.library.flows.get(this.catalog.flow(tenant, flow)!.id);
      if (base) {
        entries.push({ tenant, flow, revision: served, publishedAt: mtime(base.file), by: 'files', note: 'served from FLOWS_DIR', current: false, kind: 'files',
          path: sourcePath(this.dir, base.file), text: this.textOf(base.file) ?? '', seq: 0 });
      }
    }
    const last = entries.map((e) => e.revision).lastIndexOf(served ?? '');
    if (last >= 0) entries[last]!.current = true;
    return entries;
  }

  /**
   * Makes an earlier revision of a tenant's flow current again: every source
   * file that fed it gets back the text it had when that revision was
   * published (other tenants' flows fed by the same files follow).
   */
  rollback(tenant: string, flow: string, revision: string, meta: PublishMeta): Promise<RollbackOutcome> {
    return this.serially(async () => {
      await this.sync();
      const tf = { tenant, flow };
      const records = await this.log.all();
      const target = [...records].reverse().find((r) => r.revisions.some((x) => same(x, tf) && x.revision === revision));
      if (!target) return { ok: false, reason: 'unknown_revision' };
      const paths = [...new Set(records.filter((r) => r.revisions.some((x) => same(x, tf))).map((r) => r.path))];
      const changes: Array<{ file: string; text: string }> = [];
      for (const path of paths) {
        const ofPath = records.filter((r) => r.path === path);
        const then = [...ofPath].reverse().find((r) => r.seq <= target.seq) ?? ofPath[0]!;
        const file = join(this.dir, path);
        if (this.textOf(file) !== then.text) changes.push({ file, text: then.text });
      }
      const lib = this.library(new Map(changes.map((c) => [c.file, c.text])));
      const catalog = this.catalog.derive(lib);
      const diagnostics = lib.diagnostics.filter((d) => d.severity === 'error' && changes.some((c) => c.file === d.file));
      if (diagnostics.length || !catalog.flow(tenant, flow)) {
        return { ok: false, reason: 'invalid', diagnostics: diagnostics.length ? diagnostics : [{ code: 'not_served', severity: 'error', message: catalog.problems.join('; ') }] };
      }
      const note = meta.note ? `${meta.note} (rollback to ${revision})` : `rollback to ${revision}`;
      const done = changes.length ? await this.apply(changes, catalog, 'rollback', { by: meta.by, note }) : { revisions: [] };
      if (!done) return { ok: false, reason: 'stale' };
      return { ok: true, revision: this.catalog.flow(tenant, flow)!.revision, revisions: done.revisions };
    });
  }

  /** Serves what other instances published since this one last looked (a shared log); cheap when nothing is new. */
  async sync(): Promise<void> {
    if (!this.log.shared) return;
    const fresh = await this.log.since(this.seen);
    if (fresh.length && this.take(fresh)) this.catalog.reload(this.library());
  }

  /**
   * Records texts, puts them in place (written back or kept) and serves the
   * catalog compiled from them. The records are appended only if the log is
   * still as this instance last read it (compare-and-set): undefined when
   * another instance's publish came in between, and nothing was changed.
   */
  private async apply(changes: Array<{ file: string; text: string }>, catalog: TenantDirectory, kind: 'publish' | 'rollback', meta: PublishMeta, opts: { created?: boolean } = {}): Promise<{ revisions: PublishedRevision[]; writtenBack: boolean } | undefined> {
    const records = await this.log.all();
    const before: Array<Omit<PublishRecord, 'seq'>> = [];
    const after: Array<Omit<PublishRecord, 'seq'>> = [];
    const at = this.now();
    const writes: boolean[] = [];
    for (const { file, text } of changes) {
      const path = sourcePath(this.dir, file);
      const fedNow = flowsFedBy(this.catalog.library, file);
      const fedAfter = flowsFedBy(catalog.library, file);
      const revs = (dir: TenantDirectory, fed: TenantFlow[]) =>
        fed.flatMap((f) => { const c = dir.flow(f.tenant, f.flow); return c ? [{ ...f, revision: c.revision }] : []; });
      if (!opts.created && !records.some((r) => r.path === path)) {
        // the first publish of this file: what was served before it starts the list
        before.push({ path, text: this.textOf(file) ?? '', kind: 'baseline', by: 'files', publishedAt: mtime(file), note: 'served before the first publish', revisions: revs(this.catalog, fedNow), writtenBack: true });
      }
      const writtenBack = this.writeBack && writable(file);
      writes.push(writtenBack);
      after.push({ path, text, kind, by: meta.by, publishedAt: at, ...(meta.note ? { note: meta.note } : {}), revisions: revs(catalog, fedAfter), writtenBack });
    }
    const added = await this.log.append([...before, ...after], this.seen);
    if (!added) return undefined;
    this.seen = Math.max(this.seen, ...added.map((r) => r.seq));
    let all = true;
    changes.forEach(({ file, text }, i) => {
      const written = writes[i] === true && writeBack(file, text);
      all &&= written;
      // with a shared log (Redis) every instance serves the log's text, whatever its own FLOWS_DIR holds
      if (written && !this.log.shared) this.texts.delete(file);
      else this.texts.set(file, text);
    });
    this.catalog.adopt(catalog);
    return { revisions: after.flatMap((r) => r.revisions), writtenBack: all };
  }

  /** Takes records in: the texts they put in place that FLOWS_DIR does not hold. True when any text changed. */
  private take(records: readonly PublishRecord[]): boolean {
    let changed = false;
    for (const r of records) {
      this.seen = Math.max(this.seen, r.seq);
      if (r.kind === 'baseline') continue;
      const file = join(this.dir, r.path);
      if (this.log.shared || !r.writtenBack) {
        this.texts.set(file, r.text);
        changed = true;
      } else if (this.texts.delete(file)) changed = true;
    }
    return changed;
  }

  /** The flows folder as served, with `drafts` standing for some files. */
  private library(drafts: ReadonlyMap<string, string> = new Map()): Library {
    return loadLibrary(this.dir, { texts: new Map([...this.texts, ...drafts]) });
  }

  /** A file's text as served: the published text kept here, else the file. */
  private textOf(file: string): string | undefined {
    const kept = this.texts.get(file);
    if (kept !== undefined) return kept;
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  }

  /** One publish at a time: across every instance sharing the log (its lock), else in this process. */
  private serially<T>(task: () => Promise<T>): Promise<T> {
    if (this.log.exclusive) return this.log.exclusive(task);
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }
}

/** Whether a published text can be written to its file: the file (or, for a new one, its folder) is writable. */
function writable(file: string): boolean {
  try {
    accessSync(existsSync(file) ? file : dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Writes a published text over its file (a temporary file renamed over it); false when FLOWS_DIR is read-only. */
function writeBack(file: string, text: string): boolean {
  if (!writable(file)) return false;
  try {
    const tmp = `${file}.${process.pid}.publish.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}

function mtime(file: string): string {
  try {
    return statSync(file).mtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}
