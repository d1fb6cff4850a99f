/** One diagnostic about a guard expression; `column` is 1-based. */
export interface GuardIssue {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  column: number;
  length?: number;
}

/** Builds an error issue from a 0-based source offset. */
export function guardError(code: string, message: string, offset: number, length?: number): GuardIssue {
  return length === undefined
    ? { code, severity: 'error', message, column: offset + 1 }
    : { code, severity: 'error', message, column: offset + 1, length };
}

/** Builds a warning issue from a 0-based source offset. */
export function guardWarning(code: string, message: string, offset: number, length?: number): GuardIssue {
  return length === undefined
    ? { code, severity: 'warning', message, column: offset + 1 }
    : { code, severity: 'warning', message, column: offset + 1, length };
}

/**
 * Internal early exit for the lexer and the recursive-descent parser: unwinding
 * a recursion with an exception is far simpler than threading results through
 * every level. It never escapes `parseGuard`, which turns it into data.
 */
export class GuardSyntaxFailure extends Error {
  readonly issue: GuardIssue;
  constructor(issue: GuardIssue) {
    super(issue.message);
    this.issue = issue;
  }
}

/** Sorts issues by column, then errors before warnings, so output is stable. */
export function sortIssues(issues: GuardIssue[]): GuardIssue[] {
  return issues.sort((a, b) =>
    a.column - b.column ||
    (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
