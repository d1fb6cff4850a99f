import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerMap, answerSlots, emptyAnswers } from '../../server/engine/answer-map.ts';

// The session's answer map (server/engine/answer-map.ts) against a plain Map
// as the model: random sets and deletes over keys with and without a slot,
// tries of one to three levels; every older version must stay as it was.

const slotted = Array.from({ length: 300 }, (_, i) => `k${i}`);
const key = fc.oneof(fc.constantFrom(...slotted), fc.constantFrom('x', 'y', 'z', '__proto__'));
const op = fc.tuple(fc.boolean(), key, fc.nat(99));

describe('AnswerMap', () => {
  it('reads, sizes and iterates like a Map after any sets and deletes, and never changes an older version', () => {
    fc.assert(fc.property(fc.constantFrom(1, 16, 17, 256, 300), fc.array(op, { maxLength: 120 }), (width, ops) => {
      const slots = answerSlots(slotted.slice(0, width));
      let m = emptyAnswers<number>(slots);
      const model = new Map<string, number>();
      const versions: Array<[AnswerMap<number>, Map<string, number>]> = [];
      for (const [del, k, v] of ops) {
        versions.push([m, new Map(model)]);
        if (del) { m = m.delete(k); model.delete(k); } else { m = m.set(k, v); model.set(k, v); }
        expect(m.size).toBe(model.size);
        expect(m.get(k)).toBe(model.get(k));
        expect(m.has(k)).toBe(model.has(k));
      }
      for (const [old, was] of [...versions, [m, model] as const]) {
        expect(old.size).toBe(was.size);
        // slot order first, then the keys without a slot in the order they came
        const inSlots = [...was.keys()].filter((k) => slots.slotOf.has(k)).sort((a, b) => slots.slotOf.get(a)! - slots.slotOf.get(b)!);
        const rest = [...was.keys()].filter((k) => !slots.slotOf.has(k));
        expect([...old.keys()]).toEqual([...inSlots, ...rest]);
        expect(new Map(old)).toEqual(was);
        expect([...old.values()]).toEqual([...old.keys()].map((k) => was.get(k)));
      }
    }));
  });

  it('moves its entries to other slots without changing them', () => {
    const m = AnswerMap.of<number>([['b', 2], ['a', 1], ['c', 3]]);
    expect([...m.keys()]).toEqual(['b', 'a', 'c']);
    const moved = m.withSlots(answerSlots(['c', 'a']));
    expect([...moved]).toEqual([['c', 3], ['a', 1], ['b', 2]]);
    expect(moved.withSlots(moved.slots)).toBe(moved);
    expect(m.set('a', 1, m.slots.slotOf.get('a')).get('a')).toBe(1);
  });
});
