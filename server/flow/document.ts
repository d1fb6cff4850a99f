import type { z } from 'zod';
import { compileFlow } from './compile.ts';
import type { CompiledFlow } from './compiled-flow.ts';
import { sortDiagnostics, type Diagnostic } from './diagnostic.ts';
import { loadFlowFile, parseFlowText, type SourceDoc } from './load.ts';
import { migrateV0 } from './migrate.ts';
import { FlowV0, FlowV1, Overlay, type FlowSource } from './schema.ts';
import { schemaDiagnostics } from './schema-issues.ts';

/** What a flow file turned out to be, compiled as far as it could be. */
export type DocumentResult =
  | { kind: 'flow'; version: 'v1' | 'v0'; flow?: CompiledFlow; ir?: FlowSource; diagnostics: Diagnostic[] }
  | { kind: 'overlay'; overlay?: Overlay; diagnostics: Diagnostic[] }
  | { kind: 'unknown'; diagnostics: Diagnostic[] };

/** Keeps one diagnostic per place and code: migrated v0 questions can appear once per path. */
function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const k = d.line ? `${d.code}|${d.file}|${d.line}|${d.col}` : `${d.code}|${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Parses with `schema`; when the only problems are unknown fields, parses
 * again without them so the compiler can still report everything else at once.
 */
function parseLenient<T>(schema: { safeParse(d: unknown): { success: true; data: T } | { success: false; error: z.ZodError } }, doc: SourceDoc):
  { data?: T; diagnostics: Diagnostic[] } {
  const first = schema.safeParse(doc.data);
  if (first.success) return { data: first.data, diagnostics: [] };
  const diagnostics = schemaDiagnostics(first.error, doc);
  const unknown = first.error.issues.filter((i) => i.code === 'unrecognized_keys');
  if (unknown.length !== first.error.issues.length) return { diagnostics };
  const copy = structuredClone(doc.data);
  for (const issue of unknown) {
    let target: unknown = copy;
    for (const step of issue.path) target = (target as Record<PropertyKey, unknown>)[step as string];
    for (const k of issue.keys) delete (target as Record<string, unknown>)[k];
  }
  const second = schema.safeParse(copy);
  return second.success ? { data: second.data, diagnostics } : { diagnostics };
}

/**
 * Validates and compiles a parsed document: v1 flows compile, v0 checklists
 * migrate and then compile (diagnostics point into the v0 file), overlays are
 * checked against their schema (merging needs a base flow: see packs).
 */
export function compileDocument(doc: SourceDoc): DocumentResult {
  const data = doc.data as { version?: unknown; layer?: unknown } | null;
  const version = data && typeof data === 'object' && !Array.isArray(data) ? data.version : undefined;
  if (version === 'v1' && data && 'layer' in data) {
    const parsed = parseLenient(Overlay(), doc);
    return { kind: 'overlay', ...(parsed.data && !parsed.diagnostics.length ? { overlay: parsed.data } : {}), diagnostics: sortDiagnostics(parsed.diagnostics) };
  }
  if (version === 'v1') {
    const parsed = parseLenient(FlowV1(), doc);
    if (!parsed.data) return { kind: 'flow', version, diagnostics: sortDiagnostics(parsed.diagnostics) };
    const res = compileFlow({ flow: parsed.data, file: doc.file, map: doc.map });
    const diagnostics = sortDiagnostics([...parsed.diagnostics, ...res.diagnostics]);
    return { kind: 'flow', version, ir: parsed.data, ...(res.flow && !parsed.diagnostics.length ? { flow: res.flow } : {}), diagnostics };
  }
  if (version === 'v0') {
    const parsed = parseLenient(FlowV0(), doc);
    if (!parsed.data) return { kind: 'flow', version, diagnostics: sortDiagnostics(parsed.diagnostics) };
    const { flow, origin } = migrateV0(parsed.data as FlowV0); // v0 texts are plain strings (a map fails as `locales_missing`)
    const res = compileFlow({ flow, file: doc.file, map: doc.map, nodePath: (id) => origin.get(id) });
    const diagnostics = sortDiagnostics(dedupe([...parsed.diagnostics, ...res.diagnostics]));
    return { kind: 'flow', version, ir: flow, ...(res.flow && !parsed.diagnostics.length ? { flow: res.flow } : {}), diagnostics };
  }
  const pos = doc.map.at(['version']);
  const message = version === undefined
    ? `not a flow: missing "version" (expected "v1", or "v0" for a legacy checklist)`
    : `unknown version ${JSON.stringify(version)} (expected "v1" or "v0")`;
  return { kind: 'unknown', diagnostics: [{ code: 'unknown_version', severity: 'error', file: doc.file, message, ...(pos ? { line: pos.line, col: pos.col } : { line: 1, col: 1 }) }] };
}

/** Loads a file and compiles it: the one call the CLI and the server's registry need. */
export function compileFile(file: string): DocumentResult {
  const loaded = loadFlowFile(file);
  return loaded.ok ? compileDocument(loaded.doc) : { kind: 'unknown', diagnostics: loaded.diagnostics };
}

/** Compiles flow text that is not on disk (tests, uploads). */
export function compileText(text: string, file = '<input>'): DocumentResult {
  const loaded = parseFlowText(text, file);
  return loaded.ok ? compileDocument(loaded.doc) : { kind: 'unknown', diagnostics: loaded.diagnostics };
}
