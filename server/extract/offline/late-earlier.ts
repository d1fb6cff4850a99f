/* An earlier answer as a late correction sees it. */
import type { OpenQuestion } from '../extractor.ts';

/** An earlier answer a reply may correct: a pii one comes without its value. */
export type Earlier = OpenQuestion & { value?: unknown; pii?: true };

/** Whether a question asks for a person's name. */
export function isName(q: Earlier): boolean {
  return q.answer.type === 'text' && (q.answer.kind === 'name' || /(?:^|_)name$/.test(q.key));
}
