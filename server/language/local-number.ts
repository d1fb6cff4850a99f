// Numbers written the way a locale writes them ("1.234,5" in German,
// "1 234,5" in French, "1,234.5" in English). Intl.NumberFormat is
// deterministic for a given Node (ICU) build and reads no clock or
// environment, so the pure engine may use it.

const FORMATS = new Map<string, Intl.NumberFormat>();

/** A number in `locale`'s digits, grouping and decimal separator, with at most `maxFractionDigits` decimals (an unknown tag writes en-US). */
export function localNumber(locale: string, value: number, maxFractionDigits = 10): string {
  const key = `${locale}|${maxFractionDigits}`;
  let f = FORMATS.get(key);
  if (!f) {
    f = new Intl.NumberFormat(supported(locale) ? locale : 'en-US', { maximumFractionDigits: maxFractionDigits });
    FORMATS.set(key, f);
  }
  return f.format(value);
}

function supported(locale: string): boolean {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length > 0;
  } catch {
    return false; // not a well-formed tag
  }
}
