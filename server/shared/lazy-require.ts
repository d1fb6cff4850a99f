import { createRequire } from 'node:module';

// Heavy packages the recognisers need (chrono-node's date parsers,
// libphonenumber-js, js-quantities) are loaded the first time a message
// needs them, not when `questline` is imported: a synchronous require of
// their CommonJS build, so the pure, synchronous parsers stay synchronous.
// Importing them eagerly cost about 0.6 s of `import('questline')` (bench/import.ts).

const require = createRequire(import.meta.url);

/** A CommonJS package (or subpath) loaded on first call, then kept. */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
