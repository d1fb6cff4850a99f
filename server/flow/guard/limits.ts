/**
 * Hard ceilings for guard expressions. Guards come from flow files that tenants
 * and packs may edit, so every stage is bounded before it does work that grows
 * with the input: the length is checked before lexing, depth and node counts
 * while parsing (so hostile input never reaches a deep recursion), and literal
 * sizes while lexing.
 */
export const GUARD_LIMITS = Object.freeze({
  /** Characters in one expression; checked before anything else runs. */
  maxSourceLength: 4096,
  /** AST nodes (every literal, name, member segment, operator and call counts). */
  maxNodes: 512,
  /** Nesting of parentheses, lists, calls and `not`/`!`. */
  maxDepth: 32,
  /** Decoded characters in one string literal. */
  maxStringLength: 1024,
  /** Characters in one number literal (digits, point, sign). */
  maxNumberLength: 32,
  /** Items in one list literal. */
  maxListLength: 256,
  /** Characters in a `matches()` pattern. */
  maxRegexLength: 512,
  /** re2 program size of a `matches()` pattern; bounds compile time and memory. */
  maxRegexProgramSize: 20_000,
});

/** The shape of {@link GUARD_LIMITS}. */
export type GuardLimits = typeof GUARD_LIMITS;
