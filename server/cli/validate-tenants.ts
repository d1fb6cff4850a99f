import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadLibrary, type Library } from '../catalog/library.ts';
import { loadTenantFile, type Tenant } from '../catalog/tenant.ts';
import { sortDiagnostics, type Diagnostic } from '../flow/diagnostic.ts';

// `questline validate` on tenant files: flows/tenants/<tenant>/tenant.json is
// checked against its schema (server/catalog/tenant.ts) with file:line:col
// positions and, when it sits in a flows folder, against that folder too
// (the id matches the folder, the packs and flows it names exist, no key is
// another tenant's): the checks the server makes when it starts.

/** A tenant file checked: the tenant when it is valid, and every problem. */
export interface TenantCheck {
  kind: 'tenant';
  tenant?: Tenant;
  diagnostics: Diagnostic[];
}

/** The tenant.json files among `paths`: given directly, or anywhere under a folder (sorted). */
export function expandTenantPaths(paths: readonly string[]): string[] {
  return paths.flatMap((p) => {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      return [];
    }
    if (!isDir) return basename(p) === 'tenant.json' ? [p] : [];
    return readdirSync(p, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && d.name === 'tenant.json')
      .map((d) => join(d.parentPath, d.name))
      .sort();
  });
}

/** Checks tenant files; each flows folder they sit in is read once. */
export function checkTenantFiles(files: readonly string[]): Array<{ file: string; result: TenantCheck }> {
  const libraries = new Map<string, Library>();
  return files.map((file) => {
    const tdir = dirname(resolve(file));
    const root = basename(dirname(tdir)) === 'tenants' ? dirname(dirname(tdir)) : undefined;
    if (!root) {
      const own = loadTenantFile(file);
      return { file, result: { kind: 'tenant', ...(own.tenant ? { tenant: own.tenant } : {}), diagnostics: own.diagnostics } };
    }
    let lib = libraries.get(root);
    if (!lib) {
      lib = loadLibrary(root);
      libraries.set(root, lib);
    }
    const t = lib.tenants.get(basename(tdir));
    const mine = (t?.diagnostics ?? []).filter((d) => d.file === t?.file).map((d) => ({ ...d, file }));
    return { file, result: { kind: 'tenant', ...(t?.tenant ? { tenant: t.tenant } : {}), diagnostics: sortDiagnostics(mine) } };
  });
}
