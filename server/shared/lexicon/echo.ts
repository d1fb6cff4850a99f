import { langOf } from './index.ts';

/** A value typed in another unit, as the engine keeps it (server/engine/session.ts `Conversion`). */
export interface ConversionLike {
  raw: string;
  to: string;
  value: number;
  exact: boolean;
}

const WORDS = {
  de: { about: 'etwa ', noted: 'notiert' },
  fr: { about: 'environ ', noted: 'noté' },
  es: { about: 'unos ', noted: 'anotado' },
} as const;

/**
 * The line that says a converted value back in the visitor's language:
 * "5.000 sq ft — etwa 465 m², notiert." (numbers formatted the local way).
 * English is the engine's own line (server/engine/engine.ts `conversionEcho`);
 * this returns null for it so the engine keeps writing it.
 */
export function localConversionEcho(locale: string | undefined, c: ConversionLike): string | null {
  const lang = langOf(locale);
  if (lang === 'en') return null;
  const rounded = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(c.value);
  const approx = !c.exact || rounded !== new Intl.NumberFormat(lang, { maximumFractionDigits: 10 }).format(c.value);
  const w = WORDS[lang];
  return `${c.raw} — ${approx ? w.about : ''}${rounded} ${c.to}, ${w.noted}.`;
}
