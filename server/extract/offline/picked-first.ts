import type { ExtractionRequest } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { say } from '../../language/parser-messages.ts';
import { findPhrase, fold, foldPhrase } from '../parse/index.ts';

/*
 * WHICH COMES FIRST. A reply naming two options of a single choice ("I'm out of my metformin and also want a checkup")
 * is asked about: "Please pick just one: Check-up or physical or Prescription refill." The answer to that often says
 * which comes first — "mainly the refill", "ok mainly the broken ones first", "hauptsächlich der Check-up" — and those
 * words (the pack's `options.meaning.priority`) are a hedge elsewhere ("mostly tennis" may be tennis and more). Right after
 * the bot asked to pick just one, they are the visitor's pick: blanked, so the option they name is read as the answer.
 */

/** The reply with its priority words blanked (same length) when the bot's last line asked to pick just one option; else as typed. */
export function pickedFirst(text: string, history: ExtractionRequest['history'], pack: LanguagePack): string {
  const priority = pack.options.meaning?.priority ?? [];
  if (priority.length === 0) return text;
  const lastBot = [...(history ?? [])].reverse().find((h) => h.role === 'bot');
  if (!lastBot || !askedToPick(lastBot.text, pack)) return text;
  const folded = fold(text);
  let out = text;
  for (const p of priority.map(foldPhrase)) {
    for (const at of findPhrase(folded.text, p)) {
      const from = folded.starts[at]!;
      const to = folded.ends[at + p.length - 1]!;
      out = out.slice(0, from) + ' '.repeat(to - from) + out.slice(to);
    }
  }
  return out;
}

/** Whether a bot line is the parsers' "Please pick just one: …" (either form) or "Please choose one of: …" in the pack's language. */
function askedToPick(line: string, pack: LanguagePack): boolean {
  const heads = [say(pack, 'pickOne', { list: '\u0000' }), say(pack, 'pickJustOne', { label: '\u0000' }), say(pack, 'chooseFrom', { list: '\u0000' })].map((m) => m.split('\u0000')[0]!.replace(/[\s:—–-]+$/u, ''));
  return heads.some((h) => h.length > 0 && line.includes(h));
}
