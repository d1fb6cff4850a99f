/* A contact said again under its name with another value. */
import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { parseAnswer, type ParseContext } from '../parse/index.ts';
import type { Earlier } from './late-earlier.ts';
import { BOUNDARY } from './late-markers.ts';
import { namesQuestion } from './late-question-names.ts';

/** A contact answer (email, phone, web address) said again under its name in a clause of its own, with another value; undefined when none. */
export function restated(sentence: string, named: readonly Earlier[], current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): { key: string; value: unknown; from: number; to: number } | undefined {
  for (const q of named) {
    if (!['email', 'phone', 'url'].includes(q.answer.type) || current?.answer.type === q.answer.type) continue;
    let start = 0;
    for (const b of [...sentence.matchAll(BOUNDARY), { index: sentence.length, 0: '' } as unknown as RegExpMatchArray]) {
      const clause = sentence.slice(start, b.index);
      if (namesQuestion(clause, q, pack)) {
        const read = parseAnswer(q.answer, clause, ctx);
        if (read.ok && read.value !== q.value) return { key: q.key, value: read.value, from: start, to: b.index! };
      }
      start = b.index! + b[0].length;
    }
  }
  return undefined;
}
