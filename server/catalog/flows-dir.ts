// What is wrong with a flows folder before anything is loaded from it: a
// folder that does not exist, or one that holds none of the layers, is a
// mistaken path (the usual cause: a relative path from another working
// directory), not a project with no tenants yet.

import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The layer folders a flows folder holds (at least one of them). */
export const FLOW_LAYERS = ['global', 'packs', 'tenants'] as const;

/** Why `dir` cannot be a flows folder, in words for the developer; undefined when it can. */
export function flowsDirProblem(dir: string): string | undefined {
  const abs = resolve(dir);
  const where = abs === dir ? abs : `${abs}, resolved from ${process.cwd()}`;
  if (!existsSync(abs)) return `the flows folder '${dir}' does not exist (${where})`;
  if (!statSync(abs).isDirectory()) return `the flows folder '${dir}' is not a folder (${where})`;
  if (!FLOW_LAYERS.some((l) => existsSync(join(abs, l)))) {
    return `the flows folder '${dir}' (${where}) holds none of ${FLOW_LAYERS.map((l) => `${l}/`).join(', ')}: point it at the folder that holds them`;
  }
  return undefined;
}
