import type { CompareOp, Expr, ListExpr, MemberStep, RefExpr } from './ast.ts';
import { GuardSyntaxFailure, guardError, type GuardIssue } from './issue.ts';
import { Lexer, type Token } from './lexer.ts';
import { GUARD_LIMITS } from './limits.ts';

/** Result of {@link parseGuard}: an AST, or the first syntax/limit error. */
export type ParseResult = { ok: true; ast: Expr } | { ok: false; issues: GuardIssue[] };

const COMPARE_PUNCT: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);

function describe(tok: Token): string {
  if (tok.kind === 'eof') return 'end of expression';
  if (tok.kind === 'string') return 'a string';
  if (tok.kind === 'number') return `number ${tok.text}`;
  return `'${tok.text}'`;
}

function fail(code: string, message: string, pos: number, length?: number): never {
  throw new GuardSyntaxFailure(guardError(code, message, pos, length));
}

/**
 * Recursive descent over the grammar
 *   or      := and (('||' | 'or') and)*
 *   and     := not (('&&' | 'and') not)*
 *   not     := ('!' | 'not') not | compare
 *   compare := primary (op primary)?          op: == != < <= > >= in
 *   primary := literal | '-' number | list | '(' or ')' | name call? | name member*
 * Chains are parsed with loops, and each recursive construct (parentheses,
 * lists, calls, `not`) counts against maxDepth, so the stack stays shallow
 * whatever the input.
 */
class Parser {
  private readonly lexer: Lexer;
  private tok: Token;
  private depth = 0;
  private nodes = 0;

  constructor(source: string) {
    this.lexer = new Lexer(source);
    this.tok = this.lexer.next();
  }

  parseRoot(): Expr {
    const expr = this.parseOr();
    if (this.tok.kind !== 'eof') {
      const hint = this.isWord('not') ? " (write 'not (a in b)' instead of 'a not in b')" : '';
      this.unexpected(`expected end of expression${hint}`);
    }
    return expr;
  }

  private advance(): Token {
    const t = this.tok;
    this.tok = this.lexer.next();
    return t;
  }

  private isWord(w: string): boolean {
    return this.tok.kind === 'word' && this.tok.text === w;
  }

  private isPunct(p: string): boolean {
    return this.tok.kind === 'punct' && this.tok.text === p;
  }

  private unexpected(expected: string): never {
    const t = this.tok;
    fail('syntax', `${expected} at column ${t.pos + 1}, found ${describe(t)}`, t.pos, Math.max(1, t.end - t.pos));
  }

  private expectPunct(p: string): Token {
    if (!this.isPunct(p)) this.unexpected(`expected '${p}'`);
    return this.advance();
  }

  private count(pos: number): void {
    if (++this.nodes > GUARD_LIMITS.maxNodes) {
      fail('too_many_nodes', `expression has more than ${GUARD_LIMITS.maxNodes} nodes`, pos);
    }
  }

  private enter(pos: number): void {
    if (++this.depth > GUARD_LIMITS.maxDepth) {
      fail('too_deep', `expression nests deeper than ${GUARD_LIMITS.maxDepth} levels`, pos);
    }
  }

  private parseOr(): Expr {
    const first = this.parseAnd();
    if (!this.isPunct('||') && !this.isWord('or')) return first;
    const operands = [first];
    while (this.isPunct('||') || this.isWord('or')) {
      this.advance();
      operands.push(this.parseAnd());
    }
    this.count(first.pos);
    return { kind: 'logical', op: 'or', operands, pos: first.pos, end: operands[operands.length - 1]!.end };
  }

  private parseAnd(): Expr {
    const first = this.parseNot();
    if (!this.isPunct('&&') && !this.isWord('and')) return first;
    const operands = [first];
    while (this.isPunct('&&') || this.isWord('and')) {
      this.advance();
      operands.push(this.parseNot());
    }
    this.count(first.pos);
    return { kind: 'logical', op: 'and', operands, pos: first.pos, end: operands[operands.length - 1]!.end };
  }

  private parseNot(): Expr {
    if (this.isPunct('!') || this.isWord('not')) {
      const t = this.advance();
      this.enter(t.pos);
      const operand = this.parseNot();
      this.depth--;
      this.count(t.pos);
      return { kind: 'not', operand, pos: t.pos, end: operand.end };
    }
    return this.parseCompare();
  }

  private compareOp(): CompareOp | null {
    const t = this.tok;
    if (t.kind === 'punct' && COMPARE_PUNCT.has(t.text)) return t.text as CompareOp;
    if (t.kind === 'word' && t.text === 'in') return 'in';
    return null;
  }

  private parseCompare(): Expr {
    const left = this.parseOperand();
    const op = this.compareOp();
    if (op === null) return left;
    const opTok = this.advance();
    const right = this.parseOperand();
    if (this.compareOp() !== null) {
      const t = this.tok;
      fail('syntax', `comparisons cannot be chained (column ${t.pos + 1}); combine them with '&&'`,
        t.pos, t.end - t.pos);
    }
    this.count(opTok.pos);
    return { kind: 'compare', op, opPos: opTok.pos, left, right, pos: left.pos, end: right.end };
  }

  private parseOperand(): Expr {
    if (this.isPunct('!') || this.isWord('not')) {
      // `!` binds looser than comparisons (`!a == b` is `!(a == b)`), so a
      // negation cannot be a comparison operand without parentheses.
      this.unexpected("expected an operand (negation binds looser than comparisons; wrap it in parentheses)");
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'number':
        this.advance();
        this.count(t.pos);
        return { kind: 'literal', value: t.value as number, pos: t.pos, end: t.end };
      case 'string':
        this.advance();
        this.count(t.pos);
        return { kind: 'literal', value: t.value as string, pos: t.pos, end: t.end };
      case 'word':
        return this.parseWord();
      case 'punct':
        if (t.text === '-') {
          this.advance();
          const n = this.tok;
          if (n.kind !== 'number') this.unexpected("'-' only negates a number literal; expected a number");
          this.advance();
          this.count(t.pos);
          return { kind: 'literal', value: -(n.value as number), pos: t.pos, end: n.end };
        }
        if (t.text === '(') {
          this.advance();
          this.enter(t.pos);
          const inner = this.parseOr();
          this.expectPunct(')');
          this.depth--;
          return inner;
        }
        if (t.text === '[') return this.parseList();
        break;
      case 'eof':
        break;
    }
    this.unexpected('expected an expression');
  }

  private parseList(): ListExpr {
    const open = this.advance();
    this.enter(open.pos);
    const items: Expr[] = [];
    if (!this.isPunct(']')) {
      for (;;) {
        if (items.length >= GUARD_LIMITS.maxListLength) {
          fail('list_too_long', `list literal has more than ${GUARD_LIMITS.maxListLength} items`, open.pos);
        }
        items.push(this.parseOr());
        if (this.isPunct(',')) {
          this.advance();
          continue;
        }
        if (!this.isPunct(']')) this.unexpected("expected ',' or ']'");
        break;
      }
    }
    const close = this.advance();
    this.depth--;
    this.count(open.pos);
    return { kind: 'list', items, pos: open.pos, end: close.end };
  }

  private parseWord(): Expr {
    const t = this.advance();
    const word = t.text;
    if (word === 'true' || word === 'false' || word === 'null') {
      this.count(t.pos);
      return { kind: 'literal', value: word === 'null' ? null : word === 'true', pos: t.pos, end: t.end };
    }
    if (word === 'else') {
      fail('else_not_expression',
        "'else' is not an expression: only a guard that is exactly 'else' is allowed, and the flow compiler handles it",
        t.pos, 4);
    }
    if (word === 'and' || word === 'or' || word === 'in' || word === 'not') {
      fail('syntax', `expected an expression at column ${t.pos + 1}, found '${word}'`, t.pos, word.length);
    }
    if (this.isPunct('(')) return this.parseCall(t);
    const ref = this.parseRef(t);
    if (this.isPunct('(')) this.unexpected('only built-in functions can be called; expected end of name');
    return ref;
  }

  private parseCall(name: Token): Expr {
    const open = this.advance();
    this.enter(open.pos);
    const args: Expr[] = [];
    if (!this.isPunct(')')) {
      for (;;) {
        args.push(this.parseOr());
        if (this.isPunct(',')) {
          this.advance();
          continue;
        }
        if (!this.isPunct(')')) this.unexpected("expected ',' or ')'");
        break;
      }
    }
    const close = this.advance();
    this.depth--;
    this.count(name.pos);
    return { kind: 'call', name: name.text, nameEnd: name.end, args, pos: name.pos, end: close.end };
  }

  private parseRef(root: Token): RefExpr {
    this.count(root.pos);
    const path: MemberStep[] = [];
    let end = root.end;
    for (;;) {
      if (this.isPunct('.')) {
        this.advance();
        const n = this.tok;
        // Keywords are fine as member names (`answers.in`): after '.' nothing else can follow.
        if (n.kind !== 'word') this.unexpected("expected a name after '.'");
        this.advance();
        this.count(n.pos);
        path.push({ name: n.text, computed: false, pos: n.pos, end: n.end });
        end = n.end;
      } else if (this.isPunct('[')) {
        this.advance();
        const s = this.tok;
        if (s.kind !== 'string') this.unexpected("expected a string literal inside '[ ]'");
        this.advance();
        const close = this.expectPunct(']');
        this.count(s.pos);
        path.push({ name: s.value as string, computed: true, pos: s.pos, end: s.end });
        end = close.end;
      } else {
        break;
      }
    }
    return { kind: 'ref', root: root.text, rootEnd: root.end, path, pos: root.pos, end };
  }
}

/** Parses a guard expression (syntax and size limits only; names are not checked). */
export function parseGuard(source: string): ParseResult {
  if (typeof source !== 'string') {
    return { ok: false, issues: [guardError('syntax', 'a guard must be a string', 0)] };
  }
  // Before lexing: rejecting a 10 MB string must cost nothing.
  if (source.length > GUARD_LIMITS.maxSourceLength) {
    return {
      ok: false,
      issues: [guardError('too_long',
        `expression is ${source.length} characters long; the limit is ${GUARD_LIMITS.maxSourceLength}`,
        GUARD_LIMITS.maxSourceLength)],
    };
  }
  try {
    return { ok: true, ast: new Parser(source).parseRoot() };
  } catch (err) {
    if (err instanceof GuardSyntaxFailure) return { ok: false, issues: [err.issue] };
    throw err;
  }
}
