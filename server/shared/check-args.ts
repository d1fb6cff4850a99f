import { z } from 'zod';
import { didYouMean } from './did-you-mean.ts';
import { QuestlineUsageError } from './usage-error.ts';

// Arguments checked where a developer calls Questline: a zod schema per
// public function's options, and one way to word what is wrong — the
// argument's path, what was expected, what was given, and for an unknown
// option the one probably meant.

/** A function value (a validator, an action, an extractor's extract), worded for the error. */
export const fn = (what: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { message: `expected a function ${what}` });

const shown = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
};

const at = (root: string, path: readonly PropertyKey[]) =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : /^[A-Za-z_$][\w$]*$/.test(String(k)) ? `${s}.${String(k)}` : `${s}[${JSON.stringify(String(k))}]`), root);

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** The keys a zod object schema knows, for "did you mean". */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let s: unknown = schema;
  for (const k of path) {
    const shape = (s as { shape?: Record<string, unknown> }).shape;
    s = shape?.[String(k)];
    while (s && (s as { unwrap?: () => unknown }).unwrap) s = (s as { unwrap: () => unknown }).unwrap();
  }
  const shape = (s as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Parses `value` with `schema`, or throws a QuestlineUsageError naming the
 * call (`converse(flow, options)`) and, per problem, the argument's path, what
 * was expected and what was given.
 */
export function checkArgs<S extends z.ZodType>(call: string, root: string, schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const lines = r.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(schema, issue.path);
      return issue.keys.map((k) => {
        const guess = didYouMean(k, known);
        return `${at(root, [...issue.path, k])} is not an option${guess ? ` (did you mean ${guess}?)` : ''}; the options are ${known.join(', ')}`;
      });
    }
    const given = valueAt(value, issue.path);
    return [`${at(root, issue.path)}: ${issue.message.replace(/^Invalid input: /, '')}, got ${given === undefined ? 'nothing' : shown(given)}`];
  });
  throw new QuestlineUsageError('invalid_argument', `${call}: ${lines.length === 1 ? lines[0] : 'invalid arguments:'}`, lines.length === 1 ? [] : lines);
}
