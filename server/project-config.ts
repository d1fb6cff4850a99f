import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Implementations } from './conversation/implementations.ts';

// A project's own code for the CLI and `startServer`: questline.config.{ts,mjs,js}
// at the working directory (or --config FILE), whose default export names the
// validators, actions and extractor its flows use.

/** What a questline.config file exports by default: the implementations flows name. */
export type QuestlineConfig = Pick<Implementations, 'validators' | 'actions' | 'extractor'>;

/** The files looked for at the project root, in this order. */
export const CONFIG_FILES = ['questline.config.ts', 'questline.config.mjs', 'questline.config.js'] as const;

/** A config file that cannot be used, worded for the person running the command. */
export class ProjectConfigError extends Error {
  override readonly name = 'ProjectConfigError';
}

/** Types the config in an editor: `export default defineConfig({ actions, validators })`. */
export function defineConfig(config: QuestlineConfig): QuestlineConfig {
  return config;
}

/** The config file `file` names, else the first of CONFIG_FILES under `cwd`, else none. */
export function findProjectConfig(opts: { file?: string; cwd?: string } = {}): string | undefined {
  const cwd = opts.cwd ?? process.cwd();
  if (opts.file !== undefined) {
    const file = resolve(cwd, opts.file);
    if (!existsSync(file)) throw new ProjectConfigError(`--config ${opts.file}: no such file`);
    return file;
  }
  return CONFIG_FILES.map((f) => resolve(cwd, f)).find((f) => existsSync(f));
}

/**
 * Loads the project's config (see findProjectConfig); none found is an empty
 * config. A `.ts` file is imported natively when the runtime can (tsx, vitest,
 * Node with type stripping), else through tsx when it is installed.
 */
export async function loadProjectConfig(opts: { file?: string; cwd?: string } = {}): Promise<{ file?: string; config: QuestlineConfig }> {
  const file = findProjectConfig(opts);
  if (!file) return { config: {} };
  const mod = await importConfig(file);
  return { file, config: checkConfig(file, mod.default) };
}

async function importConfig(file: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as { default?: unknown };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (!file.endsWith('.ts') || (code !== 'ERR_UNKNOWN_FILE_EXTENSION' && code !== 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING')) {
      throw new ProjectConfigError(`${file}: ${(err as Error).message}`);
    }
  }
  let tsx: { tsImport(specifier: string, parent: string): Promise<unknown> };
  try {
    tsx = (await import('tsx/esm/api' as string)) as typeof tsx;
  } catch {
    throw new ProjectConfigError(`${file}: a TypeScript config needs tsx (npm install -D tsx), or write questline.config.mjs instead`);
  }
  try {
    return (await tsx.tsImport(url, import.meta.url)) as { default?: unknown };
  } catch (err) {
    throw new ProjectConfigError(`${file}: ${(err as Error).message}`);
  }
}

const isFunctionMap = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((f) => typeof f === 'function');

/** The default export, checked field by field so a typo is an error here and not a refused answer later. */
function checkConfig(file: string, value: unknown): QuestlineConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProjectConfigError(`${file}: export default an object { validators?, actions?, extractor? }`);
  }
  const c = value as Record<string, unknown>;
  const unknown = Object.keys(c).filter((k) => !['validators', 'actions', 'extractor'].includes(k));
  if (unknown.length) throw new ProjectConfigError(`${file}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (expected validators, actions, extractor)`);
  if (c.validators !== undefined && !isFunctionMap(c.validators)) throw new ProjectConfigError(`${file}: validators must map names to functions (value, args, answers) => string | null`);
  if (c.actions !== undefined && !isFunctionMap(c.actions)) throw new ProjectConfigError(`${file}: actions must map call names to async functions (input, { signal, attempt }) => object`);
  if (c.extractor !== undefined && typeof (c.extractor as { extract?: unknown } | null)?.extract !== 'function') {
    throw new ProjectConfigError(`${file}: extractor must have an extract(request) method`);
  }
  return c as QuestlineConfig;
}
