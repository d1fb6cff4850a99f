import { z } from 'zod';
import { lazy } from '../shared/lazy.ts';
import { Text, Texts, type Plain } from './text.ts';

/** ISO calendar date `YYYY-MM-DD`, the committed form of every `date` answer. */
export const IsoDate = lazy(() => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected an ISO date YYYY-MM-DD'));

const TextAnswer = lazy(() => z
  .object({
    type: z.literal('text'),
    min: z.number().int().nonnegative().optional().describe('minimum length in characters'),
    max: z.number().int().positive().optional().describe('maximum length in characters'),
    pattern: z.string().optional().describe('RE2 regular expression the whole answer must match'),
    kind: z
      .enum(['name'])
      .optional()
      .describe('name: the answer is a person\'s name; "my name is Ann Lee", "it is for me, Ann Lee" commit "Ann Lee"'),
    of: z
      .enum(['respondent', 'subject'])
      .optional()
      .describe(
        'with kind name, whose name is asked: respondent (the person typing, the default) or subject (the person the intake is about, e.g. the patient — "this is for my son, Tom Baker" gives "Tom Baker")',
      ),
  })
  .strict());

const NumberAnswer = lazy(() => z
  .object({
    type: z.enum(['number', 'integer']),
    min: z.number().optional(),
    max: z.number().optional(),
    unit: z
      .string()
      .optional()
      .describe(
        'the unit the value is committed in, e.g. "m²", "m", "kg", "°C", "hours": a reply in another unit of the same dimension ("5000 sq ft") is converted exactly, one of another dimension is asked again',
      ),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 currency code such as USD')
      .optional()
      .describe('ISO 4217 code of a money answer, e.g. "USD": an amount in another currency is not converted but asked again'),
  })
  .strict());

const BooleanAnswer = lazy(() => z
  .object({
    type: z.literal('boolean'),
    synonyms: z
      .object({ true: Texts().optional(), false: Texts().optional() })
      .strict()
      .optional()
      .describe('extra words beyond the built-in English yes/no'),
  })
  .strict());

/** One enum option; a bare string is shorthand for `{ value }`. */
export const EnumOption = lazy(() => z.union([
  z.string().min(1),
  z
    .object({
      value: z.string().min(1),
      label: Text().optional(),
      synonyms: Texts().optional().describe(
        'other words naming the option; by locale, a regional key ("en-US", "en-GB") replaces the locale\'s list for visitors from that region ("football": soccer in en, American football in en-US)',
      ),
    })
    .strict(),
]));

const EnumAnswer = lazy(() => z
  .object({
    type: z.literal('enum'),
    options: z.array(EnumOption()),
    multiple: z.boolean().optional().describe('answer is a list of option values, kept in option order'),
  })
  .strict());

const PlainAnswer = lazy(() => z.object({ type: z.enum(['email', 'phone', 'url']) }).strict());

const DateAnswer = lazy(() => z
  .object({
    type: z.literal('date'),
    past: z.boolean().optional().describe('must be today or earlier'),
    future: z.boolean().optional().describe('must be today or later'),
    birth: z.boolean().optional().describe('a date of birth: a day and month without a year is asked about, never read as this year (implied by a key or prompt naming a birth)'),
    min: IsoDate().optional(),
    max: IsoDate().optional(),
  })
  .strict());

/** A question's value type and constraints; without it the answer is `text`. */
export const AnswerSpec = lazy(() => z.discriminatedUnion('type', [
  TextAnswer(),
  NumberAnswer(),
  BooleanAnswer(),
  EnumAnswer(),
  PlainAnswer(),
  DateAnswer(),
]));
export type AnswerSpec = Plain<z.infer<ReturnType<typeof AnswerSpec>>>;
export type AnswerType = AnswerSpec['type'];

/** Every answer type name, in the order the docs list them. */
export const ANSWER_TYPES: readonly AnswerType[] = [
  'text', 'number', 'integer', 'boolean', 'enum', 'email', 'phone', 'date', 'url',
];

/** An enum option with the shorthand expanded. */
export interface NormalOption { value: string; label: string; synonyms: string[] }

/** Expands bare-string options to `{ value, label, synonyms }`. */
export function normalOptions(spec: Extract<AnswerSpec, { type: 'enum' }>): NormalOption[] {
  return spec.options.map((o) =>
    typeof o === 'string'
      ? { value: o, label: o, synonyms: [] }
      : { value: o.value, label: o.label ?? o.value, synonyms: o.synonyms ?? [] },
  );
}

/**
 * The zod schema of a committed (normalised) value of this type. It checks the
 * shape and the declared constraints; parsing free text into it is the
 * extractor's job.
 */
export function valueSchema(spec: AnswerSpec = { type: 'text' }): z.ZodType {
  switch (spec.type) {
    case 'text': {
      // an empty answer is no answer (`has()` reads '' as missing): a skip is null, never ''
      let s = z.string().min(Math.max(1, spec.min ?? 0));
      if (spec.max !== undefined) s = s.max(spec.max);
      return s;
    }
    case 'number':
    case 'integer': {
      let n = spec.type === 'integer' ? z.number().int() : z.number();
      if (spec.min !== undefined) n = n.min(spec.min);
      if (spec.max !== undefined) n = n.max(spec.max);
      return spec.unit ? n.describe(`in ${spec.unit}`) : n;
    }
    case 'boolean':
      return z.boolean();
    case 'enum': {
      const values = normalOptions(spec).map((o) => o.value);
      const one = values.length > 0 ? z.enum(values as [string, ...string[]]) : z.never();
      // an empty list is no answer either (`has([])` is false)
      return spec.multiple ? z.array(one).min(1) : one;
    }
    case 'email':
      return z.email();
    case 'phone':
      return z.string().regex(/^\+[1-9]\d{6,14}$/, 'expected an E.164 phone number').describe('E.164 phone number');
    case 'url':
      return z.url();
    case 'date': {
      let d = IsoDate();
      if (spec.min) d = d.refine((v) => v >= spec.min!, `on or after ${spec.min}`);
      if (spec.max) d = d.refine((v) => v <= spec.max!, `on or before ${spec.max}`);
      return d.describe('ISO date YYYY-MM-DD');
    }
  }
}
