import { describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { baseLanguage, langOf, packOf, PACKS } from '../../server/language/registry.ts';
import { MessagesShape } from '../../server/language/messages-shape.ts';
import { CATALOGUES } from '../../server/flow/messages/catalogue.ts';
import { parseAnswer } from '../../server/extract/parse/index.ts';
import { chronoOf } from '../../server/language/chrono.ts';

const root = join(import.meta.dirname, '../../server/language');

describe('language packs', () => {
  it('registers one pack per folder of server/language, each under its folder name', () => {
    const folders = readdirSync(root).filter((f) => statSync(join(root, f)).isDirectory()).sort();
    expect(PACKS.map((p) => p.code).sort()).toEqual(folders);
  });

  it('gives every pack complete built-in texts and the same parser message keys as English', () => {
    const keys = Object.keys(packOf('en').say).sort();
    for (const pack of PACKS) {
      expect(MessagesShape().safeParse(pack.messages).success).toBe(true);
      expect(Object.keys(pack.say).sort()).toEqual(keys);
      expect(CATALOGUES[pack.code]).toBe(pack.messages);
    }
  });

  it('gives a new pack the date parser of any language chrono-node has, by its tag alone (no other file to edit)', () => {
    // a pack's dates.ts asks `chronoOf('<code>')`; chrono.ts need not list the language (this line type-checks as it is)
    const parser = chronoOf('it').casual;
    expect(parser.parseDate('domani', new Date('2026-01-15T10:00:00Z'))?.toISOString().slice(0, 10)).toBe('2026-01-16');
  });

  it('resolves a locale tag to its pack by base language, English when no pack covers it', () => {
    expect(packOf('de-AT').code).toBe('de');
    expect(packOf('FR_ca').code).toBe('fr');
    expect(packOf('pt-BR').code).toBe('en');
    expect(packOf(undefined).code).toBe('en');
    expect(langOf('es-MX')).toBe('es');
    expect(baseLanguage(' De-CH ')).toBe('de');
  });

  it('reads a reply with the pack of the session locale: its number words, digit format and clarifications', () => {
    const ctx = (locale?: string) => ({ now: '2026-01-15T10:00:00Z', defaultCountry: 'US', ...(locale ? { locale } : {}) });
    expect(parseAnswer({ type: 'integer' }, 'siebenundzwanzig', ctx('de-AT'))).toMatchObject({ ok: true, value: 27 });
    expect(parseAnswer({ type: 'number' }, '7,5', ctx('fr'))).toMatchObject({ ok: true, value: 7.5 });
    expect(parseAnswer({ type: 'integer' }, 'veintitrés', ctx('es'))).toMatchObject({ ok: true, value: 23 });
    expect(parseAnswer({ type: 'integer' }, 'siebenundzwanzig', ctx())).toMatchObject({ ok: false, reason: "That doesn't look like a whole number." });
    expect(parseAnswer({ type: 'integer' }, 'sieben', ctx('de'))).toMatchObject({ ok: true, value: 7 });
  });
});
