import type { CompiledFlow } from '../flow/compiled-flow.ts';
import { baseLanguage as base } from '../language/registry.ts';
import type { Session } from './session.ts';

// A session's language (flow-ir.md "Locales"): chosen at start from what the
// visitor's side asks for, matched against the flow's `locales`, and
// switchable by the visitor. Each locale has its own compile of the flow
// (same revision, same node ids), so switching keeps answers and place.

/**
 * The flow's locale that best fits `wanted` (most preferred first): an exact
 * tag, else the same base language (`de-AT` → `de`, `de` → `de-CH`), else
 * the flow's default. Undefined for a flow without `locales`.
 */
export function matchLocale(flow: CompiledFlow, wanted: string | readonly string[] | undefined): string | undefined {
  const i18n = flow.i18n;
  if (!i18n) return undefined;
  const list = (typeof wanted === 'string' ? [wanted] : wanted ?? []).map((w) => w.trim().toLowerCase()).filter((w) => w && w !== '*');
  const have = i18n.locales.map((l) => [l, l.toLowerCase()] as const);
  for (const w of list) {
    const exact = have.find(([, l]) => l === w) ?? have.find(([, l]) => l === base(w)) ?? have.find(([, l]) => base(l) === base(w));
    if (exact) return exact[0];
  }
  return i18n.defaultLocale;
}

/**
 * The region of the visitor's first language tag in `locale`'s language (`en-GB` → GB, `de_AT` → AT), else of
 * their first tag with a region; undefined when none names one.
 */
export function regionOf(wanted: string | readonly string[] | undefined, locale: string): string | undefined {
  const tags = (typeof wanted === 'string' ? [wanted] : wanted ?? []).map((w) => /^([a-z]{2,3})[-_](?:[a-z]{4}[-_])?([a-z]{2})$/i.exec(w.trim()));
  const same = tags.find((m) => m && m[1]!.toLowerCase() === base(locale));
  const any = same ?? tags.find((m) => m);
  return any ? any[2]!.toUpperCase() : undefined;
}

/** The flow's compile in `locale` (matched as by `matchLocale`); the flow itself when it has no `locales`. */
export function flowFor(flow: CompiledFlow, locale: string | readonly string[] | undefined): CompiledFlow {
  const match = matchLocale(flow, locale);
  return match === undefined ? flow : flow.i18n!.byLocale.get(match) ?? flow;
}

/** Per flow, the compile each locale tag a session stored is spoken in (a turn asks for it every time). */
const spoken = new WeakMap<CompiledFlow, Map<string, CompiledFlow>>();

/** The flow a session speaks: its locale's compile, else the default one. */
export function sessionFlow(flow: CompiledFlow, session: Pick<Session, 'locale'>): CompiledFlow {
  if (!flow.i18n) return flow;
  const tag = session.locale ?? flow.i18n.defaultLocale;
  let byTag = spoken.get(flow);
  if (!byTag) spoken.set(flow, (byTag = new Map()));
  let out = byTag.get(tag);
  if (!out) byTag.set(tag, (out = flowFor(flow, tag)));
  return out;
}

const normal = (text: string) => text.trim().toLowerCase().replace(/[.!?¡¿]+/g, '').replace(/\s+/g, ' ').trim();

/**
 * The locale a message asks to switch to ("Deutsch", "en français",
 * "language german"): the whole message is one of a declared locale's
 * `language_names`. Null for other messages and for a flow without `locales`.
 */
export function matchLanguageSwitch(flow: CompiledFlow, text: string): string | null {
  const i18n = flow.i18n;
  if (!i18n) return null;
  const said = normal(text);
  if (!said || said.length > 40) return null;
  return languageNames(flow).get(said) ?? null;
}

/** Per flow, each locale's language names, normalised once: name → locale (the first declared locale that has it). */
const namesOf = new WeakMap<CompiledFlow, Map<string, string>>();

function languageNames(flow: CompiledFlow): Map<string, string> {
  let out = namesOf.get(flow);
  if (out) return out;
  out = new Map();
  for (const locale of flow.i18n!.locales) {
    for (const n of flow.i18n!.byLocale.get(locale)?.messages.language_names ?? []) {
      const name = normal(n);
      if (name && !out.has(name)) out.set(name, locale);
    }
  }
  namesOf.set(flow, out);
  return out;
}
