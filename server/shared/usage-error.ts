// A developer's mistake caught at the call: the wrong argument, an
// implementation a flow names but nobody registered, an extractor that
// returns something that is not a proposal. Thrown to the developer (never
// shown to a visitor) with words saying what was expected, and a code to
// branch on.

/** What went wrong, for code that branches on it. */
export type UsageErrorCode = 'invalid_argument' | 'unregistered_implementation' | 'invalid_proposal';

/** A developer error at Questline's API boundary: `code`, and a message saying what was expected. */
export class QuestlineUsageError extends TypeError {
  override readonly name = 'QuestlineUsageError';
  constructor(readonly code: UsageErrorCode, message: string, readonly details: readonly string[] = []) {
    super(details.length ? `${message}\n${details.map((d) => `  ${d}`).join('\n')}` : message);
  }
}
