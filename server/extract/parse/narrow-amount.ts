import type { AnswerSpec } from '../../flow/answer-types.ts';
import type { ParseResult } from './parse-result.ts';

/*
 * A follow-up at a number question narrows the previous reading: the bot asked back about "somewhere between 15 and
 * 25k" and the visitor says "say 20". A bare number under 1000 then counts in the scale the earlier reply used
 * ("k", "thousand", "Tsd", "million", "Mio"): 20 is 20,000. Within half the lowest and twice the highest earlier
 * figure it is committed; outside (5 after "15-25k") it is checked first ("Just to check: 5,000?").
 */

const SCALED = /(?<![\p{L}\p{N}])(\d+(?:[.,]\d+)?)\s*(k|thousand|tsd\.?|tausend|m|million|millions|mio\.?|millionen)?(?![\p{L}])/giu;
const BARE = /^\D*?(?<![\p{N}.,])(\d{1,3})(?![\p{N}]|[.,]\d|\s*(?:k|m|thousand|million|tsd|mio|tausend|%|percent))\D*$/iu;
const SCALE: Record<string, number> = { k: 1e3, thousand: 1e3, tsd: 1e3, 'tsd.': 1e3, tausend: 1e3, m: 1e6, million: 1e6, millions: 1e6, mio: 1e6, 'mio.': 1e6, millionen: 1e6 };

/** The reply's bare number in the scale of the earlier reply the bot asked back about; null when it does not apply. */
export function narrowAmount(spec: AnswerSpec, text: string, before: string, reading: ParseResult): ParseResult | null {
  if ((spec.type !== 'integer' && spec.type !== 'number') || !reading.ok || typeof reading.value !== 'number') return null;
  const bare = BARE.exec(text);
  if (!bare || Number(bare[1]) !== reading.value) return null;
  const said = [...before.matchAll(SCALED)].map((m) => ({ n: Number(m[1]!.replace(',', '.')), scale: m[2] ? SCALE[m[2].toLowerCase()] : undefined }));
  const scale = said.find((s) => s.scale !== undefined)?.scale;
  if (scale === undefined) return null;
  const figures = said.map((s) => s.n * (s.scale ?? (s.n < 1000 ? scale : 1)));
  const value = reading.value * scale;
  const within = value >= Math.min(...figures) / 2 && value <= Math.max(...figures) * 2;
  return { ok: true, value, evidence: reading.evidence, exact: false, ...(within ? {} : { check: true as const }) };
}
