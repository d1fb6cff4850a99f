import { describe, expect, it } from 'vitest';
import { applyObjectPatch, objectPatch } from '../../server/store/record-delta.ts';

type Obj = Record<string, unknown>;
/** What a JSON line of the value reads back as. */
const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as Obj;
/** The patch written as its line and read back, folded onto the old record as read from its own line. */
const roundTrip = (before: Obj, after: Obj) => applyObjectPatch(json(before), json(objectPatch(before, after)));

describe('record deltas', () => {
  const shared = { scores: { a: 0.5 }, locked: false };
  const checkpoints = [{ turn: 1 }, { turn: 2 }, { turn: 3 }];
  const before: Obj = {
    id: 's-1', version: 4, processed: [{ clientId: 'c1', seq: 1 }], operator: undefined,
    session: { path: shared, answers: { b: { value: 2 }, d: { value: 4 } }, checkpoints, recent: ['x', 'y', 'z'], context: { locale: 'en' } },
  };

  it('folds to the JSON of the new record: changed values, added and removed keys in order, grown and sliding arrays', () => {
    const s = before.session as Obj;
    const after: Obj = {
      id: 's-1', version: 5, processed: [...(before.processed as unknown[]), { clientId: 'c2', seq: 3 }], operator: { since: 'now' },
      session: {
        path: shared, answers: { a: { value: 1 }, b: (s.answers as Obj).b, c: { value: 3 } }, checkpoints: [...checkpoints.slice(1), { turn: 4 }],
        recent: ['z', 'w'], context: { locale: 'en' }, added: undefined, status: 'done',
      },
    };
    const folded = roundTrip(before, after);
    expect(JSON.stringify(folded)).toBe(JSON.stringify(after)); // same keys, same order
  });

  it('writes only what changed: unchanged parts (the same objects, or equal empty ones) are not in the patch', () => {
    const s = before.session as Obj;
    const after: Obj = { ...before, version: 5, session: { ...s, answers: { ...(s.answers as Obj), e: { value: 5 } }, context: { locale: 'en' } } };
    const patch = objectPatch(before, after);
    expect(patch).toEqual({ s: { version: 5 }, p: { session: { p: { answers: { k: ['b', 'd', 'e'], s: { e: { value: 5 } } } } } } });
    expect(JSON.stringify(roundTrip(before, after))).toBe(JSON.stringify(after));
  });

  it('drops a key whose value became undefined, as a record line would', () => {
    const after: Obj = { ...before, id: undefined };
    expect(roundTrip(before, after)).not.toHaveProperty('id');
    expect(JSON.stringify(roundTrip(before, after))).toBe(JSON.stringify(after));
  });

  it('keeps a key named __proto__ an own property, as JSON.parse does', () => {
    const b = JSON.parse('{"answers":{"__proto__":{"value":1},"x":{"value":2}}}') as Obj;
    const a = JSON.parse('{"answers":{"__proto__":{"value":9},"x":{"value":2}}}') as Obj;
    const folded = roundTrip(b, a);
    expect(JSON.stringify(folded)).toBe(JSON.stringify(a));
    expect(Object.getPrototypeOf(folded.answers)).toBe(Object.prototype);
  });

  it('patches a long sliding window of a frozen list by what it dropped and added, and writes a changed one whole', () => {
    const items = Array.from({ length: 64 }, (_, i) => Object.freeze({ clientId: `c${i}`, seq: i }));
    const was = Object.freeze({ processed: Object.freeze(items.slice()) });
    const added = { clientId: 'c64', seq: 64 };
    const slid = { processed: [...was.processed, added].slice(-64) };
    expect(objectPatch(was, slid)).toEqual({ p: { processed: { x: 1, a: [added] } } });
    expect(JSON.stringify(roundTrip(was, slid))).toBe(JSON.stringify(slid));
    const changed = { processed: slid.processed.map((e, i) => (i === 40 ? { ...e } : e)) }; // equal, but another object in the middle
    expect(objectPatch(was, changed)).toEqual({ s: { processed: changed.processed } });
  });

  it('refuses a patch that does not fit the record', () => {
    expect(() => applyObjectPatch({ a: 1 }, { p: { a: { x: 0, a: [] } } })).toThrow(/does not fit/);
    expect(() => applyObjectPatch({ a: 1 }, { k: ['a', 'b'] })).toThrow(/no value for b/);
  });
});
