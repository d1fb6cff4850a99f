// What would cost time when a module loads (zod schemas above all: building
// them was most of `import('questline')`, bench/import.ts) is built on first
// use instead. A schema `X = lazy(() => z.object(…))` is used as `X()`; its
// type is `z.infer<ReturnType<typeof X>>`, exactly the built schema's.

/** A value built by `build` on the first call, then the same value on every call. */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
