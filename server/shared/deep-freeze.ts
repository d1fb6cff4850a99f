/**
 * Freezes a JSON value and everything in it, so a value handed out many
 * times (shared, not copied) cannot be changed by a reader: an assignment
 * throws (ES modules are strict) instead of silently changing what every
 * later reader sees. Iterative, so depth costs no stack.
 */
export function deepFreeze<T>(value: T): T {
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const v = todo.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    if (Array.isArray(v)) for (const x of v) todo.push(x);
    else for (const k in v) todo.push((v as Record<string, unknown>)[k]);
  }
  return value;
}
