// Currencies named in a visitor's language, through Intl.DisplayNames
// (deterministic for a given Node ICU build; reads no clock or environment).

const NAMES = new Map<string, Intl.DisplayNames>();
const EN_NAMES = new Map<string, string>();

function namesIn(lang: string): Intl.DisplayNames {
  let names = NAMES.get(lang);
  if (!names) NAMES.set(lang, (names = new Intl.DisplayNames([lang], { type: 'currency' })));
  return names;
}

/** A currency's English name ("Euro", "US Dollar"); the code itself when none is known. */
export function englishCurrencyName(code: string): string {
  let name = EN_NAMES.get(code);
  if (name === undefined) {
    name = namesIn('en').of(code) ?? code;
    EN_NAMES.set(code, name);
  }
  return name;
}

/** "Euro (EUR)" in German, "dollar des États-Unis (USD)" in French: a currency named in the visitor's language. */
export function localCurrency(lang: string, code: string): string {
  try {
    return `${namesIn(lang).of(code.toUpperCase()) ?? code} (${code.toUpperCase()})`;
  } catch {
    return code;
  }
}
