import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../server/shared/deep-freeze.ts';

describe('deepFreeze', () => {
  it('freezes every object and array inside a value, however deep, also one reached twice', () => {
    const shared = { n: 1 };
    const value = { a: [{ b: { c: [shared, shared] } }], d: shared, e: 'text', f: null, g: 3 };
    expect(deepFreeze(value)).toBe(value);
    for (const part of [value, value.a, value.a[0], value.a[0]!.b, value.a[0]!.b.c, shared]) expect(Object.isFrozen(part)).toBe(true);
    expect(() => { (value.a[0]!.b.c[1] as { n: number }).n = 2; }).toThrow(TypeError);
  });

  it('freezes the new parts of a value built from a frozen one, and leaves the shared parts as they are', () => {
    const before = deepFreeze({ answers: { a: { value: 1 } }, list: [{ i: 1 }] });
    const after = { ...before, answers: { ...before.answers, b: { value: 2, nested: [{ deep: true }] } }, list: [...before.list, { i: 2 }] };
    deepFreeze(after);
    expect(after.answers.a).toBe(before.answers.a);
    for (const part of [after, after.answers, after.answers.b, after.answers.b.nested, after.answers.b.nested[0], after.list, after.list[1]]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
  });

  it('returns primitives and frozen values as they are', () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
    const frozen = Object.freeze({ inner: { x: 1 } }); // frozen by someone else, not deeply: not walked
    expect(deepFreeze(frozen)).toBe(frozen);
  });
});
