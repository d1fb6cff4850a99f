import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { compileFlow } from '../flow/compile.ts';
import type { FlowSource as FlowV1 } from '../flow/schema.ts';

/** Where the plain IR of every published revision is kept, so pinned sessions survive restarts. */
export interface RevisionArchive {
  save(flowId: string, revision: string, ir: FlowV1): void;
  load(flowId: string, revision: string): FlowV1 | undefined;
}

/** An archive in memory (tests, single runs). */
export class MemoryArchive implements RevisionArchive {
  private readonly docs = new Map<string, FlowV1>();
  save(flowId: string, revision: string, ir: FlowV1): void {
    this.docs.set(`${flowId}@${revision}`, structuredClone(ir));
  }
  load(flowId: string, revision: string): FlowV1 | undefined {
    const doc = this.docs.get(`${flowId}@${revision}`);
    return doc && structuredClone(doc);
  }
}

/**
 * Compiled flows by id and revision. Publishing a changed flow makes it the
 * current revision for new sessions; a session keeps the revision it started
 * on (`pinned`), recompiled from the archive when it is not in memory — so a
 * conversation in progress never runs on a graph it did not start with.
 */
export class FlowRegistry {
  private readonly current = new Map<string, CompiledFlow>();
  private readonly byRevision = new Map<string, CompiledFlow>();

  constructor(private readonly archive: RevisionArchive = new MemoryArchive()) {}

  /** Makes a compiled flow the current revision of its id (and archives it). */
  publish(flow: CompiledFlow): void {
    this.current.set(flow.id, flow);
    this.byRevision.set(`${flow.id}@${flow.revision}`, flow);
    // a flow with locales is archived as written (texts by locale), so every locale recompiles from it
    this.archive.save(flow.id, flow.revision, flow.i18n?.source ?? flow.source);
  }

  /** Keeps a compiled flow by its revision (and archives it) without making it current: a Studio preview's draft. */
  keep(flow: CompiledFlow): void {
    this.byRevision.set(`${flow.id}@${flow.revision}`, flow);
    this.archive.save(flow.id, flow.revision, flow.i18n?.source ?? flow.source);
  }

  /** The revision new sessions of this flow start on. */
  latest(flowId: string): CompiledFlow | undefined {
    return this.current.get(flowId);
  }

  /** Ids of the flows with a current revision, sorted. */
  ids(): string[] {
    return [...this.current.keys()].sort();
  }

  /** The exact revision a session is pinned to, from memory or the archive. */
  pinned(flowId: string, revision: string): CompiledFlow | undefined {
    const key = `${flowId}@${revision}`;
    const known = this.byRevision.get(key);
    if (known) return known;
    const ir = this.archive.load(flowId, revision);
    if (!ir) return undefined;
    const compiled = compileFlow({ flow: ir }).flow;
    if (!compiled || compiled.revision !== revision) return undefined;
    this.byRevision.set(key, compiled);
    return compiled;
  }
}

/** An archive on disk: `<dir>/<flow id>/<revision>.json`, written once per revision. */
export class DirectoryArchive implements RevisionArchive {
  constructor(private readonly dir: string) {}

  save(flowId: string, revision: string, ir: FlowV1): void {
    const file = this.file(flowId, revision);
    if (existsSync(file)) return; // revisions are content hashes: the file cannot differ
    // inside the data directory: owner only, like the sessions (mkdir's mode is masked by the umask, 0700 survives 022)
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(ir), { mode: 0o600 });
    renameSync(tmp, file);
  }

  load(flowId: string, revision: string): FlowV1 | undefined {
    try {
      return JSON.parse(readFileSync(this.file(flowId, revision), 'utf8')) as FlowV1;
    } catch {
      return undefined;
    }
  }

  private file(flowId: string, revision: string): string {
    const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
    return join(this.dir, safe(flowId), `${safe(revision)}.json`);
  }
}
