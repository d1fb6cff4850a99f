/* A yes/no just given, said the other way by its content in the next reply: "well not sparks exactly, it's just flickering. no danger. Hank". */
import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { parseAnswer, type ParseContext } from '../parse/index.ts';
import { yesNoByContent } from './yes-no-content.ts';
import type { Earlier } from './late-earlier.ts';
import { BOUNDARY, SENTENCE, cut } from './late-markers.ts';
import { namesQuestion } from './late-question-names.ts';

/**
 * The yes/no answered the turn before, said anew the other way by what the reply's sentences describe or deny (as at the
 * question itself: yes-no-content.ts), without a correction marker: some sentence reads as the other answer and none as
 * the one given. The sentences that read so go with the correction, and next to them those that name the question or
 * say the same yes/no ("no danger.", "Funken eigentlich nicht, flackert nur."); the rest must say something else — the
 * answer to the current question, which must not itself be a yes/no. Undefined when none.
 */
export function yesNoAnew(text: string, previous: Earlier | undefined, current: OpenQuestion | null, ctx: ParseContext, pack: LanguagePack): { value: boolean; evidence: string; rest: string } | undefined {
  if (previous === undefined || previous.answer.type !== 'boolean' || typeof previous.value !== 'boolean' || current?.answer.type === 'boolean') return undefined;
  const flipped = !previous.value;
  // a sentence read whole, else clause by clause ("Nein, eigentlich keine Gefahr, die Lampe flackert nur.")
  // (a yes read beside a hedge, "maybe? the pole leans", says nothing sure: no reading)
  const sure = (r: ReturnType<typeof yesNoByContent>) => (r?.hedged ? null : r);
  const readOf = (s: string) => sure(yesNoByContent(previous, s, pack)) ?? s.split(BOUNDARY).map((c) => sure(yesNoByContent(previous, c, pack))).find((r) => r !== null) ?? null;
  const sentences = [...text.matchAll(SENTENCE)].map((m) => ({ s: m[0], at: m.index, read: readOf(m[0]) }));
  // clauses that disagree make no reading
  if (sentences.some((x) => x.s.split(BOUNDARY).some((c) => yesNoByContent(previous, c, pack)?.value === previous.value))) return undefined;
  if (!sentences.some((x) => x.read?.value === flipped) || sentences.some((x) => x.read?.value === previous.value)) return undefined;
  const says = (s: string) => {
    const plain = parseAnswer(previous.answer, s, ctx);
    return plain.ok && plain.value === flipped;
  };
  const taken = sentences.map((x) => x.read !== null);
  // spread to the neighbours that are about the same question
  for (let changed = true; changed;) {
    changed = false;
    sentences.forEach((x, i) => {
      if (taken[i] || !(taken[i - 1] || taken[i + 1])) return;
      if (namesQuestion(x.s, previous, pack) || says(x.s)) taken[i] = changed = true;
    });
  }
  let rest = text;
  for (const [i, x] of sentences.entries()) if (taken[i]) rest = rest.slice(0, x.at) + ' '.repeat(x.s.length) + rest.slice(x.at + x.s.length);
  rest = cut(rest, 0, 0);
  if (!/[\p{L}\p{N}]/u.test(rest)) return undefined;
  return { value: flipped, evidence: sentences.filter((_, i) => taken[i]).map((x) => x.s.trim()).join(' '), rest: rest.replace(/\s{2,}/g, ' ').trim() };
}
