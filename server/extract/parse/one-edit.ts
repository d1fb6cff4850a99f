import { lazyRequire } from '../../shared/lazy-require.ts';

/** damerau-levenshtein (CommonJS), loaded on the first words compared, not by `import('questline')`. */
const levenshtein = lazyRequire<typeof import('damerau-levenshtein')>('damerau-levenshtein');

/** Whether two strings are one typing slip apart: a letter added, dropped or changed, or two neighbours swapped. */
export function oneEdit(a: string, b: string): boolean {
  return levenshtein()(a, b).steps === 1;
}
