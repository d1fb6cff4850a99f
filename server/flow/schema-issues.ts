import type { z } from 'zod';
import type { Diagnostic } from './diagnostic.ts';
import type { SourceDoc } from './load.ts';

type Issue = z.core.$ZodIssue;

/**
 * Flattens zod's union issues: of a union's alternatives, keep the one that got
 * furthest (deepest path, then fewest issues), which is the one the author meant.
 */
function flatten(issues: readonly Issue[], prefix: PropertyKey[] = []): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const ranked = issue.errors
        .map((alt) => flatten(alt, path))
        .sort((a, b) => depth(b) - depth(a) || a.length - b.length);
      out.push(...(ranked[0] ?? []));
    } else {
      out.push({ ...issue, path } as Issue);
    }
  }
  return out;
}

const depth = (issues: Issue[]) => Math.max(0, ...issues.map((i) => i.path.length));

/** Edit distance, for "did you mean" hints on misspelt field names. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** Human form of a document path: `nodes[3].answer.options[0]`. */
export function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** The id of the node that a path points into, for messages and the `node` field. */
function nodeIdAt(data: unknown, path: readonly PropertyKey[]): string | undefined {
  let cur: unknown = data;
  let id: string | undefined;
  for (const step of path) {
    if (cur === null || typeof cur !== 'object') break;
    cur = (cur as Record<PropertyKey, unknown>)[step as string];
    if (cur && typeof cur === 'object' && !Array.isArray(cur) && typeof (cur as { id?: unknown }).id === 'string') {
      id = (cur as { id: string }).id;
    }
  }
  return id;
}

/** Known field names at a path, for suggestions. */
function knownKeys(schemaShape: readonly string[] | undefined, key: string): string | undefined {
  if (!schemaShape) return undefined;
  let best: string | undefined;
  let bestD = 3;
  for (const k of schemaShape) {
    const d = distance(k, key);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

const FIELD_NAMES = [
  'id', 'type', 'label', 'ui', 'tags', 'say', 'say_offline', 'when', 'interrupt', 'pii', 'internal', 'key', 'prompt', 'answer', 'required',
  'validate', 'invalid_prompt', 'max_attempts', 'dependencies', 'priority', 'always_ask', 'never_ask', 'carry', 'assess', 'routes',
  'call', 'input_map', 'output_map', 'requires', 'provides', 'retry', 'timeout_ms', 'ref', 'outcome', 'from', 'to',
  'guard', 'on', 'version', 'entry', 'paths', 'nodes', 'edges', 'subgraphs', 'constraints', 'default_country',
  'commands', 'interface', 'options', 'multiple', 'synonyms', 'min', 'max', 'pattern', 'unit', 'past', 'future', 'birth',
  'policy', 'lock_threshold', 'allow_switch_before_lock', 'decay', 'min_confidence', 'examples', 'questions',
  'message', 'expr', 'oneOf', 'name', 'criteria', 'threshold', 'max_refinements', 'feedback_key', 'min_words',
  'must_mention', 'cases', 'default', 'description', 'layer', 'extends', 'remove', 'merge', 'backoff_ms', 'role',
  'timeout_s', 'value', 'context',
  // tenant.json (server/catalog/tenant.ts)
  'keys', 'origins', 'flows', 'packs', 'webhook', 'url', 'secret', 'llm', 'model', 'budget', 'daily', 'calls', 'tokens', 'settings',
];

/** Turns zod issues into positioned diagnostics with plain-language messages. */
export function schemaDiagnostics(error: z.ZodError, doc: SourceDoc): Diagnostic[] {
  return flatten(error.issues).flatMap((issue): Diagnostic[] => {
    const path = issue.path;
    const node = nodeIdAt(doc.data, path);
    const where = pathText(path);
    const base = { severity: 'error' as const, file: doc.file, ...(node ? { node } : {}) };
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => {
        const hint = knownKeys(FIELD_NAMES, k);
        const pos = doc.map.at([...path, k], { key: true });
        return { ...base, code: 'unknown_field', line: pos?.line, col: pos?.col,
          message: `${where ? where + ': ' : ''}unknown field '${k}'${hint && hint !== k ? ` (did you mean '${hint}'?)` : ''}` };
      });
    }
    const pos = doc.map.at(path);
    const last = path[path.length - 1];
    if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined && /received undefined/.test(issue.message)) {
      const code = last === 'key' ? 'question_without_key' : 'missing_field';
      const parent = pathText(path.slice(0, -1));
      return [{ ...base, code, line: pos?.line, col: pos?.col,
        message: `${parent ? parent + ': ' : ''}missing required field '${String(last)}'${node ? ` on node '${node}'` : ''}` }];
    }
    return [{ ...base, code: 'schema', line: pos?.line, col: pos?.col, message: `${where || 'document'}: ${issue.message}` }];
  });
}
