/**
 * Optimal-string-alignment (restricted Damerau–Levenshtein) distance, capped:
 * returns `max + 1` as soon as every path exceeds `max`. Hand-written because
 * no edit-distance package is installed and a swap ("teh") must cost one edit.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** Edits tolerated for a word of this length: none under 4 letters (too many near neighbours), 2 from 7. */
export function typoBudget(length: number): number {
  return length < 4 ? 0 : length < 7 ? 1 : 2;
}
