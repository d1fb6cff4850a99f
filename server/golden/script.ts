import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { sortDiagnostics, type Diagnostic } from '../flow/diagnostic.ts';
import { parseFlowText, type SourceMap } from '../flow/load.ts';
import { pathText, schemaDiagnostics } from '../flow/schema-issues.ts';

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

/**
 * A person's move instead of the visitor's: a decision on a waiting
 * interrupt, or a hand-back to the bot at a question; either may set answers
 * (checked like any answer).
 */
export const OperatorTurn = z.strictObject({
  decision: z.enum(['approve', 'reject']).optional(),
  hand_back: z.string().min(1).optional().describe('the question node the bot resumes at'),
  answers: z.record(z.string(), z.unknown()).optional(),
}).refine((o) => (o.decision === undefined) !== (o.hand_back === undefined), { message: 'an operator turn has either decision: or hand_back:' });
export type OperatorTurn = z.infer<typeof OperatorTurn>;

/** One scripted turn: the visitor's message, or an operator's move. */
export const GoldenTurn = z.strictObject({
  // A plain `user: 420` would reach the engine as a number that YAML may have
  // reformatted (`007` → 7), so user text must be a string.
  user: z.string({
    error: (issue) => (issue.input === undefined ? undefined : 'expected text; quote numbers and words YAML reads as other types, e.g. user: "420"'),
  }).optional(),
  operator: OperatorTurn.optional(),
  expect: Passthrough.optional(),
  /** The recorded tool calls of the LLM for this turn (`extractor: replay`): a record or a list of calls. */
  llm: z.union([Passthrough, z.array(z.unknown())]).optional(),
}).refine((t) => (t.user === undefined) !== (t.operator === undefined), { message: 'a turn has either user: or operator:' });
export type GoldenTurn = z.infer<typeof GoldenTurn>;

/** A golden transcript (`*.golden.yaml`). */
export const GoldenScript = z.strictObject({
  name: z.string().optional(),
  /** The flow, relative to the golden file, or a flow id with `tenant:`. */
  flow: z.string().optional(),
  tenant: z.string().optional(),
  extractor: z.enum(['rules', 'replay']).optional(),
  now: Instant.optional(),
  /** The visitor's language (`de`, `de-AT`), matched against the flow's `locales` as a widget's would be. */
  locale: z.string().min(2).max(35).optional(),
  /** Someone from the team is online (an operator console is connected); default: nobody. Escalation texts follow it (`say_offline`). */
  staffed: z.boolean().optional(),
  given: z.strictObject({
    answers: z.record(z.string(), z.unknown()).optional(),
    path: z.string().optional(),
  }).optional(),
  turns: z.array(GoldenTurn),
  end: Passthrough.optional(),
});
export type GoldenScript = z.infer<typeof GoldenScript>;

/** A golden file read and checked, or the positioned problems that stopped it. */
export type ScriptResult = { ok: true; script: GoldenScript; map: SourceMap } | { ok: false; diagnostics: Diagnostic[] };

/** Parses golden transcript text (YAML or JSON); problems point at their line and column. */
export function parseScript(text: string, file: string): ScriptResult {
  const loaded = parseFlowText(text, file);
  if (!loaded.ok) return loaded;
  if (loaded.doc.data === null || loaded.doc.data === undefined) {
    return { ok: false, diagnostics: [{ code: 'script', severity: 'error', file, line: 1, col: 1, message: 'empty golden file: expected at least a turns: list' }] };
  }
  const parsed = GoldenScript.safeParse(loaded.doc.data);
  if (parsed.success) return { ok: true, script: parsed.data, map: loaded.doc.map };
  // unknown fields are named here, against the golden's own field names (the shared reporter suggests flow fields)
  const unknown = parsed.error.issues.filter((i) => i.code === 'unrecognized_keys');
  const rest = parsed.error.issues.filter((i) => i.code !== 'unrecognized_keys');
  const diagnostics: Diagnostic[] = unknown.flatMap((issue) => issue.keys.map((k): Diagnostic => {
    const pos = loaded.doc.map.at([...issue.path, k], { key: true });
    const known = fieldsAt(issue.path);
    const hint = known.find((f) => closeTo(f, k));
    const where = pathText(issue.path);
    return { code: 'unknown_field', severity: 'error', file, ...(pos ? { line: pos.line, col: pos.col } : {}),
      message: `${where ? `${where}: ` : ''}unknown field '${k}' (${hint ? `did you mean '${hint}'?` : `expected ${known.join(', ')}`})` };
  }));
  if (rest.length > 0) {
    diagnostics.push(...schemaDiagnostics(new z.ZodError(rest), loaded.doc).map((d) => ({ ...d, code: d.code === 'schema' ? 'script' : d.code })));
  }
  return { ok: false, diagnostics: sortDiagnostics(diagnostics) };
}

/** The fields a golden allows at a path: the top level, a turn, or `given`. */
function fieldsAt(path: readonly PropertyKey[]): string[] {
  if (path.length === 2 && path[0] === 'turns') return ['user', 'operator', 'expect', 'llm'];
  if (path.length === 3 && path[0] === 'turns' && path[2] === 'operator') return ['decision', 'hand_back', 'answers'];
  if (path.length === 1 && path[0] === 'given') return ['answers', 'path'];
  return Object.keys(GoldenScript.shape);
}

/** Whether two field names are one typo apart (one edit, or two neighbouring letters swapped). */
function closeTo(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const tail = (x: string, y: string) => x.slice(i + 1) === y.slice(i + 1);
  return a.slice(i + 1) === b.slice(i) || b.slice(i + 1) === a.slice(i) || tail(a, b)
    || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
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
