/** deepFreeze's work list, shared by every call (see there). */
const work: object[] = [];

/**
 * Freezes a JSON value and everything in it, so a value handed out many
 * times (shared, not copied) cannot be changed by a reader: an assignment
 * throws (ES modules are strict) instead of silently changing what every
 * later reader sees. Iterative, so depth costs no stack. A part already
 * frozen is not walked (everything in it was frozen with it): a record saved
 * after a turn shares most of its parts with the one before, so only the new
 * ones are visited.
 */
export function deepFreeze<T>(value: T): T {
  if (!thawed(value)) return value;
  // one work list for every call (the walk is synchronous, so calls never overlap): a record saved per turn
  // otherwise grew a new list each time; it is left empty, holding nothing
  const todo = work;
  todo.push(value);
  try {
    while (todo.length > 0) {
      const v = todo.pop()!;
      if (Object.isFrozen(v)) continue; // reached twice in this walk
      // children first, then the freeze: on Node 20 reading a frozen array item by item is several times slower
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const x: unknown = v[i];
          if (thawed(x)) todo.push(x);
        }
      } else {
        for (const k in v) {
          const x = (v as Record<string, unknown>)[k];
          if (thawed(x)) todo.push(x);
        }
      }
      Object.freeze(v);
    }
  } finally {
    todo.length = 0; // after a throw (a getter), nothing of this walk is left for the next
  }
  return value;
}

/** An object or array not frozen yet. */
const thawed = (v: unknown): v is object => v !== null && typeof v === 'object' && !Object.isFrozen(v);
