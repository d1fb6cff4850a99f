import { z } from 'zod';
import { normalOptions, valueSchema, type AnswerSpec } from '../../flow/answer-types.ts';
import type { ExtractionRequest, OpenQuestion, PathChoice } from '../extractor.ts';

/** A JSON schema object as sent in a tool's `input_schema`. */
export type JsonSchema = { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown };

/** The tool definitions sent to the model, without `cache_control` (added by the caller). */
export interface ToolDef {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** The questions that may be answered by this message: current first, then open ones, keys unique. */
export function answerable(req: ExtractionRequest): OpenQuestion[] {
  const out: OpenQuestion[] = [];
  for (const q of [...(req.current ? [req.current] : []), ...req.open]) if (!out.some((o) => o.key === q.key)) out.push(q);
  return out;
}

/** The JSON schema of one question's committed value, from the same zod schema the engine validates with. */
export function valueJsonSchema(spec: AnswerSpec): Record<string, unknown> {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(valueSchema(spec), { unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    json = {};
  }
  delete json.$schema;
  return json;
}

/** ISO 4217 codes and the symbols visitors type, read as a currency when a number question's `unit` is one. */
const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', 'US$': 'USD' };

/** The unit and currency a number question's value is in (a `currency` field when the flow language has one, else a currency `unit`). */
export function measureOf(spec: AnswerSpec): { unit?: string; currency?: string } {
  if (spec.type !== 'number' && spec.type !== 'integer') return {};
  const declared = (spec as { currency?: unknown }).currency;
  if (typeof declared === 'string' && declared) return { currency: declared.toUpperCase(), ...(spec.unit ? { unit: spec.unit } : {}) };
  if (!spec.unit) return {};
  const u = spec.unit.trim();
  if (/^[A-Z]{3}$/.test(u)) return { currency: u };
  if (CURRENCY_SYMBOLS[u]) return { currency: CURRENCY_SYMBOLS[u] };
  return { unit: u };
}

/**
 * One question's property in update_answers: its value schema, a description
 * (see describeQuestion) and, for a number with a unit or currency, what the
 * model must do with a value stated otherwise — convert a unit exactly, never
 * convert money (rates move), and leave out what it cannot tell.
 */
export function propertySchema(q: OpenQuestion): Record<string, unknown> {
  const { unit, currency } = measureOf(q.answer);
  const notes: string[] = [describeQuestion(q)];
  if (unit) notes.push(`The value is in ${unit}: a value the user gives in another unit (feet, sq ft, cm, inches, pounds, °F, hours…) is converted exactly to ${unit}; a bare number is taken as ${unit}; when the unit is unclear, do not record it.`);
  if (currency) notes.push(`The value is an amount in ${currency}: an amount the user gives in another currency is NOT converted and NOT recorded (leave the key out, so the user is asked again in ${currency}); "25k" means 25000.`);
  return { ...valueJsonSchema(q.answer), description: notes.join(' ') };
}

/** One line describing a question for the prompt: node id, key, type and constraints, never its prompt text. */
export function describeQuestion(q: OpenQuestion): string {
  const a = q.answer;
  const bits: string[] = [`node ${q.nodeId}`, `key "${q.key}"`, `type ${a.type}`];
  if (q.label) bits.push(`label "${q.label}"`);
  if (a.type === 'enum') {
    bits.push(`options ${normalOptions(a).map((o) => (o.label === o.value ? o.value : `${o.value} ("${o.label}")`)).join(', ')}`);
    if (a.multiple) bits.push('several allowed');
  }
  const { unit, currency } = measureOf(a);
  if (unit) bits.push(`unit ${unit}`);
  if (currency) bits.push(`currency ${currency}`);
  if ('min' in a && a.min !== undefined) bits.push(`min ${a.min}`);
  if ('max' in a && a.max !== undefined) bits.push(`max ${a.max}`);
  if (!q.required) bits.push('optional');
  return bits.join('; ');
}

/**
 * The four tools for this turn. `update_answers` allows exactly the keys that
 * may be answered now (additionalProperties false), each with the JSON schema
 * of its zod value schema; `vote_path` is an enum of the declared paths and is
 * left out when there are none. Order: the flow-static tools first, so the
 * cached prefix is as long as possible.
 */
export function toolsFor(req: ExtractionRequest): ToolDef[] {
  const qs = answerable(req);
  const keys = qs.map((q) => q.key);
  const tools: ToolDef[] = [
    {
      name: 'escalate_to_human',
      description: 'The user asks for a person, is upset, or the request cannot be handled by this form.',
      input_schema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'], additionalProperties: false },
    },
  ];
  if (req.triggers?.length) tools.push(triggerTool(req.triggers));
  if (req.paths.length > 0) tools.push(votePathTool(req.paths));
  if (keys.length > 0) {
    tools.push({
      name: 'unknown_answer',
      description: 'The user does not know, or will not give, the answer to one open question.',
      input_schema: { type: 'object', properties: { key: { type: 'string', enum: keys } }, required: ['key'], additionalProperties: false },
    });
    tools.push({
      name: 'update_answers',
      description: 'Record the answers the user actually gave in this message, normalised to the schema. Only keys the user answered; never guess.' +
        (req.paths.length > 0 ? ' If the message also says which path the user wants, add vote_path.' : '') +
        (req.current?.assess ? ` When you record "${req.current.key}", add assessment: how well the whole answer meets its criteria (score 0..1) and, when it falls short, one short friendly question asking for what is missing.` : ''),
      input_schema: {
        type: 'object',
        properties: {
          updates: {
            type: 'object',
            properties: Object.fromEntries(qs.map((q) => [q.key, propertySchema(q)])),
            additionalProperties: false,
          },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
          ...(req.paths.length > 0 ? { vote_path: votePathTool(req.paths).input_schema } : {}),
          ...(req.current?.assess ? { assessment: ASSESSMENT_SCHEMA } : {}),
        },
        required: ['updates'],
        additionalProperties: false,
      },
    });
  }
  return tools;
}

const ASSESSMENT_SCHEMA = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1 },
    feedback: { type: 'string' },
  },
  required: ['score', 'feedback'],
  additionalProperties: false,
};

/** Keywords strict tool schemas do not accept (numeric and string bounds); the engine checks them anyway. */
const UNSTRICT = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems']);
/** Strict tool use allows at most this many optional properties across a request's strict schemas. */
export const STRICT_MAX_OPTIONAL = 24;

/** A schema with the keywords strict mode refuses removed, recursively. */
export function strictSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(strictSchema) as T;
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema as Record<string, unknown>)
    .filter(([k, v]) => !(UNSTRICT.has(k) && typeof v !== 'object'))
    .map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, sv]) => [p, strictSchema(sv)])) : strictSchema(v)])) as T;
}

/** Optional properties in a schema (every object's properties not listed in `required`). */
export function optionalCount(schema: unknown): number {
  if (Array.isArray(schema)) return schema.reduce((n: number, s) => n + optionalCount(s), 0);
  if (!schema || typeof schema !== 'object') return 0;
  const o = schema as Record<string, unknown>;
  let n = 0;
  if (o.properties && typeof o.properties === 'object') {
    const req = new Set(Array.isArray(o.required) ? o.required : []);
    n += Object.keys(o.properties).filter((k) => !req.has(k)).length;
  }
  for (const [k, v] of Object.entries(o)) n += k === 'properties' ? Object.values(v as object).reduce((m: number, s) => m + optionalCount(s), 0) : typeof v === 'object' ? optionalCount(v) : 0;
  return n;
}

/**
 * Whether a model supports strict tool use (structured outputs): Claude
 * Opus, Sonnet and Haiku 4.5 and later, per the Anthropic docs. Other models
 * get the same schemas without `strict`.
 */
export function supportsStrictTools(model: string): boolean {
  const m = /^claude-(?:opus|sonnet|haiku)-(\d+)-(\d+)(?:$|[-@])/.exec(model) ?? /^claude-(?:opus|sonnet|haiku)-(\d+)()(?:$|[-@])/.exec(model);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = m[2] && m[2].length <= 2 ? Number(m[2]) : 0;
  return major > 4 || (major === 4 && minor >= 5);
}

/** The flow's triggers active here: the model calls it instead of answering when the message is one (flow-ir.md `triggers`). */
function triggerTool(triggers: NonNullable<ExtractionRequest['triggers']>): ToolDef {
  return {
    name: 'match_trigger',
    description: 'The message is one of these situations, which outrank answering the question: '
      + triggers.map((t) => `${t.id}: ${t.description ?? t.phrases.join(', ')}`).join(' | ')
      + '. Not when the user denies it or speaks of the past.',
    input_schema: {
      type: 'object',
      properties: { id: { type: 'string', enum: triggers.map((t) => t.id) }, confidence: { type: 'number', minimum: 0, maximum: 1 } },
      required: ['id', 'confidence'],
      additionalProperties: false,
    },
  };
}

function votePathTool(paths: readonly PathChoice[]): ToolDef {
  return {
    name: 'vote_path',
    description: 'Which of the declared conversation paths the user wants, when the message says so.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', enum: paths.map((p) => p.name) },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
      },
      required: ['path', 'confidence'],
      additionalProperties: false,
    },
  };
}
