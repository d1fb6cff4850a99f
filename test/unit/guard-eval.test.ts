import { afterEach, describe, expect, it } from 'vitest';
import { compileGuard, type AnswerKeyInfo, type CheckOptions, type CompiledGuard, type EvalScope } from '../../server/flow/guard/index.ts';

const KEYS = new Map<string, AnswerKeyInfo>([
  ['product', { type: 'enum', options: ['led', 'halogen'] }],
  ['venue', { type: 'text' }],
  ['tags', { type: 'enum', options: ['a', 'b', 'c'], multiple: true }],
  ['age', { type: 'integer' }],
  ['consent', { type: 'boolean' }],
  ['email', { type: 'email' }],
  ['phone', { type: 'phone' }],
  ['name', { type: 'text' }],
  ['start', { type: 'date' }],
  ['x', { type: 'text' }],
  ['y', { type: 'text' }],
]);

function guard(source: string, options: Partial<CheckOptions> = {}): CompiledGuard {
  const r = compileGuard(source, { answers: KEYS, ...options });
  if (!r.ok) throw new Error(`${source}: ${JSON.stringify(r.issues)}`);
  return r.guard;
}

function ev(source: string, answers: Record<string, unknown>, extra: Partial<EvalScope> = {}): unknown {
  return guard(source, { allowValue: true }).evaluate({ answers, ...extra });
}

function t(source: string, answers: Record<string, unknown>, extra: Partial<EvalScope> = {}): boolean {
  return guard(source, { allowValue: true }).test({ answers, ...extra });
}

describe('guard evaluation: reads', () => {
  it('reads a missing answer as null, never an error', () => {
    expect(ev('answers.email', {})).toBeNull();
    expect(t('answers.email == null', {})).toBe(true);
    expect(t("answers.email == 'a@b.c'", {})).toBe(false);
    expect(t("answers.email != 'a@b.c'", {})).toBe(true);
  });

  it('reads present answers, including bracketed keys', () => {
    expect(ev("answers['venue']", { venue: 'court' })).toBe('court');
    expect(ev('answers.tags', { tags: ['a', 'b'] })).toEqual(['a', 'b']);
  });

  it('treats an answer stored as undefined as null', () => {
    expect(ev('answers.email', { email: undefined })).toBeNull();
    expect(t('answers.email == null', { email: undefined })).toBe(true);
  });

  it('reads nested context members and gives null for anything missing', () => {
    const context = { tenant: { plan: 'pro', limits: { seats: 5 } } };
    expect(ev('context.tenant.plan', {}, { context })).toBe('pro');
    expect(t('context.tenant.limits.seats >= 5', {}, { context })).toBe(true);
    expect(ev('context.tenant.nope.deeper', {}, { context })).toBeNull();
    expect(ev('context.tenant', {}, {})).toBeNull();
  });

  it('does not read properties of context strings or lists', () => {
    const context = { name: 'acme', list: [1, 2] };
    expect(ev('context.name.length', {}, { context })).toBeNull();
    expect(ev('context.list.length', {}, { context })).toBeNull();
  });

  it('never invokes accessors on context', () => {
    let calls = 0;
    const context = Object.defineProperty({}, 'secret', { get: () => { calls++; return 'x'; }, enumerable: true });
    expect(ev('context.secret', {}, { context })).toBeNull();
    expect(calls).toBe(0);
  });

  it('reads path, attempts and value from the scope with safe defaults', () => {
    expect(ev('path', {})).toBeNull();
    expect(ev('path', {}, { path: 'buy_led' })).toBe('buy_led');
    expect(t("path == 'buy_led'", {}, { path: null })).toBe(false);
    expect(ev('attempts', {})).toBe(0);
    expect(t('attempts >= 2', {}, { attempts: 2 })).toBe(true);
    expect(ev('value', {})).toBeNull();
    expect(ev('value', {}, { value: 'hi' })).toBe('hi');
  });
});

describe('guard evaluation: own properties only', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).email;
  });

  it('ignores keys that only exist on the prototype of the answers object', () => {
    const answers = Object.create({ email: 'inherited@x.y', age: 40, product: 'led', tags: ['a'] }) as Record<string, unknown>;
    expect(ev('answers.email', answers)).toBeNull();
    expect(t('has(answers.email)', answers)).toBe(false);
    expect(t("answers.email == 'inherited@x.y'", answers)).toBe(false);
    expect(t('answers.age > 18', answers)).toBe(false);
    expect(t("answers.product in ['led']", answers)).toBe(false);
    expect(t('answers.email', answers)).toBe(false);
    expect(t("'a' in answers.tags", answers)).toBe(false);
    expect(t('answers.email == null', answers)).toBe(true);
  });

  it('ignores a polluted Object.prototype', () => {
    (Object.prototype as Record<string, unknown>).email = 'polluted';
    expect(ev('answers.email', {})).toBeNull();
    expect(t('has(answers.email)', {})).toBe(false);
    expect(t("answers.email == 'polluted'", {})).toBe(false);
    expect(ev('context.email', {}, { context: {} })).toBeNull();
  });

  it('sees own keys of objects without a prototype', () => {
    const answers = Object.assign(Object.create(null) as Record<string, unknown>, { email: 'a@b.c' });
    expect(t('has(answers.email)', answers)).toBe(true);
  });
});

describe('guard evaluation: operators', () => {
  it('compares with strict JSON equality, deep for lists', () => {
    expect(t('answers.age == 18', { age: 18 })).toBe(true);
    expect(t("answers.venue == '18'", { venue: 18 })).toBe(false);
    expect(t('answers.consent == true', { consent: 1 })).toBe(false);
    expect(t("answers.tags == ['a', 'b']", { tags: ['a', 'b'] })).toBe(true);
    expect(t("answers.tags == ['b', 'a']", { tags: ['a', 'b'] })).toBe(false);
    expect(t("answers.tags != ['a']", { tags: ['a', 'b'] })).toBe(true);
    expect(t('answers.x == answers.y', { x: ['q', [1]], y: ['q', [1]] })).toBe(true);
    expect(t('answers.x == answers.y', {})).toBe(true);
    expect(t('[1, [2]] == [1, [2]]', {})).toBe(true);
    expect(t('-1 == -1.0', {})).toBe(true);
  });

  it('orders two numbers or two strings and nothing else', () => {
    expect(t('answers.age >= 18', { age: 18 })).toBe(true);
    expect(t('answers.age < 18', { age: 17.5 })).toBe(true);
    expect(t('answers.age > 18', { age: '19' })).toBe(false);
    expect(t('answers.age <= 18', {})).toBe(false);
    expect(t('answers.age <= 18', { age: null })).toBe(false);
    expect(t("answers.start >= '2024-01-01'", { start: '2024-03-05' })).toBe(true);
    expect(t("answers.start < '2024-01-01'", { start: '2024-03-05' })).toBe(false);
    expect(t('answers.x < answers.y', { x: 'a', y: 'b' })).toBe(true);
    expect(t('answers.x < answers.y', { x: 1, y: 'b' })).toBe(false);
    expect(t('18 <= answers.age', { age: 20 })).toBe(true);
    expect(t('18 > answers.age', { age: 20 })).toBe(false);
  });

  it('tests list membership by equality and substrings of strings', () => {
    expect(t("answers.venue in ['court', 'arena']", { venue: 'arena' })).toBe(true);
    expect(t("answers.venue in ['court', 'arena']", { venue: 'field' })).toBe(false);
    expect(t("answers.venue in ['court', 'arena']", {})).toBe(false);
    expect(t('answers.venue in [null]', {})).toBe(true);
    expect(t('answers.age in [1, 2]', { age: '1' })).toBe(false);
    expect(t("answers.tags in [['a'], ['b']]", { tags: ['b'] })).toBe(true);
    expect(t("'b' in answers.tags", { tags: ['a', 'b'] })).toBe(true);
    expect(t("'z' in answers.tags", { tags: ['a', 'b'] })).toBe(false);
    expect(t("'ell' in 'hello'", {})).toBe(true);
    expect(t("answers.x in 'hello'", { x: 'lo' })).toBe(true);
    expect(t("answers.x in 'hello'", { x: 1 })).toBe(false);
    expect(t('answers.x in answers.y', { x: 'a', y: 'cat' })).toBe(true);
    expect(t('answers.x in answers.y', { x: 'a', y: 5 })).toBe(false);
    expect(t('answers.x in answers.y', { x: 'a', y: ['a'] })).toBe(true);
  });

  it('tests membership the same way for short and long literal lists', () => {
    for (const size of [1, 2, 4, 5, 40]) {
      const items = Array.from({ length: size }, (_, i) => `v${i}`);
      const src = `answers.venue in [${items.map((v) => `'${v}'`).join(', ')}]`;
      expect(t(src, { venue: `v${size - 1}` }), src).toBe(true);
      expect(t(src, { venue: 'v0' }), src).toBe(true);
      expect(t(src, { venue: 'other' }), src).toBe(false);
      expect(t(src, {}), src).toBe(false);
      expect(t(src, { venue: ['v0'] }), src).toBe(false);
    }
    expect(t("answers.venue in ['a', null]", {})).toBe(true);
    expect(t('answers.age in [0, 1, 1, 2, 3, 5]', { age: 0 })).toBe(true);
    expect(t('answers.age in [0, 1, 1, 2, 3, 5]', { age: 4 })).toBe(false);
  });

  it('returns booleans from && and || and short-circuits on truthiness', () => {
    expect(ev("answers.name || 'fallback'", { name: 'Ann' })).toBe(true);
    expect(ev('answers.name && answers.age', { name: 'Ann', age: 0 })).toBe(false);
    expect(ev('answers.x or answers.y', {})).toBe(false);
    const reads: string[] = [];
    const answers = new Proxy({ x: 'a', y: 'b' } as Record<string, unknown>, {
      get(target, key) {
        reads.push(String(key));
        return target[key as string];
      },
    });
    expect(t("answers.x == 'a' || answers.y == 'b'", answers)).toBe(true);
    expect(reads).toEqual(['x']);
    reads.length = 0;
    expect(t("answers.x == 'zz' && answers.y == 'b'", answers)).toBe(false);
    expect(reads).toEqual(['x']);
  });

  it('treats null, false, 0, empty string and empty list as falsy', () => {
    for (const falsy of [null, false, 0, '', []]) {
      expect(t('answers.x', { x: falsy })).toBe(false);
      expect(t('!answers.x', { x: falsy })).toBe(true);
    }
    for (const truthy of [true, 1, -1, 'a', ['a'], {}]) {
      expect(t('answers.x', { x: truthy })).toBe(true);
      expect(ev('not answers.x', { x: truthy })).toBe(false);
    }
    expect(t('answers.x', {})).toBe(false);
  });

  it('evaluates longer and/or chains and nested negation', () => {
    const src = "answers.x == 'a' and answers.y == 'b' and answers.age > 1 and has(answers.email)";
    expect(t(src, { x: 'a', y: 'b', age: 2, email: 'e' })).toBe(true);
    expect(t(src, { x: 'a', y: 'b', age: 2, email: '' })).toBe(false);
    const any = "answers.x == 'a' or answers.y == 'b' or answers.age > 1 or has(answers.email)";
    expect(t(any, { email: 'e' })).toBe(true);
    expect(t(any, {})).toBe(false);
    expect(t('not not answers.x', { x: 'a' })).toBe(true);
  });

  it('evaluates literal lists to a frozen constant', () => {
    const list = ev("['a', ['b']]", {}) as unknown[];
    expect(list).toEqual(['a', ['b']]);
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen(list[1])).toBe(true);
    expect(ev('[answers.x, 1]', { x: 'q' })).toEqual(['q', 1]);
  });
});

describe('guard evaluation: functions', () => {
  it('has() is false for missing, null, empty string and empty list; true for 0 and false', () => {
    expect(t('has(answers.x)', {})).toBe(false);
    expect(t('has(answers.x)', { x: null })).toBe(false);
    expect(t('has(answers.x)', { x: '' })).toBe(false);
    expect(t('has(answers.x)', { x: [] })).toBe(false);
    expect(t('has(answers.x)', { x: 0 })).toBe(true);
    expect(t('has(answers.x)', { x: false })).toBe(true);
    expect(t('has(answers.x)', { x: 'a' })).toBe(true);
    expect(t('has(answers.x)', { x: ['a'] })).toBe(true);
    expect(t('has(context.a.b)', {}, { context: { a: { b: 0 } } })).toBe(true);
    expect(t('has(lower(answers.x))', { x: 5 })).toBe(false);
  });

  it('len() counts string code points and list items, and is 0 otherwise', () => {
    expect(ev('len(answers.x)', { x: 'héllo' })).toBe(5);
    expect(ev('len(answers.x)', { x: 'a😀b' })).toBe(3);
    expect(ev('len(answers.x)', { x: ['a', 'b'] })).toBe(2);
    expect(ev('len(answers.x)', {})).toBe(0);
    expect(ev('len(answers.x)', { x: 42 })).toBe(0);
    expect(t('len(value) >= 3', {}, { value: 'abc' })).toBe(true);
  });

  it('lower() lowercases strings and gives null for anything else', () => {
    expect(ev('lower(answers.x)', { x: 'HeLLo' })).toBe('hello');
    expect(t("lower(answers.x) == 'yes'", { x: 'YES' })).toBe(true);
    expect(ev('lower(answers.x)', { x: 1 })).toBeNull();
    expect(ev('lower(answers.x)', {})).toBeNull();
  });

  it('matches() searches like RegExp#test and is false for non-strings', () => {
    expect(t("matches(answers.email, '@acme\\\\.com$')", { email: 'bob@acme.com' })).toBe(true);
    expect(t("matches(answers.email, '@acme\\\\.com$')", { email: 'bob@acme.company' })).toBe(false);
    expect(t("matches(answers.x, 'b')", { x: 'abc' })).toBe(true);
    expect(t("matches(answers.x, '^b')", { x: 'abc' })).toBe(false);
    expect(t("matches(answers.x, '(?i)^ABC$')", { x: 'abc' })).toBe(true);
    expect(t("matches(answers.x, '.*')", { x: 5 })).toBe(false);
    expect(t("matches(answers.x, '.*')", {})).toBe(false);
  });

  it('today() returns the injected date and never reads the clock', () => {
    expect(ev('today()', {}, { today: '2026-01-15' })).toBe('2026-01-15');
    expect(ev('today()', {})).toBeNull();
    expect(t('answers.start >= today()', { start: '2026-02-01' }, { today: '2026-01-15' })).toBe(true);
    expect(t('answers.start >= today()', { start: '2025-12-31' }, { today: '2026-01-15' })).toBe(false);
  });
});
