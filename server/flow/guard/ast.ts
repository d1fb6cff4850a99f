/**
 * Guard AST. Every node carries its 0-based source span so that later stages
 * can report columns. Logical chains are n-ary (`a || b || c` is one node with
 * three operands) and member chains are one `ref` node with a path, so the
 * tree's depth is bounded by the parser's nesting limit, not by the length of
 * a chain: checking and compiling never recurse along a chain.
 */

/** A span in the source, 0-based, end exclusive. */
export interface Span {
  pos: number;
  end: number;
}

/** JSON scalars a literal can hold. */
export type Scalar = string | number | boolean | null;

/** `'x'`, `1.5`, `-2`, `true`, `false`, `null`. */
export interface LiteralExpr extends Span {
  kind: 'literal';
  value: Scalar;
}

/** `[a, b, …]`. */
export interface ListExpr extends Span {
  kind: 'list';
  items: Expr[];
}

/** One step of a member chain: `.name` or `['name']`. */
export interface MemberStep extends Span {
  name: string;
  computed: boolean;
}

/** A root name with an optional member chain: `answers.size`, `context.a.b`, `path`. */
export interface RefExpr extends Span {
  kind: 'ref';
  root: string;
  rootEnd: number;
  path: MemberStep[];
}

/** A built-in function call: `has(answers.email)`. */
export interface CallExpr extends Span {
  kind: 'call';
  name: string;
  nameEnd: number;
  args: Expr[];
}

/** `!x` / `not x`. */
export interface NotExpr extends Span {
  kind: 'not';
  operand: Expr;
}

/** Comparison operators, including `in`. */
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in';

/** `a == b`, `a in b`, …; `opPos` locates the operator. */
export interface CompareExpr extends Span {
  kind: 'compare';
  op: CompareOp;
  opPos: number;
  left: Expr;
  right: Expr;
}

/** `a && b && …` / `a || b || …` (the word forms too), flattened. */
export interface LogicalExpr extends Span {
  kind: 'logical';
  op: 'and' | 'or';
  operands: Expr[];
}

/** Any guard expression. */
export type Expr = LiteralExpr | ListExpr | RefExpr | CallExpr | NotExpr | CompareExpr | LogicalExpr;
