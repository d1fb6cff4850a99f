import { describe, expect, it } from 'vitest';
import { compileGuard, GUARD_LIMITS, type AnswerKeyInfo, type CheckOptions, type GuardIssue } from '../../server/flow/guard/index.ts';

const KEYS = new Map<string, AnswerKeyInfo>([
  ['intention', { type: 'enum', options: ['buy_led', 'support'] }],
  ['tags', { type: 'enum', options: ['indoor', 'outdoor'], multiple: true }],
  ['age', { type: 'integer' }],
  ['budget', { type: 'number' }],
  ['consent', { type: 'boolean' }],
  ['email', { type: 'email' }],
  ['phone', { type: 'phone' }],
  ['name', { type: 'text' }],
  ['start', { type: 'date' }],
  ['odd-key', { type: 'text' }],
]);
const OPTS: CheckOptions = { answers: KEYS };

function issuesOf(source: string, options: CheckOptions = OPTS): GuardIssue[] {
  return compileGuard(source, options).issues;
}

function only(source: string, options: CheckOptions = OPTS): GuardIssue {
  const r = compileGuard(source, options);
  expect(r.ok).toBe(false);
  const errors = r.issues.filter((i) => i.severity === 'error');
  expect(errors).toHaveLength(1);
  return errors[0]!;
}

function warnings(source: string, options: CheckOptions = OPTS): GuardIssue[] {
  const r = compileGuard(source, options);
  if (!r.ok) throw new Error(`expected a compiled guard, got ${JSON.stringify(r.issues)}`);
  expect(r.issues.every((i) => i.severity === 'warning')).toBe(true);
  return r.issues;
}

describe('guard check: names', () => {
  it('rejects an unknown root name with its column', () => {
    expect(only("answers.name == 'x' && foo")).toMatchObject({ code: 'unknown_name', column: 24, length: 3 });
  });

  it('suggests today() when a builtin is used as a name', () => {
    expect(only("answers.start < today").message).toContain('did you mean today()?');
  });

  it('rejects an answer key the flow does not define and suggests a near one', () => {
    const issue = only('has(answers.emial)');
    expect(issue).toMatchObject({ code: 'unknown_answer_key', column: 13, length: 5 });
    expect(issue.message).toContain("did you mean 'email'?");
  });

  it('accepts bracketed keys that are not identifiers', () => {
    expect(compileGuard("answers['odd-key'] == 'x'", OPTS).ok).toBe(true);
    expect(only("answers['odd_key'] == 'x'")).toMatchObject({ code: 'unknown_answer_key', column: 9 });
  });

  it('rejects value outside validate and accepts it inside', () => {
    expect(only('value == 1')).toMatchObject({ code: 'value_outside_validate', column: 1, length: 5 });
    const r = compileGuard('len(value) >= 3', { answers: KEYS, allowValue: true, valueType: { type: 'text' } });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.guard.usesValue).toBe(true);
  });

  it('rejects members on names that have none', () => {
    expect(only('answers == 1')).toMatchObject({ code: 'bad_member', column: 1 });
    expect(only('context == 1')).toMatchObject({ code: 'bad_member', column: 1 });
    expect(only("answers.name.first == 'x'")).toMatchObject({ code: 'bad_member', column: 14 });
    expect(only("path.name == 'x'")).toMatchObject({ code: 'bad_member', column: 6 });
    expect(only('attempts.count > 1')).toMatchObject({ code: 'bad_member', column: 10 });
  });
});

describe('guard check: prototype access', () => {
  it.each([
    ['answers.__proto__', 9],
    ["answers['constructor']", 9],
    ['context.prototype', 9],
    ['context.a.__proto__.b', 11],
    ["context['a']['constructor']", 14],
  ])('rejects %s', (source, column) => {
    expect(only(source)).toMatchObject({ code: 'prototype_access', column });
  });
});

describe('guard check: functions', () => {
  it('rejects an unknown function and lists the builtins', () => {
    const issue = only('size(answers.tags) > 1');
    expect(issue).toMatchObject({ code: 'unknown_function', column: 1, length: 4 });
    expect(issue.message).toContain('has(), len(), lower(), matches(), today()');
  });

  it.each([
    ['has()', 'has() takes 1 argument, got 0'],
    ['has(answers.email, answers.phone)', 'has() takes 1 argument, got 2'],
    ["today('x') == 'x'", 'today() takes 0 arguments, got 1'],
    ['matches(answers.email)', 'matches() takes 2 arguments, got 1'],
    ['len(answers.name, 2) > 1', 'len() takes 1 argument, got 2'],
  ])('rejects %s with bad_arity', (source, message) => {
    expect(only(source)).toMatchObject({ code: 'bad_arity', column: 1, message });
  });

  it('still checks the arguments of a bad call', () => {
    const codes = issuesOf('nope(answers.zzz)').map((i) => i.code);
    expect(codes).toEqual(['unknown_function', 'unknown_answer_key']);
  });
});

describe('guard check: regex patterns', () => {
  it.each([
    ['backreference', "'(a)\\\\1'"],
    ['lookahead', "'foo(?=bar)'"],
    ['negative lookahead', "'(?!x)y'"],
    ['lookbehind', "'(?<=a)b'"],
    ['unbalanced group', "'(a'"],
    ['repeat count above 1000', "'a{1001}'"],
  ])('rejects a %s with bad_regex at the pattern', (_, pattern) => {
    const issue = only(`matches(answers.email, ${pattern})`);
    expect(issue).toMatchObject({ code: 'bad_regex', column: 24 });
  });

  it('requires the pattern to be a string literal', () => {
    const issue = only('matches(answers.email, answers.name)');
    expect(issue).toMatchObject({ code: 'bad_regex', column: 24 });
    expect(issue.message).toContain('string literal');
  });

  it('rejects a pattern longer than the limit', () => {
    const pattern = 'a'.repeat(GUARD_LIMITS.maxRegexLength + 1);
    expect(only(`matches(answers.name, '${pattern}')`)).toMatchObject({ code: 'literal_too_large', column: 23 });
  });

  it('accepts re2 syntax such as classes, anchors and inline flags', () => {
    expect(compileGuard("matches(answers.email, '(?i)^[a-z0-9._%+-]+@acme\\\\.com$')", OPTS).ok).toBe(true);
  });
});

describe('guard check: reporting', () => {
  it('reports every check error at once, ordered by column', () => {
    const issues = issuesOf("foo || answers.nope || bar() || value || answers.__proto__ || matches(answers.name, '(')");
    expect(issues.map((i) => [i.code, i.column])).toEqual([
      ['unknown_name', 1],
      ['unknown_answer_key', 16],
      ['unknown_function', 24],
      ['value_outside_validate', 33],
      ['prototype_access', 50],
      ['bad_regex', 85],
    ]);
    expect(issues.every((i) => i.severity === 'error')).toBe(true);
  });

  it('lists the answer keys read, sorted and unique, and what else the guard uses', () => {
    const r = compileGuard("answers.phone == 'x' || has(answers.email) || answers.phone == path || context.plan == 'pro'", OPTS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.guard.reads).toEqual(['email', 'phone']);
    expect(r.guard.usesPath).toBe(true);
    expect(r.guard.usesContext).toBe(true);
    expect(r.guard.usesValue).toBe(false);
  });

  it('keeps the source on the compiled guard and freezes it', () => {
    const r = compileGuard('answers.age >= 18', OPTS);
    if (!r.ok) throw new Error('expected ok');
    expect(r.guard.source).toBe('answers.age >= 18');
    expect(Object.isFrozen(r.guard)).toBe(true);
    expect(Object.isFrozen(r.guard.reads)).toBe(true);
  });
});

describe('guard check: type warnings', () => {
  it('warns when an enum is compared with a value that is not one of its options, naming them', () => {
    const [w, ...rest] = warnings("answers.intention == 'buy_ledd'");
    expect(rest).toEqual([]);
    expect(w).toMatchObject({ code: 'type_mismatch', severity: 'warning', column: 22 });
    expect(w!.message).toContain("'buy_ledd' is not an option of answers.intention");
    expect(w!.message).toContain('buy_led, support');
    expect(w!.message).toContain('never true');
  });

  it('says an enum != a non-option is always true', () => {
    expect(warnings("'nope' != answers.intention")[0]!.message).toContain('always true');
  });

  it('does not warn for a valid option', () => {
    expect(warnings("answers.intention == 'buy_led'")).toEqual([]);
    expect(warnings("answers.intention in ['buy_led', 'support']")).toEqual([]);
    expect(warnings("'indoor' in answers.tags")).toEqual([]);
  });

  it('warns for each non-option in an in-list and for a multi-enum membership test', () => {
    expect(warnings("answers.intention in ['buy_led', 'sales', 'x']").map((w) => w.column)).toEqual([34, 43]);
    expect(warnings("'garden' in answers.tags")[0]).toMatchObject({ code: 'type_mismatch', column: 1 });
  });

  it('warns when a number, integer or boolean answer is compared with a string', () => {
    expect(warnings("answers.age == '18'")[0]).toMatchObject({ code: 'type_mismatch', column: 16 });
    expect(warnings("answers.budget > '100'")).toHaveLength(1);
    expect(warnings("answers.consent == 'yes'")).toHaveLength(1);
  });

  it('warns when < or > involves a boolean', () => {
    expect(warnings('answers.consent < 1')[0]!.message).toContain('boolean');
    expect(warnings('answers.age > true')).toHaveLength(1);
    expect(warnings('has(answers.email) >= 1')).toHaveLength(1);
  });

  it('warns when ordering against null or a list', () => {
    expect(warnings('answers.age > null')).toHaveLength(1);
    expect(warnings("answers.name < ['a']")).toHaveLength(1);
  });

  it('does not warn for sound comparisons', () => {
    expect(warnings('answers.age >= 18 && answers.budget < 99.5')).toEqual([]);
    expect(warnings("answers.start >= '2024-01-01' && answers.start <= today()")).toEqual([]);
    expect(warnings('answers.consent == true && answers.email != null')).toEqual([]);
    expect(warnings("context.plan == 'pro' && context.seats > 3")).toEqual([]);
  });

  it('uses the declared type of value in validate expressions', () => {
    const opts: CheckOptions = { answers: KEYS, allowValue: true, valueType: { type: 'enum', options: ['a', 'b'] } };
    expect(warnings("value == 'c'", opts)[0]!.message).toContain('options: a, b');
  });
});
