import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { flowLayers, isFlowDocument, type Library } from './library.ts';

// The source files under FLOWS_DIR the Studio edits: global flows, pack
// overlays and tenant overlays, named by their path relative to FLOWS_DIR
// (forward slashes), and which tenants' flows each one feeds.

/** What kind of layer a source file is. */
export type SourceKind = 'global' | 'pack' | 'tenant';

/** A tenant's flow. */
export interface TenantFlow {
  tenant: string;
  flow: string;
}

/** One source file and the tenants' flows it feeds. */
export interface SourceInfo {
  path: string;
  kind: SourceKind;
  flows: TenantFlow[];
}

/** The version of a text a client edits from: publishing with an older one is refused (someone else published since). */
export function textVersion(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

/** The kind of a relative source path, or undefined when it is not one the Studio edits (wrong folder, not a flow document, a traversal). */
export function sourceKind(path: string): SourceKind | undefined {
  if (path.includes('\\') || path.includes('\0')) return undefined;
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.'))) return undefined;
  const name = parts[parts.length - 1]!;
  if (!isFlowDocument(name)) return undefined;
  if (parts[0] === 'global' && parts.length === 2) return 'global';
  if (parts[0] === 'packs' && parts.length === 3) return 'pack';
  if (parts[0] === 'tenants' && parts.length === 3) return 'tenant';
  return undefined;
}

/** The absolute file of a relative source path, or undefined when it would leave FLOWS_DIR or is not a source (see sourceKind). */
export function sourceFile(flowsDir: string, path: string): string | undefined {
  if (isAbsolute(path) || !sourceKind(path)) return undefined;
  const root = resolve(flowsDir);
  const file = resolve(root, path);
  const rel = relative(root, file);
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return file;
}

/** The relative, forward-slashed path of a file under FLOWS_DIR. */
export function sourcePath(flowsDir: string, file: string): string {
  return relative(resolve(flowsDir), file).split(sep).join('/');
}

/** The tenants' flows a source file feeds: a global flow every tenant offering it, an overlay the tenants it is a layer of. */
export function flowsFedBy(lib: Library, file: string): TenantFlow[] {
  const out: TenantFlow[] = [];
  for (const [tenant, t] of [...lib.tenants].sort(([a], [b]) => a.localeCompare(b))) {
    if (!t.tenant) continue;
    for (const flow of t.tenant.flows) {
      if (lib.flows.get(flow)?.file === file || flowLayers(lib, flow, tenant).layers.some((l) => l.info?.file === file)) out.push({ tenant, flow });
    }
  }
  return out;
}

/** Every source file under FLOWS_DIR with the flows it feeds, sorted by path. */
export function listSources(lib: Library): SourceInfo[] {
  const root = resolve(lib.dir);
  const files = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isFile() && isFlowDocument(d.name)).map((d) => join(dir, d.name));
    } catch {
      return [];
    }
  };
  const dirs = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => join(dir, d.name));
    } catch {
      return [];
    }
  };
  const all = [
    ...files(join(root, 'global')),
    ...dirs(join(root, 'packs')).flatMap(files),
    ...dirs(join(root, 'tenants')).flatMap(files),
  ];
  return all
    .map((file) => ({ path: sourcePath(root, file), file }))
    .filter(({ path }) => sourceKind(path) !== undefined)
    .sort((a, b) => a.path.localeCompare(b.path))
    .map(({ path, file }) => ({ path, kind: sourceKind(path)!, flows: flowsFedBy(lib, join(lib.dir, path)) }));
}
