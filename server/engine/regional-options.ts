import type { OpenQuestion } from './input.ts';

// Option synonyms by region: a flow may give `synonyms: { en: [...], "en-US": [...] }`; the compiler keeps the
// regional lists beside the locale's own (`regional_synonyms: { US: [...] }`, server/flow/project.ts) and each
// extraction request reads the one of the session's region ("football" is soccer in en-GB, American football in
// en-US). A regional list replaces the locale's list for that region; other regions use the locale's list.

type Regional = { regional_synonyms?: Record<string, string[]> };

const cache = new WeakMap<OpenQuestion, Map<string, OpenQuestion>>();

/** `q` with each enum option's synonyms those of `region` (an ISO 3166 code), and the regional lists dropped. */
export function regionalQuestion(q: OpenQuestion, region: string): OpenQuestion {
  const a = q.answer;
  if (a.type !== 'enum' || !a.options.some((o) => typeof o !== 'string' && (o as Regional).regional_synonyms)) return q;
  let byRegion = cache.get(q);
  if (!byRegion) cache.set(q, (byRegion = new Map()));
  const hit = byRegion.get(region);
  if (hit) return hit;
  const options = a.options.map((o) => {
    if (typeof o === 'string' || !(o as Regional).regional_synonyms) return o;
    const { regional_synonyms: lists, ...plain } = o as typeof o & Regional;
    const own = lists?.[region];
    return own ? { ...plain, synonyms: own } : plain;
  });
  const out = Object.freeze({ ...q, answer: { ...a, options } });
  byRegion.set(region, out);
  return out;
}
