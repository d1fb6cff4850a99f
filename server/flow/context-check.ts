import type { FlowV1 } from './schema.ts';

/** One way a session context does not fit the flow's `interface.context`. */
export interface ContextIssue {
  /** Dotted path of the field, e.g. `clinic_id` or `visitor.age`. */
  field: string;
  message: string;
}

type Schema = Record<string, unknown>;

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

const fits = (want: string, got: string) => want === got || (want === 'number' && got === 'integer');

/**
 * Checks a session context against the flow's `interface.context`, the
 * JSON Schema subset flows use: `type`, `properties`, `required`, `enum`,
 * `items`, `minimum`/`maximum`, `minLength`/`maxLength`. Returns every
 * issue, each naming its field; an empty list when it fits (or the flow
 * declares nothing). Keywords outside the subset are not checked.
 */
export function checkContext(flow: Pick<FlowV1, 'interface'>, context: Readonly<Record<string, unknown>>): ContextIssue[] {
  const schema = flow.interface?.context;
  if (!schema) return [];
  const issues: ContextIssue[] = [];
  check(schema, context, '', issues);
  return issues;
}

function check(schema: Schema, value: unknown, field: string, issues: ContextIssue[]): void {
  const name = field || 'context';
  const got = typeOf(value);
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length > 0 && !types.some((t) => fits(t, got))) {
    issues.push({ field: name, message: `${name} must be ${types.join(' or ')}, not ${got}` });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value)) {
    issues.push({ field: name, message: `${name} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}` });
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) issues.push({ field: name, message: `${name} must be at least ${schema.minimum}` });
    if (typeof schema.maximum === 'number' && value > schema.maximum) issues.push({ field: name, message: `${name} must be at most ${schema.maximum}` });
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) issues.push({ field: name, message: `${name} must have at least ${schema.minLength} characters` });
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) issues.push({ field: name, message: `${name} must have at most ${schema.maxLength} characters` });
  }
  if (got === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      if (!Object.hasOwn(obj, key) || obj[key] === undefined) issues.push({ field: join(field, key), message: `${join(field, key)} is required` });
    }
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, sub] of Object.entries(props)) {
      if (Object.hasOwn(obj, key) && obj[key] !== undefined && sub && typeof sub === 'object') check(sub, obj[key], join(field, key), issues);
    }
  }
  if (got === 'array' && schema.items && typeof schema.items === 'object') {
    (value as unknown[]).forEach((item, i) => check(schema.items as Schema, item, `${name}[${i}]`, issues));
  }
}

const join = (field: string, key: string) => (field ? `${field}.${key}` : key);
