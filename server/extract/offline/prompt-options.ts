import type { OpenQuestion } from '../extractor.ts';
import type { LanguagePack } from '../../language/pack.ts';
import { normalOptions } from '../../flow/answer-types.ts';
import { fold, foldPhrase } from '../parse/index.ts';

/*
 * OPTIONS DESCRIBED IN THE PROMPT. A single-choice prompt often says what each option covers: "new LED lighting for a
 * court, gym or stadium, or help with lights you already have?". The prompt's question is cut into its alternatives
 * (at ", or" / "or"), each alternative goes with the one option whose label shares its words ("new LED lighting" →
 * "Buy new LED lighting"), and a reply made only of words that one alternative alone holds ("stadium", "for our gym",
 * "fürs Stadion") names that option. Only read when the option reading found nothing, never beside a negator.
 */

const WORD = /[\p{L}\p{N}]+/gu;

interface Described {
  /** Per option index, the words only its alternative holds (stems). */
  own: ReadonlyMap<string, number>;
}

const cache = new WeakMap<OpenQuestion, Map<LanguagePack, Described>>();

/** The stems of a folded text's content words: no filler, no plain option word, at least three letters. */
function stems(text: string, pack: LanguagePack, plain: ReadonlySet<string>): string[] {
  const stem = pack.options.meaning?.stem ?? ((w: string) => w);
  return (fold(text).text.match(WORD) ?? []).filter((w) => w.length >= 3 && !plain.has(w)).map((w) => stem(w));
}

const plainCache = new WeakMap<LanguagePack, ReadonlySet<string>>();

function plainOf(pack: LanguagePack): ReadonlySet<string> {
  let set = plainCache.get(pack);
  if (!set) {
    const lex = pack.lexicon;
    set = new Set([...lex.filler, ...lex.skipFiller, ...lex.joinFiller, ...lex.joiners, ...(pack.options.meaning?.plain ?? [])].flatMap((w) => foldPhrase(w).match(WORD) ?? []));
    plainCache.set(pack, set);
  }
  return set;
}

function describe(q: OpenQuestion, pack: LanguagePack): Described {
  let byPack = cache.get(q);
  if (!byPack) cache.set(q, (byPack = new Map()));
  const hit = byPack.get(pack);
  if (hit) return hit;
  const own = new Map<string, number>();
  const a = q.answer;
  const prompt = q.prompt ?? '';
  if (a.type === 'enum' && !a.multiple && prompt.includes('?')) {
    const options = normalOptions(a);
    const plain = plainOf(pack);
    // the question sentence: after the last sentence break before the question mark, and after a dash ("… today — new LED …")
    const question = prompt.slice(0, prompt.indexOf('?')).split(/[.!:—–]\s+/u).pop() ?? '';
    const or = foldPhrase(pack.lexicon.conjunctions.or[0] ?? 'or');
    const parts = fold(question).text.split(new RegExp(`,\\s*${or}\\s+|\\s+${or}\\s+(?=[^,]*$)`, 'u')).map((p) => p.trim()).filter(Boolean);
    if (parts.length >= 2) {
      const labels = options.map((o) => new Set(stems(`${o.label} ${o.value.replace(/[_.-]+/g, ' ')}`, pack, plain)));
      const partStems = parts.map((p) => new Set(stems(p, pack, plain)));
      // each alternative goes with the one option whose label shares most of its words (ties: none)
      const owner = partStems.map((ps) => {
        const shares = labels.map((l) => [...l].filter((w) => ps.has(w)).length);
        const best = Math.max(...shares);
        return best > 0 && shares.filter((x) => x === best).length === 1 ? shares.indexOf(best) : -1;
      });
      const allLabels = new Set(labels.flatMap((l) => [...l]));
      partStems.forEach((ps, i) => {
        if (owner[i] === -1 || owner.filter((o) => o === owner[i]).length > 1) return;
        for (const w of ps) {
          if (allLabels.has(w) || partStems.some((other, j) => j !== i && other.has(w))) continue;
          own.set(w, owner[i]!);
        }
      });
    }
  }
  const d = { own };
  byPack.set(pack, d);
  return d;
}

/** The option value a reply names by the prompt's description of it alone ("a stadium" → buy_led), or null. */
export function optionByPrompt(q: OpenQuestion, text: string, pack: LanguagePack): { value: string; evidence: string } | null {
  const a = q.answer;
  if (a.type !== 'enum' || a.multiple) return null;
  const { own } = describe(q, pack);
  if (own.size === 0) return null;
  const folded = fold(text).text;
  if (folded.includes('?') || pack.lexicon.negators.some((n) => new RegExp(`(?<![\\p{L}])${foldPhrase(n).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(folded))) return null;
  const words = stems(text, pack, plainOf(pack));
  if (words.length === 0 || words.length > 4) return null;
  const owners = new Set(words.map((w) => own.get(w)));
  if (owners.size !== 1 || owners.has(undefined)) return null;
  return { value: normalOptions(a)[[...owners][0]!]!.value, evidence: text.trim() };
}
