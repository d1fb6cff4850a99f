import type { DocPath } from './load.ts';
import type { FlowSource, FlowV1 } from './schema.ts';

// Projects a flow as written (texts may be maps by locale) to one locale, so
// every later pass and the engine read plain strings. The places a text may
// be a map are listed here, not guessed: `routes.cases` or `ui` may well have
// keys that look like locales.

/** A text that had no entry for the locale it was projected to. */
export interface MissingText { path: DocPath; locale: string; used?: string }

/** A text given for a locale the flow does not declare. */
export interface StrayLocale { path: DocPath; locale: string }

export interface Projection {
  flow: FlowV1;
  missing: MissingText[];
  stray: StrayLocale[];
  /** Paths of texts given by locale (for a flow without `locales`, each is a mistake). */
  maps: DocPath[];
}

type Obj = Record<string, unknown>;
const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The texts of one node, relative to it. */
const NODE_TEXTS = ['say', 'say_offline', 'label', 'prompt', 'invalid_prompt', 'confirm_prompt'];

/**
 * `flow` projected to `locale`: a map gives its `locale` entry, else the
 * `fallback` locale's (reported as missing), else its first entry. Lists of
 * texts may hold maps too (prompt variants). Returns a copy; `flow` is kept.
 */
export function projectFlow(flow: FlowSource, locale: string, fallback: string, declared: readonly string[]): Projection {
  const out = structuredClone(flow) as unknown as Obj;
  const missing: MissingText[] = [];
  const stray: StrayLocale[] = [];
  const maps: DocPath[] = [];
  const pick = (value: unknown, path: DocPath, regional = false): unknown => {
    if (isMap(value)) {
      maps.push(path);
      for (const k of Object.keys(value).sort()) if (!declared.includes(k) && !(regional && isRegional(k, declared))) stray.push({ path: [...path, k], locale: k });
      if (Object.hasOwn(value, locale)) return pick(value[locale], path);
      const used = Object.hasOwn(value, fallback) ? fallback : Object.keys(value).sort()[0];
      missing.push({ path, locale, ...(used !== undefined ? { used } : {}) });
      return used === undefined ? undefined : pick(value[used], path);
    }
    return Array.isArray(value) ? value.map((v, i) => pick(v, [...path, i])) : value;
  };
  const at = (o: Obj | undefined, key: string, path: DocPath) => {
    if (o && o[key] !== undefined) o[key] = pick(o[key], [...path, key]);
  };
  const node = (n: Obj, path: DocPath) => {
    for (const k of NODE_TEXTS) at(n, k, path);
    if (Array.isArray(n.validate)) n.validate.forEach((r, i) => { if (isMap(r)) at(r, 'message', [...path, 'validate', i]); });
    if (isMap(n.derive)) at(n.derive, 'message', [...path, 'derive']);
    const answer = isMap(n.answer) ? n.answer : undefined;
    if (answer && Array.isArray(answer.options)) {
      answer.options.forEach((o, i) => {
        if (!isMap(o)) return;
        at(o, 'label', [...path, 'answer', 'options', i]);
        // regional lists ("en-GB": [...]) are kept beside the locale's own, for the engine to pick by the session's region
        const regions = isMap(o.synonyms) ? regionalLists(o.synonyms, locale) : undefined;
        if (o.synonyms !== undefined) o.synonyms = pick(o.synonyms, [...path, 'answer', 'options', i, 'synonyms'], true);
        if (regions) o.regional_synonyms = regions;
      });
    }
    if (answer && isMap(answer.synonyms)) for (const k of ['true', 'false']) at(answer.synonyms, k, [...path, 'answer', 'synonyms']);
    if (isMap(n.assess)) at(n.assess, 'must_mention', [...path, 'assess']);
  };
  if (Array.isArray(out.nodes)) out.nodes.forEach((n, i) => isMap(n) && node(n, ['nodes', i]));
  if (isMap(out.subgraphs)) {
    for (const [name, sg] of Object.entries(out.subgraphs)) {
      if (isMap(sg) && Array.isArray(sg.nodes)) sg.nodes.forEach((n, i) => isMap(n) && node(n, ['subgraphs', name, 'nodes', i]));
    }
  }
  const paths = isMap(out.paths) ? out.paths : undefined;
  at(paths, 'prompt', ['paths']);
  if (paths && isMap(paths.options)) {
    for (const [name, o] of Object.entries(paths.options)) {
      if (isMap(o)) for (const k of ['label', 'description', 'examples']) at(o, k, ['paths', 'options', name]);
    }
  }
  if (Array.isArray(out.triggers)) {
    out.triggers.forEach((t, i) => {
      if (!isMap(t)) return;
      for (const k of ['phrases', 'examples', 'unless', 'figurative']) at(t, k, ['triggers', i]);
      if (isMap(t.words)) for (const k of Object.keys(t.words)) at(t.words, k, ['triggers', i, 'words']);
    });
  }
  if (isMap(out.commands)) for (const k of Object.keys(out.commands)) at(out.commands, k, ['commands']);
  if (Array.isArray(out.constraints)) out.constraints.forEach((c, i) => { if (isMap(c)) at(c, 'message', ['constraints', i]); });
  return { flow: out as unknown as FlowV1, missing, stray, maps };
}

/** `en-GB` where `en` is declared: a regional variant of a declared locale. */
function isRegional(key: string, declared: readonly string[]): boolean {
  const m = /^([a-z]{2,3})-([A-Za-z]{2})$/.exec(key);
  return m !== null && declared.includes(m[1]!);
}

/** The `<locale>-<REGION>` lists of a map by locale, by upper-case region (`{ GB: [...] }`); undefined when none. */
function regionalLists(map: Obj, locale: string): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(map)) {
    const m = /^([a-z]{2,3})-([A-Za-z]{2})$/.exec(k);
    if (m && m[1] === locale && Array.isArray(v)) out[m[2]!.toUpperCase()] = v.filter((x): x is string => typeof x === 'string');
  }
  return Object.keys(out).length ? out : undefined;
}
