import { describe, expect, it } from 'vitest';
import { chooseLocale, cleanLocale, isRtl, isTranslated, languageOf, SHIPPED, textsFor, uiLocale } from '../../client/widget/locale.ts';
import { DEFAULT_TEXTS } from '../../client/widget/texts.ts';
import { TRANSLATIONS } from '../../client/widget/translations.ts';

// The widget's own texts per locale (the browser tests show them on a page).

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the widget texts by locale', () => {
  it('ships the languages the main bundle says it ships, each with every text and the same placeholders as English', () => {
    expect(Object.keys(TRANSLATIONS).sort()).toEqual([...SHIPPED]);
    for (const [lang, texts] of Object.entries(TRANSLATIONS)) {
      expect(Object.keys(texts).sort(), lang).toEqual(Object.keys(DEFAULT_TEXTS).sort());
      for (const [key, english] of Object.entries(DEFAULT_TEXTS)) {
        const text = texts[key as keyof typeof texts];
        expect(placeholders(text), `${lang}.${key}`).toEqual(placeholders(english));
        // only texts that are empty in English may be empty
        if (english) expect(text, `${lang}.${key}`).not.toBe('');
      }
    }
  });

  it('picks the language of a regional tag, lets the page override any text and falls back to English', () => {
    expect(textsFor('de-AT', {}, TRANSLATIONS).send).toBe('Senden');
    expect(textsFor('fr_CA', {}, TRANSLATIONS).send).toBe('Envoyer');
    expect(textsFor('de', { send: 'Abschicken' }, TRANSLATIONS)).toMatchObject({ send: 'Abschicken', back: 'Zurück' });
    expect(textsFor('ja', {}, TRANSLATIONS)).toEqual(DEFAULT_TEXTS);
    // before the translations have loaded
    expect(textsFor('de', {}, null)).toEqual(DEFAULT_TEXTS);
    expect(isTranslated('es-MX')).toBe(true);
    expect(isTranslated('en-GB')).toBe(false);
  });

  it('takes the page option, else the page language, else the browser language, else English', () => {
    expect(chooseLocale('de', 'fr', 'es-ES')).toBe('de');
    expect(chooseLocale(undefined, 'fr', 'es-ES')).toBe('fr');
    expect(chooseLocale('not a tag', '', 'es-ES')).toBe('es-ES');
    expect(chooseLocale(undefined, '', undefined)).toBe('en');
  });

  it("keeps the page's locale while the session is in the locale it started in, and follows a switch", () => {
    // no locale from the server (yet), or only the flow's fallback at the start: the page's
    expect(uiLocale('he', undefined, undefined)).toBe('he');
    expect(uiLocale('he', 'en', 'en')).toBe('he');
    expect(uiLocale('de', 'de', 'de')).toBe('de');
    // the visitor switched language mid-conversation
    expect(uiLocale('he', 'en', 'de')).toBe('de');
    expect(uiLocale('de', 'de', 'fr-CA')).toBe('fr-CA');
    // and back to the language the session started in: the page's again
    expect(uiLocale('de', 'de', 'en')).toBe('en');
    expect(uiLocale('de', 'en', 'en')).toBe('de');
    // a malformed one is ignored
    expect(uiLocale('de', 'de', '<x>')).toBe('de');
  });

  it('accepts well-formed language tags only and knows the right-to-left scripts', () => {
    expect(cleanLocale(' pt_BR ')).toBe('pt-BR');
    expect(cleanLocale('zh-Hant-TW')).toBe('zh-Hant-TW');
    for (const bad of ['', 'x', 'de DE', '<b>', 'a'.repeat(36), 42, null]) expect(cleanLocale(bad)).toBeUndefined();
    expect(languageOf('HE-il')).toBe('he');
    expect(['ar', 'he', 'ar-EG', 'fa', 'ur'].map(isRtl)).toEqual([true, true, true, true, true]);
    expect(['en', 'de', 'es', 'fr', 'hu'].map(isRtl)).toEqual([false, false, false, false, false]);
  });
});
