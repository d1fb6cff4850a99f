import type { CaseResult, Verdict } from './eval-run.ts';

// The figures of an eval run: per answer type, how many replies were
// understood, clarified (asked again) and silently wrong.

/** Counts for one answer type, or for the whole run. */
export interface EvalCounts {
  total: number;
  correct: number;
  clarified: number;
  silentlyWrong: number;
  errors: number;
}

/** An eval run as `--json` prints it. */
export interface EvalSummary extends EvalCounts {
  extractor: string;
  byType: Record<string, EvalCounts>;
  /** Per visitor language ('en' for cases without one), when any case gives one. */
  byLocale?: Record<string, EvalCounts>;
  /** Every case that was not correct, with what happened. */
  failures: CaseResult[];
}

const KEY: Record<Verdict, keyof EvalCounts> = { correct: 'correct', clarified: 'clarified', wrong: 'silentlyWrong', error: 'errors' };

const zero = (): EvalCounts => ({ total: 0, correct: 0, clarified: 0, silentlyWrong: 0, errors: 0 });

/** Adds up results per answer type (types in first-seen order) and overall. */
export function summarise(results: readonly CaseResult[], extractor: string): EvalSummary {
  const all = zero();
  const byType: Record<string, EvalCounts> = {};
  const byLocale: Record<string, EvalCounts> = {};
  for (const r of results) {
    const t = (byType[r.type] ??= zero());
    const l = (byLocale[r.locale ?? 'en'] ??= zero());
    for (const c of [all, t, l]) {
      c.total += 1;
      c[KEY[r.verdict]] += 1;
    }
  }
  const localized = results.some((r) => r.locale !== undefined);
  return { extractor, ...all, byType, ...(localized ? { byLocale } : {}), failures: results.filter((r) => r.verdict !== 'correct') };
}

const pct = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)}%`);

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

/** What a case expected, in words. */
export function expectedText(r: CaseResult): string {
  const e = r.expected;
  return e.kind === 'value' ? e.values.map(show).join(' or ') : e.kind === 'reask' ? 'a re-ask' : 'a skip';
}

/** What a case got, in words. */
export function outcomeText(r: CaseResult): string {
  return r.error ? `error: ${r.error}` : r.outcome.kind === 'value' ? show(r.outcome.value) : r.outcome.kind === 'reask' ? 'a re-ask' : 'a skip';
}

/** The human report: one line per type, the total, then every silently wrong case (and, with `verbose`, the clarified ones). */
export function formatSummary(s: EvalSummary, verbose = false): string {
  const rows = Object.entries(s.byType).map(([type, c]) => [type, c] as const);
  const locales = Object.entries(s.byLocale ?? {}).map(([locale, c]) => [locale, c] as const);
  const width = Math.max(8, ...rows.map(([t]) => t.length));
  const line = (name: string, c: EvalCounts) =>
    `${name.padEnd(width)}  ${String(c.total).padStart(5)}  ${String(c.correct).padStart(7)}  ${String(c.clarified).padStart(9)}  ${String(c.silentlyWrong).padStart(14)}${c.errors ? `  ${c.errors} error(s)` : ''}`;
  const out = [
    `extractor: ${s.extractor}`,
    `${'type'.padEnd(width)}  ${'cases'.padStart(5)}  ${'correct'.padStart(7)}  ${'clarified'.padStart(9)}  ${'silently wrong'.padStart(14)}`,
    ...rows.map(([t, c]) => line(t, c)),
    line('all', s),
    `correct ${pct(s.correct, s.total)}, clarified ${pct(s.clarified, s.total)}, silently wrong ${pct(s.silentlyWrong, s.total)}`,
    // the visitor's language, when the set has cases in more than English
    ...(locales.length > 0 ? ['', `${'locale'.padEnd(width)}  ${'cases'.padStart(5)}  ${'correct'.padStart(7)}  ${'clarified'.padStart(9)}  ${'silently wrong'.padStart(14)}`, ...locales.map(([l, c]) => line(l, c))] : []),
  ];
  const shown = s.failures.filter((r) => verbose || r.verdict !== 'clarified');
  if (shown.length > 0) out.push('');
  for (const r of shown) {
    const tag = r.verdict === 'wrong' ? 'SILENTLY WRONG' : r.verdict === 'error' ? 'ERROR' : 'clarified';
    const before = r.previous?.verdict && r.previous.verdict !== 'correct' && r.previous.expected
      ? `; previous ${r.previous.key}: expected ${expectedText({ ...r, expected: r.previous.expected })}, got ${outcomeText({ ...r, outcome: r.previous.outcome, error: undefined })}`
      : '';
    out.push(`${tag} ${r.id} (${r.type}) ${show(r.reply)}: expected ${expectedText(r)}, got ${outcomeText(r)}${before}`);
  }
  return out.join('\n');
}
