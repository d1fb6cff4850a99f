// How sure a difference in completion rates between two revisions is: a
// two-proportion z-test (normal approximation), told in plain words.

/** The two-sided p-value of a standard normal z (Abramowitz–Stegun 7.1.26 for erf, error < 1.5e-7). */
function twoSidedP(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return 1 - erf;
}

/** Completion rates of two groups, their difference, and how sure it is (1 − p), or null with too little data. */
export interface RateComparison {
  a: number;
  b: number;
  /** b − a, in rate points (−1…1). */
  difference: number;
  /** 1 − the two-sided p-value; null when either group has fewer than 5 sessions or nothing differs. */
  sure: number | null;
  words: string;
}

/** Compares completed/started of two revisions. */
export function compareRates(a: { completed: number; sessions: number }, b: { completed: number; sessions: number }): RateComparison {
  const ra = a.sessions ? a.completed / a.sessions : 0;
  const rb = b.sessions ? b.completed / b.sessions : 0;
  const difference = rb - ra;
  const pooled = (a.completed + b.completed) / Math.max(1, a.sessions + b.sessions);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / Math.max(1, a.sessions) + 1 / Math.max(1, b.sessions)));
  if (a.sessions < 5 || b.sessions < 5 || se === 0) {
    return { a: ra, b: rb, difference, sure: null, words: 'Too few sessions to tell whether the revisions differ.' };
  }
  const sure = 1 - twoSidedP(difference / se);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const points = Math.abs(Math.round(difference * 1000) / 10);
  const words = sure >= 0.95
    ? `The second revision completes ${difference > 0 ? 'more' : 'less'} often (${points} points); ${pct(sure)} sure this is not chance.`
    : `The difference (${points} points) could well be chance (${pct(sure)} sure); collect more sessions.`;
  return { a: ra, b: rb, difference, sure, words };
}
