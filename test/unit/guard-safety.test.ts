import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileGuard, GUARD_LIMITS, parseGuard, type AnswerKeyInfo, type CheckOptions, type GuardResult } from '../../server/flow/guard/index.ts';

const KEYS = new Map<string, AnswerKeyInfo>([
  ['a', { type: 'text' }],
  ['text', { type: 'text' }],
  ['n', { type: 'number' }],
  ['kind', { type: 'enum', options: ['x', 'y'] }],
]);
const OPTS: CheckOptions = { answers: KEYS };

const KNOWN_CODES = new Set([
  'syntax', 'unknown_name', 'unknown_answer_key', 'unknown_function', 'bad_arity', 'value_outside_validate',
  'prototype_access', 'bad_regex', 'else_not_expression', 'too_long', 'too_deep', 'too_many_nodes',
  'literal_too_large', 'list_too_long', 'bad_member', 'type_mismatch',
]);

function firstError(r: GuardResult) {
  expect(r.ok).toBe(false);
  return r.issues.find((i) => i.severity === 'error')!;
}

describe('guard safety: host objects', () => {
  it.each(['process', 'globalThis', 'require', 'this', 'window', 'global', 'Function', 'eval', 'module', 'constructor'])(
    'rejects %s as an unknown name',
    (name) => {
      expect(firstError(compileGuard(`${name} == null`, OPTS))).toMatchObject({ code: 'unknown_name', column: 1 });
    },
  );

  it('rejects member chains that start at a host global', () => {
    expect(firstError(compileGuard("process.env.HOME == 'x'", OPTS)).code).toBe('unknown_name');
    expect(firstError(compileGuard('this.constructor', OPTS)).code).toBe('unknown_name');
  });

  it('rejects calls to host functions as unknown functions', () => {
    expect(firstError(compileGuard("require('fs')", OPTS)).code).toBe('unknown_function');
    expect(firstError(compileGuard("eval('1')", OPTS)).code).toBe('unknown_function');
  });

  it('never uses eval, Function, vm or with in its sources', () => {
    const dir = join(import.meta.dirname, '../../server/flow/guard');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const code = readFileSync(join(dir, file), 'utf8');
      expect(code, file).not.toMatch(/\beval\s*\(/);
      expect(code, file).not.toMatch(/\bFunction\s*\(/);
      expect(code, file).not.toMatch(/from\s+['"](node:)?vm['"]/);
      expect(code, file).not.toMatch(/\bwith\s*\(/);
    }
  });
});

describe('guard safety: limits', () => {
  it('exposes frozen limits', () => {
    expect(Object.isFrozen(GUARD_LIMITS)).toBe(true);
    expect(GUARD_LIMITS.maxSourceLength).toBeGreaterThan(0);
  });

  it('rejects a 10 MB expression as too_long before lexing it', () => {
    const huge = `answers.a == '${'x'.repeat(10 * 1024 * 1024)}'`;
    const r = compileGuard(huge, OPTS);
    expect(r.issues).toEqual([expect.objectContaining({ code: 'too_long', column: GUARD_LIMITS.maxSourceLength + 1 })]);
  });

  it('accepts an expression exactly at the length limit', () => {
    const pad = ' '.repeat(GUARD_LIMITS.maxSourceLength - 'answers.a'.length);
    expect(compileGuard(`answers.a${pad}`, OPTS).ok).toBe(true);
    expect(firstError(compileGuard(`answers.a${pad} `, OPTS)).code).toBe('too_long');
  });

  it('rejects 10,000 nested parentheses without throwing', () => {
    const src = `${'('.repeat(10_000)}answers.a${')'.repeat(10_000)}`;
    expect(() => compileGuard(src, OPTS)).not.toThrow();
    expect(['too_deep', 'too_long']).toContain(firstError(compileGuard(src, OPTS)).code);
  });

  it('rejects nesting beyond maxDepth with too_deep at the offending column', () => {
    const depth = GUARD_LIMITS.maxDepth + 1;
    expect(firstError(compileGuard(`${'('.repeat(depth)}1${')'.repeat(depth)}`, OPTS)))
      .toMatchObject({ code: 'too_deep', column: depth });
    expect(firstError(compileGuard(`${'!'.repeat(depth)}answers.a`, OPTS)).code).toBe('too_deep');
    expect(firstError(compileGuard(`${'not '.repeat(depth)}answers.a`, OPTS)).code).toBe('too_deep');
    expect(firstError(compileGuard(`${'['.repeat(depth)}${']'.repeat(depth)}`, OPTS)).code).toBe('too_deep');
    expect(firstError(compileGuard(`${'len('.repeat(depth)}1${')'.repeat(depth)}`, OPTS)).code).toBe('too_deep');
  });

  it('accepts nesting at maxDepth', () => {
    const depth = GUARD_LIMITS.maxDepth;
    const r = compileGuard(`${'('.repeat(depth)}answers.a == 'q'${')'.repeat(depth)}`, OPTS);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.guard.test({ answers: { a: 'q' } })).toBe(true);
  });

  it('rejects a 50,000-term chain by length', () => {
    const src = Array.from({ length: 50_000 }, () => 'answers.a').join(' || ');
    expect(firstError(compileGuard(src, OPTS)).code).toBe('too_long');
  });

  it('rejects a chain under the length limit but over the node limit', () => {
    const src = Array.from({ length: 1000 }, () => '1').join('||');
    expect(src.length).toBeLessThanOrEqual(GUARD_LIMITS.maxSourceLength);
    expect(firstError(compileGuard(src, OPTS)).code).toBe('too_many_nodes');
  });

  it('compiles and evaluates a long chain that fits the limits without deep recursion', () => {
    const terms = Math.floor((GUARD_LIMITS.maxNodes - 1) / 2);
    const src = Array.from({ length: terms }, () => 'answers.a').join(' || ');
    const r = compileGuard(src, OPTS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.guard.test({ answers: { a: 'x' } })).toBe(true);
    expect(r.guard.test({ answers: {} })).toBe(false);
  });

  it('rejects an oversized string literal as literal_too_large', () => {
    const src = `answers.a == '${'x'.repeat(GUARD_LIMITS.maxStringLength + 1)}'`;
    expect(firstError(compileGuard(src, OPTS))).toMatchObject({ code: 'literal_too_large', column: 14 });
    const ok = `answers.a == '${'x'.repeat(GUARD_LIMITS.maxStringLength)}'`;
    expect(compileGuard(ok, OPTS).ok).toBe(true);
  });

  it('rejects an oversized number literal as literal_too_large', () => {
    const src = `answers.n > ${'9'.repeat(GUARD_LIMITS.maxNumberLength + 1)}`;
    expect(firstError(compileGuard(src, OPTS))).toMatchObject({ code: 'literal_too_large', column: 13 });
  });

  it('rejects a list literal longer than maxListLength', () => {
    const src = `answers.n in [${Array.from({ length: GUARD_LIMITS.maxListLength + 1 }, (_, i) => i).join(',')}]`;
    expect(src.length).toBeLessThanOrEqual(GUARD_LIMITS.maxSourceLength);
    expect(firstError(compileGuard(src, OPTS))).toMatchObject({ code: 'list_too_long', column: 14 });
  });
});

describe('guard safety: regular expressions', () => {
  it('evaluates a catastrophic pattern on a 30k-character input and returns the right answer', () => {
    const r = compileGuard("matches(answers.text, '(a+)+$')", OPTS);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.guard.test({ answers: { text: `${'a'.repeat(30_000)}!` } })).toBe(false);
    expect(r.guard.test({ answers: { text: 'a'.repeat(30_000) } })).toBe(true);
  });

  it('evaluates other classic ReDoS shapes without backtracking', () => {
    const input = `${'a'.repeat(30_000)}b`;
    for (const pattern of ['^(a|a)*$', '^(a|aa)+$', '(.*a){20}$', '^([a-z]+)*[0-9]$']) {
      const r = compileGuard(`matches(answers.text, '${pattern}')`, OPTS);
      if (!r.ok) throw new Error(`${pattern}: ${JSON.stringify(r.issues)}`);
      expect(r.guard.test({ answers: { text: input } }), pattern).toBe(false);
    }
  });

  it('rejects backreferences and lookarounds, which re2 cannot run in linear time', () => {
    for (const pattern of ['(a)\\\\1', '(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b']) {
      expect(firstError(compileGuard(`matches(answers.text, '${pattern}')`, OPTS)).code, pattern).toBe('bad_regex');
    }
  });
});

/** Small deterministic PRNG so a failing fuzz case can be reproduced. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  'answers', '.', 'a', 'text', 'n', 'kind', 'nope', '[', ']', "'a'", '"x"', "'(a+)+'", "'('", "'\\u00e9'", "'\\q'",
  "'", '"', '\\', '0', '1.5', '-', '-3', 'true', 'false', 'null', '==', '!=', '<', '<=', '>', '>=', '=', '&&', '||',
  '!', '&', '|', 'and', 'or', 'not', 'in', 'else', '(', ')', ',', 'has', 'len', 'lower', 'matches', 'today', 'value',
  'path', 'context', 'attempts', '__proto__', 'constructor', 'prototype', 'process', '$', '#', '\u0000', '😀', ' ', '\n',
];

describe('guard safety: fuzz', () => {
  it('never throws from compileGuard on 2000 random token strings, and evaluation never throws', () => {
    const rand = mulberry32(20240615);
    let compiled = 0;
    for (let i = 0; i < 2000; i++) {
      const n = 1 + Math.floor(rand() * 24);
      const parts: string[] = [];
      for (let j = 0; j < n; j++) parts.push(TOKENS[Math.floor(rand() * TOKENS.length)]!);
      const src = parts.join(rand() < 0.5 ? ' ' : '');
      let r: GuardResult | undefined;
      expect(() => { r = compileGuard(src, { answers: KEYS, allowValue: rand() < 0.5 }); }, src).not.toThrow();
      expect(typeof r!.ok, src).toBe('boolean');
      for (const issue of r!.issues) {
        expect(KNOWN_CODES.has(issue.code), `${src}: ${issue.code}`).toBe(true);
        expect(issue.column, src).toBeGreaterThanOrEqual(1);
        expect(issue.column, src).toBeLessThanOrEqual(src.length + 1);
        expect(issue.message.length).toBeGreaterThan(0);
      }
      if (r!.ok) {
        compiled++;
        const g = r!.guard;
        expect(() => g.test({ answers: { a: 'a', n: 1, text: '', kind: 'x' }, value: ['a'], today: '2026-01-01' }), src)
          .not.toThrow();
        expect(() => g.evaluate({ answers: {} }), src).not.toThrow();
      }
    }
    // The corpus must exercise the compiler too, not only the error paths.
    expect(compiled).toBeGreaterThan(20);
  });

  it('parseGuard agrees with compileGuard on syntax errors', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 300; i++) {
      const src = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => TOKENS[Math.floor(rand() * TOKENS.length)]!).join(' ');
      const p = parseGuard(src);
      const c = compileGuard(src, OPTS);
      if (!p.ok) expect(c.issues, src).toEqual(p.issues);
    }
  });
});
