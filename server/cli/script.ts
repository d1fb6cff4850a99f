import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Diagnostic } from '../flow/diagnostic.ts';
import { parseFlowText } from '../flow/load.ts';
import { schemaDiagnostics } from '../flow/schema-issues.ts';

// The golden transcript format (interfaces.md). `run` reads only `now`,
// `given` and each turn's `user`; `expect`, `end` and `llm` belong to
// `questline test` and are kept as unchecked records here so that the same
// schema can grow there without making today's files invalid.

/** Checks left to `questline test`: any object, not looked into here. */
const Passthrough = z.record(z.string(), z.unknown());

/** ISO 8601 date-time with an offset (`2026-01-15T10:00:00Z`), or a bare date meaning midnight UTC. */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** A session clock reading: a string, or a Date when a YAML 1.1 document parsed it as a timestamp. */
const Instant = z.union([z.string(), z.date().transform((d) => d.toISOString())])
  .refine((s) => ISO_INSTANT.test(s) && !Number.isNaN(Date.parse(s)), {
    message: 'expected an ISO 8601 date-time with an offset, e.g. 2026-01-15T10:00:00Z',
  });

/** One scripted user turn. */
export const GoldenTurn = z.strictObject({
  // A plain `user: 420` would reach the engine as a number that YAML may have
  // reformatted (`007` → 7), so user text must be a string.
  user: z.string({
    error: (issue) => (issue.input === undefined ? undefined : 'expected text; quote numbers and words YAML reads as other types, e.g. user: "420"'),
  }),
  expect: Passthrough.optional(),
  /** The recorded tool calls of the LLM for this turn (`extractor: replay`): a record or a list of calls. */
  llm: z.union([Passthrough, z.array(z.unknown())]).optional(),
});
export type GoldenTurn = z.infer<typeof GoldenTurn>;

/** A golden transcript (`*.golden.yaml`). */
export const GoldenScript = z.strictObject({
  name: z.string().optional(),
  /** The flow, relative to the golden file, or a flow id with `tenant:`. */
  flow: z.string().optional(),
  tenant: z.string().optional(),
  extractor: z.enum(['rules', 'replay']).optional(),
  now: Instant.optional(),
  given: z.strictObject({
    answers: z.record(z.string(), z.unknown()).optional(),
    path: z.string().optional(),
  }).optional(),
  turns: z.array(GoldenTurn),
  end: Passthrough.optional(),
});
export type GoldenScript = z.infer<typeof GoldenScript>;

/** A golden file read and checked, or the positioned problems that stopped it. */
export type ScriptResult = { ok: true; script: GoldenScript } | { ok: false; diagnostics: Diagnostic[] };

/** Parses golden transcript text (YAML or JSON); problems point at their line and column. */
export function parseScript(text: string, file: string): ScriptResult {
  const loaded = parseFlowText(text, file);
  if (!loaded.ok) return loaded;
  const parsed = GoldenScript.safeParse(loaded.doc.data);
  if (parsed.success) return { ok: true, script: parsed.data };
  const diagnostics = schemaDiagnostics(parsed.error, loaded.doc).map((d) => ({ ...d, code: d.code === 'schema' ? 'script' : d.code }));
  return { ok: false, diagnostics };
}

/** Reads and checks a golden transcript file. */
export function loadScript(file: string): ScriptResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    return { ok: false, diagnostics: [{ code: 'read_error', severity: 'error', file, message: reason }] };
  }
  return parseScript(text, file);
}
