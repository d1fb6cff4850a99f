/** One problem found in a flow: data, never an exception. */
export interface Diagnostic {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  line?: number;
  col?: number;
  node?: string;
  edge?: string;
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** `file:line:col: severity[code]: message`, the compiler-style line the CLI prints. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? (d.line ? `${d.file}:${d.line}:${d.col ?? 1}: ` : `${d.file}: `) : '';
  return `${where}${d.severity} [${d.code}] ${d.message}`;
}

/** Sorts by file, line, column, then code, so output is stable across runs. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.col ?? 0) - (b.col ?? 0) ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
}
