/* An earlier answer as a late correction sees it. */
import { LOCAL_VALUE, type EarlierAnswer } from '../../engine/input.ts';

/** An earlier answer a reply may correct: a pii one comes without its value (`pii: true`), the value only under LOCAL_VALUE. */
export type Earlier = EarlierAnswer;

/**
 * A pii answer with its value read from LOCAL_VALUE, as a plain earlier answer: these rules run in this process (the
 * value is never sent to a model) and the engine says no pii value back. Without a local value it stays `pii: true`.
 */
export function withLocalValue(q: Earlier): Earlier {
  if (!q.pii || !(LOCAL_VALUE in q)) return q;
  const { pii: _pii, [LOCAL_VALUE]: value, ...rest } = q;
  return { ...rest, value };
}

/** Whether a question asks for a person's name. */
export function isName(q: Earlier): boolean {
  return q.answer.type === 'text' && (q.answer.kind === 'name' || /(?:^|_)name$/.test(q.key));
}
