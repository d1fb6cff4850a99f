import type { RE2JS } from 're2js';
import { lazyRequire } from '../shared/lazy-require.ts';
import { normalOptions } from './answer-types.ts';
import type { CompileContext } from './compile-context.ts';
import type { DocPath } from './load.ts';
import { answerInputChars, patternTooCostly } from './pattern-cost.ts';
import type { QuestionNode } from './schema.ts';

/** re2js, loaded on the first pattern compiled, not by `import('questline')` (server/shared/lazy-require.ts). */
const re2 = lazyRequire<typeof import('re2js')>('re2js');

/** Answer-spec sanity of one question: options, bounds, patterns. */
export function checkAnswerSpec(ctx: CompileContext, n: QuestionNode, at: DocPath): void {
  const { error, warn } = ctx;
  const spec = n.answer;
  const path = [...at, 'answer'];
  if (!spec) return;
  if (spec.type === 'enum') {
    if (spec.options.length === 0) error('enum_no_options', `question '${n.id}': an enum needs at least one option`, { path: [...path, 'options'], node: n.id });
    const seen = new Set<string>();
    normalOptions(spec).forEach((o, i) => {
      if (seen.has(o.value)) error('enum_duplicate_option', `question '${n.id}': option value '${o.value}' appears twice`, { path: [...path, 'options', i], node: n.id });
      seen.add(o.value);
    });
  }
  if ((spec.type === 'text' || spec.type === 'number' || spec.type === 'integer' || spec.type === 'date') &&
      spec.min !== undefined && spec.max !== undefined && spec.min > spec.max) {
    error('min_gt_max', `question '${n.id}': min (${spec.min}) is greater than max (${spec.max}); no answer can pass`, { path: [...path, 'min'], node: n.id });
  }
  if (spec.type === 'date' && spec.past && spec.future) warn('past_and_future', `question '${n.id}': a date cannot be both past and future except today`, { path, node: n.id });
  if (spec.type === 'text' && spec.pattern !== undefined) {
    let re: RE2JS | undefined;
    try {
      re = re2().RE2JS.compile(spec.pattern);
    } catch (err) {
      error('bad_pattern', `question '${n.id}': pattern is not a valid linear-time (RE2) regular expression: ${(err as Error).message}`, { path: [...path, 'pattern'], node: n.id });
    }
    const costly = re && patternTooCostly(re, answerInputChars(spec.max));
    if (costly) error('pattern_too_costly', `question '${n.id}': ${costly}`, { path: [...path, 'pattern'], node: n.id });
  }
}
