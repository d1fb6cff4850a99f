import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { volunteeredUpdates } from '../../server/extract/offline/volunteered.ts';

// Issue 16's note: at q.phone, "no chest pain, …" recorded chest pain as a symptom. The volunteered
// scan of a multiple choice now reads negation as the direct answer does (server/extract/parse/enum.ts).

const symptoms: OpenQuestion = {
  nodeId: 'q.symptoms', key: 'symptoms', required: true,
  answer: {
    type: 'enum', multiple: true,
    options: [
      { value: 'chest_pain', label: 'Chest pain or tightness', synonyms: ['chest pain', 'tight chest'] },
      { value: 'fever', label: 'Fever', synonyms: ['fever', 'temperature'] },
      { value: 'cough', label: 'Cough', synonyms: ['cough', 'coughing'] },
    ],
  },
};
const plan: OpenQuestion = {
  nodeId: 'q.plan', key: 'plan', required: true,
  answer: { type: 'enum', options: [{ value: 'basic', label: 'Basic plan' }, { value: 'premium', label: 'Premium plan' }] },
};
const phone: OpenQuestion = { nodeId: 'q.phone', key: 'phone', required: true, answer: { type: 'phone' } };
const ctx = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };
const at = (text: string, locale?: string) =>
  volunteeredUpdates(text, phone, [phone, symptoms, plan], locale ? { ...ctx, locale } : ctx).filter((u) => u.key !== 'phone');

describe('volunteered options are negation-aware', () => {
  it('a negated symptom is not recorded; the others named are', () => {
    expect(at('555 201 3344, no chest pain, just a cough and a fever')).toEqual([
      expect.objectContaining({ key: 'symptoms', value: ['fever', 'cough'] }),
    ]);
    expect(at("555 201 3344 — I don't have chest pain but I'm coughing")).toEqual([
      expect.objectContaining({ key: 'symptoms', value: ['cough'] }),
    ]);
  });

  it('only negated options: nothing is volunteered', () => {
    expect(at('555 201 3344. no chest pain')).toEqual([]);
    expect(at('555 201 3344, without fever or chest pain')).toEqual([]);
    expect(at('555 201 3344, not the premium plan')).toEqual([]);
  });

  it('a negation in another clause does not count', () => {
    expect(at('no, my number is 555 201 3344. chest pain since yesterday')).toEqual([
      expect.objectContaining({ key: 'symptoms', value: ['chest_pain'] }),
    ]);
  });

  it('in German too ("keine Brustschmerzen" style: a negator before the option, or "nicht" after it)', () => {
    expect(at('555 201 3344, kein Fever, aber Cough', 'de')).toEqual([
      expect.objectContaining({ key: 'symptoms', value: ['cough'] }),
    ]);
    expect(at('555 201 3344, Fever nicht', 'de')).toEqual([]);
  });
});

describe('an option word inside a not-knowing phrase is not volunteered (the walkthrough: "keine Ahnung" picked "no lighting")', () => {
  const lighting: OpenQuestion = {
    nodeId: 'q.current_lighting', key: 'current_lighting', required: true,
    answer: {
      type: 'enum',
      options: [
        // as the engine hands it over in a German session: labels and synonyms in that language
        { value: 'none', label: 'Noch keine Beleuchtung', synonyms: ['keine', 'keine beleuchtung', 'noch nichts'] },
        { value: 'metal_halide', label: 'Halogen-Metalldampf' },
      ],
    },
  };
  const sport: OpenQuestion = { nodeId: 'q.sport', key: 'sport', required: true, answer: { type: 'enum', options: [{ value: 'tennis', label: 'Tennis' }] } };
  const volunteered = (text: string, locale: string) => volunteeredUpdates(text, sport, [sport, lighting], { ...ctx, locale });

  it('German: "keine Ahnung" at another question answers nothing; "noch keine Beleuchtung" still does', () => {
    expect(volunteered('keine Ahnung ehrlich gesagt, ich bin erst seit kurzem im Verein', 'de')).toEqual([]);
    expect(volunteered('weiß ich nicht, bin neu hier', 'de')).toEqual([]);
    expect(volunteered('keine Ahnung, aber es gibt noch keine Beleuchtung', 'de')).toEqual([
      expect.objectContaining({ key: 'current_lighting', value: 'none' }),
    ]);
  });

  it('English: "no idea" / "not sure" hold no option', () => {
    const en: OpenQuestion = { ...lighting, answer: { type: 'enum', options: [{ value: 'none', label: 'No lights yet', synonyms: ['none', 'no idea yet'] }, { value: 'sure', label: 'Sure thing' }] } };
    expect(volunteeredUpdates('honestly no idea, I just started here', sport, [sport, en], ctx)).toEqual([]);
  });
});
