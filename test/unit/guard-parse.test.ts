import { describe, expect, it } from 'vitest';
import type { Expr } from '../../server/flow/guard/index.ts';
import { parseGuard } from '../../server/flow/guard/index.ts';

/** Renders an AST as a compact s-expression so precedence is easy to assert. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return JSON.stringify(e.value);
    case 'list':
      return `[${e.items.map(show).join(' ')}]`;
    case 'ref':
      return [e.root, ...e.path.map((p) => (p.computed ? `[${JSON.stringify(p.name)}]` : `.${p.name}`))].join('');
    case 'call':
      return `(${e.name}() ${e.args.map(show).join(' ')})`.replace(' )', ')');
    case 'not':
      return `(not ${show(e.operand)})`;
    case 'compare':
      return `(${e.op} ${show(e.left)} ${show(e.right)})`;
    case 'logical':
      return `(${e.op} ${e.operands.map(show).join(' ')})`;
  }
}

function parsed(source: string): string {
  const r = parseGuard(source);
  if (!r.ok) throw new Error(`unexpected parse failure: ${JSON.stringify(r.issues)}`);
  return show(r.ast);
}

function syntaxIssue(source: string) {
  const r = parseGuard(source);
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error('unreachable');
  expect(r.issues).toHaveLength(1);
  return r.issues[0]!;
}

describe('guard parser: constructs', () => {
  it('parses every literal form', () => {
    expect(parsed("'led'")).toBe('"led"');
    expect(parsed('"led"')).toBe('"led"');
    expect(parsed('42')).toBe('42');
    expect(parsed('3.25')).toBe('3.25');
    expect(parsed('-7')).toBe('-7');
    expect(parsed('- 1.5')).toBe('-1.5');
    expect(parsed('true')).toBe('true');
    expect(parsed('false')).toBe('false');
    expect(parsed('null')).toBe('null');
  });

  it('parses lists, including empty and nested lists', () => {
    expect(parsed("['court', 'arena']")).toBe('["court" "arena"]');
    expect(parsed('[]')).toBe('[]');
    expect(parsed('[1, [2, 3], answers.a]')).toBe('[1 [2 3] answers.a]');
  });

  it('parses dotted, bracketed and nested member access', () => {
    expect(parsed('answers.size')).toBe('answers.size');
    expect(parsed("answers['odd-key']")).toBe('answers["odd-key"]');
    expect(parsed('answers["with space"]')).toBe('answers["with space"]');
    expect(parsed('context.tenant.plan')).toBe('context.tenant.plan');
    expect(parsed("context['a'].b")).toBe('context["a"].b');
  });

  it('accepts keywords as member names after a dot', () => {
    expect(parsed('answers.in == 1')).toBe('(== answers.in 1)');
    expect(parsed('context.not')).toBe('context.not');
  });

  it('parses bare names and function calls with zero, one and two arguments', () => {
    expect(parsed('path')).toBe('path');
    expect(parsed('attempts')).toBe('attempts');
    expect(parsed('value')).toBe('value');
    expect(parsed('today()')).toBe('(today())');
    expect(parsed('has(answers.email)')).toBe('(has() answers.email)');
    expect(parsed("matches(answers.email, '@acme')")).toBe('(matches() answers.email "@acme")');
  });

  it('parses every comparison operator and in', () => {
    for (const op of ['==', '!=', '<', '<=', '>', '>=']) {
      expect(parsed(`answers.a ${op} 1`)).toBe(`(${op} answers.a 1)`);
    }
    expect(parsed("answers.a in ['x']")).toBe('(in answers.a ["x"])');
    expect(parsed("'x' in answers.tags")).toBe('(in "x" answers.tags)');
  });

  it('treats symbol and word forms of logical operators alike', () => {
    expect(parsed('a && b')).toBe(parsed('a and b'));
    expect(parsed('a || b')).toBe(parsed('a or b'));
    expect(parsed('!a')).toBe(parsed('not a'));
    expect(parsed('a && b')).toBe('(and a b)');
  });

  it('flattens chains of the same logical operator into one node', () => {
    expect(parsed('a || b || c || d')).toBe('(or a b c d)');
    expect(parsed('a and b && c')).toBe('(and a b c)');
  });

  it('ignores spaces, tabs and newlines between tokens', () => {
    expect(parsed(" answers.a\n\t==\r\n 'x' ")).toBe('(== answers.a "x")');
  });
});

describe('guard parser: precedence', () => {
  it('binds and tighter than or', () => {
    expect(parsed('a or b and c')).toBe('(or a (and b c))');
    expect(parsed('a and b or c and d')).toBe('(or (and a b) (and c d))');
  });

  it('binds not looser than comparisons', () => {
    expect(parsed('not answers.a == 1')).toBe('(not (== answers.a 1))');
    expect(parsed('!answers.a in [1]')).toBe('(not (in answers.a [1]))');
  });

  it('binds not tighter than and/or', () => {
    expect(parsed('!a && b')).toBe('(and (not a) b)');
    expect(parsed('not a or not b')).toBe('(or (not a) (not b))');
    expect(parsed('not not a')).toBe('(not (not a))');
  });

  it('lets parentheses override precedence', () => {
    expect(parsed('(a or b) and c')).toBe('(and (or a b) c)');
    expect(parsed('(answers.a == 1)')).toBe('(== answers.a 1)');
  });
});

describe('guard parser: string escapes', () => {
  it('decodes every supported escape', () => {
    expect(parsed("'it\\'s'")).toBe(JSON.stringify("it's"));
    expect(parsed('"say \\"hi\\""')).toBe(JSON.stringify('say "hi"'));
    expect(parsed("'a\\\\b'")).toBe(JSON.stringify('a\\b'));
    expect(parsed("'l1\\nl2\\tt\\rr'")).toBe(JSON.stringify('l1\nl2\tt\rr'));
    expect(parsed("'caf\\u00e9'")).toBe(JSON.stringify('café'));
  });

  it('keeps the other quote character unescaped', () => {
    expect(parsed(`"it's"`)).toBe(JSON.stringify("it's"));
    expect(parsed(`'say "hi"'`)).toBe(JSON.stringify('say "hi"'));
  });

  it('rejects an unknown escape with its column', () => {
    const issue = syntaxIssue("answers.a == 'x\\qy'");
    expect(issue).toMatchObject({ code: 'syntax', column: 16 });
    expect(issue.message).toContain("unknown escape '\\q'");
  });

  it('rejects a \\u escape without four hex digits', () => {
    expect(syntaxIssue("'\\u12'")).toMatchObject({ code: 'syntax', column: 2 });
  });

  it('rejects an unterminated string at its opening quote', () => {
    const issue = syntaxIssue("answers.a == 'abc");
    expect(issue).toMatchObject({ code: 'syntax', column: 14 });
    expect(issue.message).toContain('unterminated string');
  });
});

describe('guard parser: syntax errors', () => {
  it('names the missing token and its column', () => {
    const issue = syntaxIssue("(answers.a == 'x'");
    expect(issue.column).toBe(18);
    expect(issue.message).toBe("expected ')' at column 18, found end of expression");
  });

  it('hints at == when a single = is used', () => {
    const issue = syntaxIssue('answers.a = 1');
    expect(issue.column).toBe(11);
    expect(issue.message).toContain("use '==' to compare");
  });

  it('rejects an empty expression at column 1', () => {
    expect(syntaxIssue('')).toMatchObject({ code: 'syntax', column: 1 });
    expect(syntaxIssue('   ').message).toContain('expected an expression');
  });

  it('rejects trailing tokens', () => {
    const issue = syntaxIssue('answers.a answers.b');
    expect(issue.column).toBe(11);
    expect(issue.message).toContain('expected end of expression');
  });

  it('rejects chained comparisons', () => {
    const issue = syntaxIssue('1 < answers.a < 3');
    expect(issue.column).toBe(15);
    expect(issue.message).toContain('cannot be chained');
  });

  it('rejects bracket access without a string literal', () => {
    expect(syntaxIssue('answers[0]').column).toBe(9);
    expect(syntaxIssue('answers[answers.a]').message).toContain('string literal');
  });

  it('rejects unary minus on anything but a number', () => {
    expect(syntaxIssue('-answers.a').column).toBe(2);
  });

  it('rejects arithmetic and other foreign operators', () => {
    expect(syntaxIssue('answers.a + 1').message).toContain('no arithmetic');
    expect(syntaxIssue('answers.a ? 1 : 2').column).toBe(11);
    expect(syntaxIssue('answers.a & 1').message).toContain("'&&'");
  });

  it('rejects negation as a comparison operand without parentheses', () => {
    expect(syntaxIssue('answers.a == !answers.b').column).toBe(14);
    expect(parsed('answers.a == (!answers.b)')).toBe('(== answers.a (not answers.b))');
  });

  it('explains that names are ASCII and points to bracket access', () => {
    const issue = syntaxIssue("answers.café == 'x'");
    expect(issue.column).toBe(12);
    expect(issue.message).toContain("answers['…']");
  });

  it("suggests not (a in b) for Python's 'not in'", () => {
    const issue = syntaxIssue("answers.a not in ['x']");
    expect(issue.column).toBe(11);
    expect(issue.message).toContain('not (a in b)');
  });

  it('rejects calling something that is not a builtin name', () => {
    expect(syntaxIssue('answers.a()').column).toBe(10);
  });

  it('rejects malformed numbers and lists', () => {
    expect(syntaxIssue('12abc').column).toBe(1);
    expect(syntaxIssue('[1, 2').message).toContain("expected ',' or ']'");
    expect(syntaxIssue('[1,]').column).toBe(4);
  });

  it('reports else as else_not_expression, alone or inside an expression', () => {
    expect(syntaxIssue('else')).toMatchObject({ code: 'else_not_expression', column: 1 });
    expect(syntaxIssue('answers.a == 1 || else')).toMatchObject({ code: 'else_not_expression', column: 19 });
  });

  it('reports non-string input as a syntax error instead of throwing', () => {
    expect(syntaxIssue(42 as unknown as string).code).toBe('syntax');
  });
});
