import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { findPhrase, fold, foldPhrase } from '../parse/index.ts';

/**
 * Whether a reply at an email or phone question asks to be reached the other way instead, or says there is none
 * ("I'd rather you called me", "just call, 312-555-0199", "lieber per Mail", "no email"): a decline of the question
 * (skipped when optional, asked again when required). `text` has the contacts it gives blanked: a reply that holds an
 * address or a number of the question's own type is read as that value, not as this.
 */
export function prefersOtherChannel(q: OpenQuestion, text: string, pack: LanguagePack): boolean {
  const words = pack.spoken;
  if (!words || (q.answer.type !== 'email' && q.answer.type !== 'phone')) return false;
  const folded = fold(text).text;
  const phrases = q.answer.type === 'email' ? words.insteadOfEmail : words.insteadOfPhone;
  return phrases.some((p) => findPhrase(folded, foldPhrase(p)).length > 0);
}
