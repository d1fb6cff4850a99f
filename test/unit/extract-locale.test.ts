import { describe, expect, it } from 'vitest';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';
import { parseAnswer, type ParseContext } from '../../server/extract/parse/index.ts';
import { packOf } from '../../server/language/registry.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { turnPrompt } from '../../server/extract/anthropic/index.ts';
import type { ExtractionRequest, OpenQuestion } from '../../server/extract/extractor.ts';
import { baseLanguage, langOf, lexicon } from '../../server/language/registry.ts';
import { CATALOGUES } from '../../server/flow/messages/catalogue.ts';
import { conversionEcho } from '../../server/engine/engine.ts';
import type { Conversion } from '../../server/engine/session.ts';
import { resolveCases } from '../../server/golden/eval-cases.ts';
import { runCases } from '../../server/golden/eval-run.ts';
import { summarise } from '../../server/golden/eval-report.ts';

// Understanding in the visitor's language (issue 18): the request's `locale`
// switches number words and formats, dates, yes/no, negation, skip and human
// phrases and the clarifications; the committed values are the same.

// Thursday 15 January 2026, 10:00 UTC.
const at = (locale?: string): ParseContext => ({ now: '2026-01-15T10:00:00Z', defaultCountry: 'DE', ...(locale ? { locale } : {}) });

function value(spec: AnswerSpec, text: string, locale?: string): unknown {
  const r = parseAnswer(spec, text, at(locale));
  if (!r.ok) throw new Error(`expected "${text}" (${locale}) to parse as ${spec.type}, got: ${r.reason}`);
  return r.value;
}

function reason(spec: AnswerSpec, text: string, locale?: string): string {
  const r = parseAnswer(spec, text, at(locale));
  if (r.ok) throw new Error(`expected "${text}" (${locale}) to be rejected as ${spec.type}, got ${JSON.stringify(r.value)}`);
  return r.reason;
}

describe('numbers in German, French and Spanish', () => {
  const num: AnswerSpec = { type: 'number' };
  const count: AnswerSpec = { type: 'integer', min: 0, max: 1000 };
  const eur: AnswerSpec = { type: 'number', unit: 'EUR' };
  const area: AnswerSpec = { type: 'number', unit: 'm²' };

  it('reads number words', () => {
    expect(value(count, 'sieben', 'de')).toBe(7);
    expect(value(count, 'zweihundert', 'de')).toBe(200);
    expect(value(count, 'dreißig', 'de')).toBe(30);
    expect(value(count, 'dreihundertsiebenundzwanzig', 'de')).toBe(327);
    expect(value(count, 'quarante-deux', 'fr')).toBe(42);
    expect(value(count, 'quatre-vingt-dix-sept', 'fr')).toBe(97);
    expect(value(count, 'veintitrés', 'es')).toBe(23);
    expect(value(count, 'doscientos treinta y cinco', 'es')).toBe(235);
  });

  it('reads the decimal comma and grouped thousands the local way', () => {
    expect(value(num, '7,5', 'de')).toBe(7.5);
    expect(value(num, '1.234,56', 'de')).toBe(1234.56);
    expect(value(num, '1.234,56', 'es')).toBe(1234.56);
    expect(value(num, '1\u202f234,56', 'fr')).toBe(1234.56);
    expect(value(num, '1\u00a0234,56', 'fr')).toBe(1234.56);
    expect(value(num, '1 234,56', 'fr')).toBe(1234.56);
    expect(value(num, '2.500', 'de')).toBe(2500);
  });

  it('keeps units and currencies working', () => {
    expect(value(eur, '30.000 €', 'de')).toBe(30000);
    expect(value(eur, '30 mil euros', 'es')).toBe(30000);
    expect(value(eur, '1,5 Mio. €', 'de')).toBe(1500000);
    expect(value(area, '500 m²', 'fr')).toBe(500);
    expect(value({ type: 'number', unit: 'm' }, '25 Meter', 'de')).toBe(25);
    expect(value({ type: 'number', unit: 'm' }, '850 centímetros', 'es')).toBe(8.5);
  });

  it('asks about a comma before three digits (a decimal to a German, thousands to an English typist), in the language', () => {
    expect(reason(eur, '30,000 €', 'de')).toBe('Meinten Sie 30 oder 30.000? Bitte schreiben Sie die Zahl ohne Komma.');
    expect(reason(eur, '1,234', 'fr')).toContain('1,234 ou 1\u202f234');
  });

  it('never takes a negated number and says so in the language', () => {
    expect(reason(count, 'nicht 4', 'de')).toBe('Nicht 4 — welche Zahl ist es dann?');
    expect(value(count, 'pas 4, plutôt 3', 'fr')).toBe(3);
    expect(reason(eur, 'no más de 40.000 €', 'es')).toContain('¿cuál es el número');
  });

  it('takes the words after a self-correction in the language', () => {
    expect(value(count, 'vier, nein, fünf', 'de')).toBe(5);
    expect(value(count, 'quatre, pardon, cinq', 'fr')).toBe(5);
    expect(value(count, 'cuatro, perdón, cinco', 'es')).toBe(5);
    expect(reason(count, '4, nein, 5')).toBe('I found more than one number there — please give just one.');
  });

  it('writes range limits with local number formatting', () => {
    expect(reason({ type: 'number', min: 0, max: 1500.5 }, '2000', 'de')).toBe('Bitte geben Sie eine Zahl zwischen 0 und 1.500,5 an.');
    expect(packOf('fr').formatNumber(1234.5)).toBe('1\u202f234,5');
  });

  it('leaves English as it was: "7,5" is 7.5 and "1.234,56" is not read as a German number', () => {
    expect(value(num, '7,5')).toBe(7.5);
    expect(value(num, '1.234,56')).not.toBe(1234.56);
    expect(reason(count, 'sieben', 'en')).toBe("That doesn't look like a whole number.");
  });
});

describe('dates in German, French and Spanish', () => {
  const future: AnswerSpec = { type: 'date', future: true };
  it('reads relative days and day-first dates through chrono\'s parsers for the language', () => {
    expect(value(future, 'nächsten Dienstag', 'de')).toBe('2026-01-20');
    expect(value(future, 'morgen', 'de')).toBe('2026-01-16');
    expect(value(future, 'am 3. März', 'de')).toBe('2026-03-03');
    expect(value(future, '03/04/2026', 'de')).toBe('2026-04-03');
    expect(value(future, 'le 3 mars', 'fr')).toBe('2026-03-03');
    expect(value(future, 'demain', 'fr')).toBe('2026-01-16');
    expect(value(future, 'mañana', 'es')).toBe('2026-01-16');
    expect(value(future, 'el 5 de mayo', 'es')).toBe('2026-05-05');
  });

  it('asks about a week or a span instead of guessing the day', () => {
    expect(reason(future, 'nächste Woche', 'de')).toContain('Welcher Tag genau?');
    expect(reason(future, 'la semaine prochaine', 'fr')).toContain('Quel jour exactement');
    expect(reason(future, 'a finales de mes', 'es')).toContain('¿Qué día exactamente?');
  });
});

describe('yes/no and options in the visitor\'s language', () => {
  const yn: AnswerSpec = { type: 'boolean' };
  const sport: AnswerSpec = { type: 'enum', options: [{ value: 'tennis', label: 'Tennis' }, { value: 'football', label: 'Fußball', synonyms: ['fútbol', 'football'] }] };
  const roof: AnswerSpec = { type: 'enum', options: [{ value: 'covered', label: 'Überdacht' }, { value: 'open', label: 'Offen' }] };

  it('reads yes and no words, with their negations', () => {
    expect(value(yn, 'jawohl', 'de')).toBe(true);
    expect(value(yn, 'nö', 'de')).toBe(false);
    expect(value(yn, 'auf keinen Fall', 'de')).toBe(false);
    expect(value(yn, 'ouais', 'fr')).toBe(true);
    expect(value(yn, 'pas du tout', 'fr')).toBe(false);
    expect(value(yn, 'claro', 'es')).toBe(true);
    expect(value(yn, 'para nada', 'es')).toBe(false);
    expect(reason(yn, 'vielleicht', 'de')).toBe('Bitte antworten Sie mit Ja oder Nein.');
    // a negated built-in yes is asked about; a negated flow synonym flips, whichever spelling of its umlaut
    expect(reason(yn, 'nicht korrekt', 'de')).toBe('Bitte antworten Sie mit Ja oder Nein.');
    expect(value({ type: 'boolean', synonyms: { true: ['überdacht'], false: ['offen'] } }, 'nicht ueberdacht', 'de')).toBe(false);
  });

  it('matches options folded (ß, umlauts written ue) and with a typo, and never a negated one', () => {
    expect(value(sport, 'fussball', 'de')).toBe('football');
    expect(value(sport, 'Fusball', 'de')).toBe('football');
    expect(value(roof, 'ueberdacht', 'de')).toBe('covered');
    expect(reason(sport, 'kein Fußball', 'de')).toContain('Welche dann?');
    expect(value(sport, 'pas de football, du tennis', 'fr')).toBe('tennis');
    expect(value(sport, 'no fútbol, tennis', 'es')).toBe('tennis');
  });

  it('asks instead of guessing when a second thing is named beside the one option of a single choice', () => {
    // the second thing is not an option: still not committed as the one that is
    expect(reason(sport, 'Tennis und Squash', 'de')).toBe('Bitte wählen Sie nur eine: Tennis oder Squash.');
    expect(reason(sport, 'Squash oder Tennis', 'de')).toBe('Bitte wählen Sie nur eine: Tennis oder Squash.');
    expect(reason(sport, 'Tennis, Squash auch', 'de')).toBe('Bitte wählen Sie nur eine: Tennis oder Squash.');
    expect(reason(sport, 'beides, Tennis', 'de')).toBe('Bitte wählen Sie nur eine — ist es Tennis?');
    expect(reason(sport, 'tennis et squash', 'fr')).toBe("Veuillez n'en choisir qu'un : Tennis ou squash.");
    expect(reason(sport, 'les deux, tennis', 'fr')).toBe("Veuillez n'en choisir qu'un — est-ce Tennis ?");
    expect(reason(sport, 'squash o tennis', 'es')).toBe('Por favor, elija solo una: Tennis o squash.');
    expect(reason(sport, 'tennis y pádel también', 'es')).toBe('Por favor, elija solo una: Tennis o pádel.');
    expect(reason(sport, 'ambos, tennis', 'es')).toBe('Por favor, elija solo una: ¿es Tennis?');
    // filler after a joiner names nothing: "Tennis und bitte schnell" is still Tennis
    expect(value(sport, 'Tennis und bitte', 'de')).toBe('tennis');
    expect(value(sport, 'Tennis, danke', 'de')).toBe('tennis');
  });
});

describe('skip and "a person, please" in the visitor\'s language', () => {
  const q: OpenQuestion = { nodeId: 'q', key: 'notes', answer: { type: 'text', max: 500 }, required: false, prompt: 'Anmerkungen? (optional)' };
  const req = (text: string, locale: string): ExtractionRequest => ({ text, current: q, open: [], paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'DE', locale });
  const rules = new OfflineExtractor();

  it('skips on a hedge and escalates on a request for a person', () => {
    expect(rules.extract(req('weiß nicht', 'de'))).toMatchObject({ unknown: ['notes'], updates: [] });
    expect(rules.extract(req('je ne sais pas', 'fr'))).toMatchObject({ unknown: ['notes'] });
    expect(rules.extract(req('no sé', 'es'))).toMatchObject({ unknown: ['notes'] });
    expect(rules.extract(req('ich möchte mit einem Menschen sprechen', 'de')).escalate).toBeDefined();
    expect(rules.extract(req("je voudrais parler à quelqu'un", 'fr')).escalate).toBeDefined();
    expect(rules.extract(req('quiero hablar con una persona', 'es')).escalate).toBeDefined();
    // in English the same words are an answer
    expect(rules.extract(req('weiß nicht', 'en'))).toMatchObject({ unknown: [], updates: [{ key: 'notes', value: 'weiß nicht' }] });
  });
});

describe('the per-language lexicon', () => {
  it('maps locale tags to a covered language, English otherwise', () => {
    expect([langOf('de-AT'), langOf('fr_CA'), langOf('ES'), langOf('pt'), langOf(undefined)]).toEqual(['de', 'fr', 'es', 'en', 'en']);
    // the catalogue picks its language by the same function
    expect([baseLanguage('de-AT'), baseLanguage('fr_CA'), baseLanguage('PT-br')]).toEqual(['de', 'fr', 'pt']);
  });
});

describe('command words in each language', () => {
  it('are the message catalogue\'s, one list per locale (the lexicon holds none)', () => {
    expect(CATALOGUES.de!.commands_back).toContain('zurück');
    expect(CATALOGUES.de!.commands_restart).toContain('neu starten');
    expect(CATALOGUES.de!.commands_cancel).toContain('abbrechen');
    expect(CATALOGUES.fr!.commands_back).toContain('retour');
    expect(CATALOGUES.fr!.commands_restart).toContain('recommencer');
    expect(CATALOGUES.fr!.commands_cancel).toContain('annuler');
    expect(CATALOGUES.es!.commands_back).toContain('atrás');
    expect(CATALOGUES.es!.commands_restart).toContain('reiniciar');
    expect(CATALOGUES.es!.commands_cancel).toContain('cancelar');
    expect(Object.keys(lexicon('de'))).not.toContain('commands');
  });
});

describe('Claude is told the visitor\'s language', () => {
  const base: ExtractionRequest = { text: '7,5', current: null, open: [], paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'DE' };
  it('adds one line for another language and none for English', () => {
    expect(turnPrompt({ ...base, locale: 'de' })).toContain('The user writes in German (de)');
    expect(turnPrompt(base)).not.toContain('The user writes in');
    expect(turnPrompt({ ...base, locale: 'en' })).toBe(turnPrompt(base));
  });
});

describe('eval cases in a language', () => {
  it('ask the extractor in the case\'s locale and count per locale', async () => {
    const cases = resolveCases({
      questions: { courts: { prompt: 'Wie viele Plätze?', answer: { type: 'integer', min: 1, max: 100 } } },
      cases: [
        { id: 'de-words', question: 'courts', reply: 'siebenundzwanzig', expect: 27, locale: 'de' },
        { id: 'en-words', question: 'courts', reply: 'siebenundzwanzig', expect: 27 },
      ],
    }, 'tiny.yaml');
    const results = await runCases(cases, () => new OfflineExtractor());
    expect(results.map((r) => r.verdict)).toEqual(['correct', 'clarified']);
    expect(summarise(results, 'rules').byLocale).toEqual({
      de: { total: 1, correct: 1, clarified: 0, silentlyWrong: 0, errors: 0 },
      en: { total: 1, correct: 0, clarified: 1, silentlyWrong: 0, errors: 0 },
    });
  });
});

describe('what is said back in the visitor\'s language', () => {
  it('names another currency in the language and reads a conversion typed the local way', () => {
    expect(reason({ type: 'number', unit: 'USD' }, '30.000 €', 'de')).toBe('Dieser Betrag ist in Euro (EUR) — bitte geben Sie ihn in US-Dollar (USD) an; wir rechnen keine Währungen um.');
    const r = parseAnswer({ type: 'number', unit: 'm²' }, '5.000 sq ft', at('de'));
    expect(r).toMatchObject({ ok: true, evidence: '5.000 sq ft', conversion: { raw: '5.000 sq ft', to: 'm²' } });
    // the engine says it back (test/unit/locale-catalogue.test.ts)
    expect(conversionEcho((r as { conversion: Conversion }).conversion, CATALOGUES.de!, 'de')).toBe('5.000 sq ft — etwa 464,52 m², notiert.');
    expect(conversionEcho({ raw: '5 000 sq ft', from: 'ft²', to: 'm²', value: 464.5152, exact: true }, CATALOGUES.fr!, 'fr')).toBe('5 000 sq ft — environ 464,52 m², c’est noté.');
  });
});
