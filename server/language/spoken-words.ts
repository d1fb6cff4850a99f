/**
 * How a language says an email address or a phone number out loud, as visitors type it when they
 * spell it ("john dot smith at gmail dot com", "sabine punkt mueller ät web punkt de", "nine one
 * seven, five five five …", "null eins sieben sechs …"): server/extract/parse/spelled.ts.
 */
export interface SpokenWords {
  /** Words for "@" ("at", "ät"); typed alone, in brackets or parentheses. */
  readonly at: readonly string[];
  /** Words for "." in an address ("dot", "punkt"). */
  readonly dot: readonly string[];
  /** Words for one digit ("oh" and "zero" are 0; "zwo" is 2). */
  readonly digits: Readonly<Record<string, string>>;
  /** Words repeating the next digit ("double", "triple"; "doppel"). */
  readonly repeat: Readonly<Record<string, number>>;
}
