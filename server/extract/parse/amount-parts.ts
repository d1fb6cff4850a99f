import type { AmountWords } from '../../language/number-words.ts';

/*
 * SEVERAL FIGURES IN ONE REPLY that still give one answer (docs/understanding.md, "Numbers and money"):
 *  - a range, "between 15 and 20k", "20-25k", "2-3 days", "zwischen 15.000 und 20.000": the bare end takes the other's
 *    scale ("15" of "15 and 20k" is 15,000) and the visitor is asked which figure to note, both ends named;
 *  - a total said with its parts, "80k total - 60k for the lights and 20k for install", "insgesamt 45.000 $: 35.000 für
 *    die Leuchten und 10.000 für die Montage": the total, committed when the parts add up to it (or are a share of it,
 *    "55k overall, 40 of that for the lights"), checked when they do not;
 *  - at a money question, parts joined by an adding word and no total, "25k from a grant plus 5k from the club",
 *    "8.000 vom Förderverein und nochmal 6.000 vom Verein": their sum, always checked first (one short question).
 * The words are the pack's (`numbers.parts`); a language without them asks about two numbers as before.
 */

/** A figure found in a reply with its span (number.ts's FoundNumber, by shape). */
export interface FoundNumber {
  value: number;
  start: number;
  end: number;
}

/** What several figures in a reply come to. */
export type PartsReading =
  | { kind: 'range'; low: number; high: number }
  | { kind: 'total'; value: number; start: number; end: number; check: boolean }
  | { kind: 'sum'; value: number; start: number; end: number };

/** "15 and 20k": a bare figure beside a scaled one is in the same scale (15 → 15,000) when it is smaller than the scale. */
export function sameScale(found: readonly FoundNumber[], text: string): number[] {
  const scales = found.map((f) => scaleOf(text.slice(f.start, f.end), f.value));
  const scale = Math.max(...scales);
  return found.map((f, i) => (scales[i] === 1 && scale > 1 && Math.abs(f.value) < scale && Number.isInteger(f.value) ? f.value * scale : f.value));
}

// a multiplier typed with the digits ("20k", "20 thousand", "20 Tsd.", "50 Riesen"), or a long run of digits
function scaleOf(typed: string, value: number): number {
  if (/\d\s*(?:k|thousand|grand|tsd\.?|tausend|riesen|mille|mil)(?![\p{L}])/iu.test(typed)) return 1e3;
  if (/\d\s*(?:m|mn|mio\.?|million(?:s|en)?|millions?)(?![\p{L}])/iu.test(typed)) return 1e6;
  return Math.abs(value) >= 1000 ? 1e3 : 1;
}

/** The reading of two or more figures as a range, a total with its parts or a sum of parts; null when they are none of these. */
export function readParts(text: string, found: readonly FoundNumber[], words: AmountWords, money: boolean): PartsReading | null {
  if (found.length < 2) return null;
  const values = sameScale(found, text);
  // between the figures only: "between 15 and 20k", "20-25k", "from 25 to 35 thousand"
  if (found.length === 2) {
    const [a, b] = found as [FoundNumber, FoundNumber];
    const gap = text.slice(a.end, b.start);
    const before = text.slice(Math.max(0, a.start - 24), a.start);
    if ((words.rangeGap.test(gap) || (words.rangeAnd.test(gap) && words.rangeBefore.test(before))) && values[0]! < values[1]!) {
      return { kind: 'range', low: values[0]!, high: values[1]! };
    }
  }
  // a total: one figure with a total word right before or after it, in the text between it and its neighbours
  // (a gap that starts with a total word belongs to the figure before it: "80k total - 60k for …")
  const totals = found.flatMap((f, i) => {
    const gapBefore = text.slice(i === 0 ? 0 : found[i - 1]!.end, f.start);
    const after = words.totalAfter.test(text.slice(f.end, i === found.length - 1 ? text.length : found[i + 1]!.start));
    const before = words.totalBefore.test(gapBefore) && (i === 0 || !words.totalAfter.test(gapBefore));
    return after || before ? [i] : [];
  });
  if (totals.length === 1) {
    const t = totals[0]!;
    const parts = values.filter((_, i) => i !== t);
    const sum = parts.reduce((s, v) => s + v, 0);
    const share = words.share.test(text) && sum <= values[t]!;
    return { kind: 'total', value: values[t]!, start: found[0]!.start, end: found[found.length - 1]!.end, check: !(Math.abs(sum - values[t]!) < 1e-9 || share) };
  }
  if (totals.length > 1 || !money) return null;
  // parts joined by an adding word, none of them an alternative: their sum, to be checked
  for (let i = 1; i < found.length; i++) {
    const gap = text.slice(found[i - 1]!.end, found[i]!.start);
    if (!words.adds.test(gap) || words.alternative.test(gap)) return null;
  }
  return { kind: 'sum', value: values.reduce((s, v) => s + v, 0), start: found[0]!.start, end: found[found.length - 1]!.end };
}
