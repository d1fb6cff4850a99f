import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../../server/store/json-copy.ts';

/** What the stores' copies must equal: the JSON round trip. */
const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('jsonCopy', () => {
  it('gives what a JSON round trip gives, key order and dropped values included', () => {
    const values: unknown[] = [
      { seq: 1, at: '2026-01-15T10:00:00Z', role: 'bot', text: 'Hi — 420 m²', nodeId: undefined, quickReplies: ['a', 'b'], progress: { answered: 1, total: 3 } },
      [1, undefined, () => 1, Symbol('s'), NaN, -Infinity, -0, null, 'x'],
      { 2: 'two', b: 1, 1: 'one', a: { nested: [{ deep: true, gone: undefined }] }, f: () => 1 },
      { when: new Date(Date.UTC(2026, 0, 15)), map: new Map([[1, 2]]), set: new Set([1]), boxed: new String('s') },
      { custom: { toJSON: () => ({ as: 'json' }) } },
      Object.assign(Object.create(null) as object, { bare: 1 }),
      'text', 42, true, null,
    ];
    for (const v of values) expect(JSON.stringify(jsonCopy(v))).toBe(JSON.stringify(roundTrip(v)));
    for (const v of values) expect(jsonCopy(v)).toStrictEqual(roundTrip(v));
  });

  it('copies: changing the copy leaves the original as it was', () => {
    const original = { list: [{ a: 1 }], inner: { b: 2 } };
    const copied = jsonCopy(original);
    copied.list[0]!.a = 9;
    copied.inner.b = 9;
    expect(original).toEqual({ list: [{ a: 1 }], inner: { b: 2 } });
  });

  it('keeps a key named __proto__ an own property, as JSON.parse does', () => {
    const v = JSON.parse('{"__proto__":{"x":1},"y":2}') as Record<string, unknown>;
    const copied = jsonCopy(v);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(['__proto__', 'y']);
    expect(JSON.stringify(copied)).toBe(JSON.stringify(v));
  });

  it('throws where the round trip throws or has nothing to give', () => {
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
    expect(() => jsonCopy(undefined)).toThrow(TypeError);
  });
});
