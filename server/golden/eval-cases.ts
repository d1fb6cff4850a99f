import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { QuestionNode } from '../flow/schema.ts';
import { EvalFlowRef, flowsDirOf, loadFlowQuestions, type FlowQuestions, type PathPrompt } from './eval-flow.ts';

// `questline eval` case files: labelled visitor replies. Each case is one
// question (as a flow declares it), the reply as typed, and what a careful
// person would record: a value, a re-ask, or a skip.

/** A question as a flow declares it, without id and type; `key` defaults to its name in `questions:` (else `answer`); `note` is a comment for the reader. */
export const EvalQuestion = QuestionNode().omit({ id: true, type: true }).extend({ key: QuestionNode().shape.key.optional(), note: z.string().optional() });
export type EvalQuestion = z.infer<typeof EvalQuestion>;

/** The flow-level context a case runs in. */
const FlowContext = {
  /** ISO 3166 country for phone numbers without a country code (the flow's `default_country`). */
  default_country: z.string().length(2).optional(),
  /** The session clock (relative dates resolve against it); default 2026-01-15T10:00:00Z. */
  now: z.string().optional(),
  /** The visitor's language, a base tag ('de', 'fr', 'es'); absent = English. The extractor is asked in it. */
  locale: z.string().min(2).max(35).optional(),
};

export const EvalCase = z
  .object({
    id: z.string().min(1),
    /** The question: a name from the file's `questions:`, or a question inline. */
    question: z.union([z.string(), EvalQuestion]),
    /** The reply exactly as the visitor typed it. */
    reply: z.string(),
    /** The value a careful person would commit (normalised: numbers, ISO dates, E.164 phones, option values). */
    expect: z.unknown().optional(),
    /** Other values that are equally right (e.g. a rounding of a conversion). */
    accept: z.array(z.unknown()).optional(),
    /** Instead of a value: `reask` (nothing may be committed: ambiguous, contradictory, another currency…) or `skip`. */
    must: z.enum(['reask', 'skip']).optional(),
    /** For numbers: how far from `expect` still counts as the same value (unit conversions). */
    tolerance: z.number().nonnegative().optional(),
    /** Why the expectation is what it is, when it is not obvious. */
    note: z.string().optional(),
    /**
     * The question asked (and answered) just before, with the reply given to it: the case's reply comes at the
     * next question and may correct it ("oh wait, the height was 7 m not 6"). The same question twice is a
     * follow-up: the reply answers what the bot asked back about the first one ("born in 2016" → "august 14").
     */
    previous: z.object({ question: z.union([z.string(), EvalQuestion]), reply: z.string() }).strict().optional(),
    /** What the previous question holds after the case's reply (its correction, or its first answer kept). */
    expect_previous: z.unknown().optional(),
    /** Other values the previous question may equally hold. */
    accept_previous: z.array(z.unknown()).optional(),
    ...FlowContext,
  })
  .strict()
  .refine((c) => (c.must === undefined) !== (c.expect === undefined && c.accept === undefined), {
    message: 'a case has either expect (and/or accept) or must, not both and not neither',
  })
  .refine((c) => c.previous !== undefined || (c.expect_previous === undefined && c.accept_previous === undefined), {
    message: 'expect_previous and accept_previous need a previous question',
  });
export type EvalCase = z.infer<typeof EvalCase>;

export const EvalFile = z
  .object({
    description: z.string().optional(),
    /** Questions shared by the file's cases, by name. */
    questions: z.record(z.string(), EvalQuestion).optional(),
    /** Context every case of the file runs in unless it says otherwise. */
    defaults: z.object(FlowContext).strict().optional(),
    /** The shipped flow the questions stand for (eval-flow.ts): a case question whose key is one of its questions is judged with that flow's declaration. */
    flow: EvalFlowRef.optional(),
    cases: z.array(EvalCase).min(1),
  })
  .strict();
export type EvalFile = z.infer<typeof EvalFile>;

/** A case ready to run: its question resolved, its context filled in, where it came from. */
export interface ResolvedCase {
  id: string;
  file: string;
  question: EvalQuestion & { key: string };
  reply: string;
  expect: { kind: 'value'; values: unknown[]; tolerance: number } | { kind: 'reask' } | { kind: 'skip' };
  defaultCountry?: string;
  /** The visitor's language ('de', 'fr', 'es'); absent = English. */
  locale?: string;
  now: string;
  note?: string;
  /** When the case's question is the shipped flow's path prompt (a question keyed `path` through a flow with paths): the paths asked. */
  pathPrompt?: PathPrompt;
  /** The shipped flow whose declarations the case's questions took (absent = as the file declares them). */
  via?: string;
  /** The question answered just before and its reply; `expect` = what it holds afterwards (absent = not judged). */
  previous?: { question: EvalQuestion & { key: string }; reply: string; expect?: { values: unknown[]; tolerance: number } };
}

/** Where the session clock stands when a case does not say (a Thursday, like the goldens). */
export const EVAL_DEFAULT_NOW = '2026-01-15T10:00:00Z';

/** How a case file is read: its own `flow:` header (default), another shipped flow (`--tenant`), or its labels only. */
export interface EvalLoadOptions {
  /** Judge against this flow instead of the file's header (the command line's `--tenant`/`--flow`/`--flows`). */
  flow?: EvalFlowRef;
  /** Ignore any flow reference: every question as the file declares it. */
  labelsOnly?: boolean;
}

/** Reads one case file; throws with the file name and the problems when it is not a valid case file. */
export function loadEvalFile(file: string, opts: EvalLoadOptions = {}): ResolvedCase[] {
  const parsed = EvalFile.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(`${file}: not a case file: ${parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const ref = opts.labelsOnly ? undefined : opts.flow ?? parsed.data.flow;
  let through: FlowQuestions | undefined;
  try {
    through = ref ? loadFlowQuestions(ref, flowsDirOf(ref, opts.flow ? null : file)) : undefined;
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  return resolveCases(parsed.data, file, through);
}

/** Resolves a parsed case file's cases (question names, defaults, expectations); through a shipped flow when given one. */
export function resolveCases(data: EvalFile, file: string, through?: FlowQuestions): ResolvedCase[] {
  const question = (c: EvalCase, asked: string | EvalQuestion): EvalQuestion & { key: string } => {
    const named = typeof asked === 'string' ? data.questions?.[asked] : undefined;
    if (typeof asked === 'string' && !named) throw new Error(`${file}: case ${c.id}: no question '${asked}' in questions:`);
    const { note: _note, ...q } = named ?? (asked as EvalQuestion);
    const key = q.key ?? (typeof asked === 'string' ? asked : 'answer');
    // the shipped flow's own declaration of the same key (its language's labels, synonyms, patterns)
    const shipped = through?.question(key, c.locale ?? data.defaults?.locale);
    return shipped ? { ...(shipped as EvalQuestion), key } : { ...q, key };
  };
  return data.cases.map((c) => {
    const q = question(c, c.question);
    const pathPrompt = q.key === 'path' ? through?.paths(c.locale ?? data.defaults?.locale) : undefined;
    const key = q.key;
    const prevValues = [...(c.expect_previous !== undefined ? [c.expect_previous] : []), ...(c.accept_previous ?? [])];
    const country = c.default_country ?? data.defaults?.default_country;
    const locale = c.locale ?? data.defaults?.locale;
    return {
      id: c.id,
      file,
      question: { ...q, key },
      reply: c.reply,
      expect: c.must ? { kind: c.must } : { kind: 'value', values: [...(c.expect !== undefined ? [c.expect] : []), ...(c.accept ?? [])], tolerance: c.tolerance ?? 0 },
      ...(country ? { defaultCountry: country } : {}),
      ...(locale ? { locale } : {}),
      now: c.now ?? data.defaults?.now ?? EVAL_DEFAULT_NOW,
      ...(c.note ? { note: c.note } : {}),
      ...(pathPrompt ? { pathPrompt } : {}),
      ...(through ? { via: through.name } : {}),
      ...(c.previous ? {
        previous: {
          question: question(c, c.previous.question),
          reply: c.previous.reply,
          ...(prevValues.length > 0 ? { expect: { values: prevValues, tolerance: c.tolerance ?? 0 } } : {}),
        },
      } : {}),
    };
  });
}
