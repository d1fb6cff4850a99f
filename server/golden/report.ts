import type { GoldenFailure, GoldenResult } from './run-golden.ts';

const show = (v: unknown) => (v === undefined ? '(nothing)' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v));

/** One failure as the lines a flow author reads: where, what the user said, expected vs actual, the turn's trace. */
export function failureLines(r: GoldenResult, f: GoldenFailure): string[] {
  const where = `${r.file}${f.line ? `:${f.line}` : ''}`;
  const head = f.turn === 'load' ? `${where}: cannot run` : f.turn === 'end' ? `${where}: end of the conversation`
    : f.turn === 'trace' ? `${where}: trace snapshot` : `${where}: turn ${f.turn} — user: ${JSON.stringify(f.user)}`;
  const lines = [`  ${head}`];
  for (const m of f.mismatches) lines.push(`    ${m.field}: expected ${show(m.expected)}, got ${show(m.actual)} — ${m.why}`);
  if (f.message) lines.push(...f.message.split('\n').map((l) => `    ${l}`));
  if (f.trace?.length) lines.push(`    trace of turn ${f.turn}:`, ...f.trace.map((t) => `      ${t}`));
  return lines;
}

/** A golden's result: a ✓ line, or a ✗ line and every failure. */
export function resultLines(r: GoldenResult): string[] {
  const label = `${r.name}${r.tenant ? ` [tenant ${r.tenant}]` : ''} (${r.file})`;
  if (r.passed) return [`✓ ${label}${r.snapshot === 'written' ? ' — trace snapshot written' : r.snapshot === 'updated' ? ' — trace snapshot updated' : ''}`];
  return [`✗ ${label}`, ...r.failures.flatMap((f) => failureLines(r, f))];
}
