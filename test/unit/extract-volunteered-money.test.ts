import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { volunteeredUpdates } from '../../server/extract/offline/volunteered.ts';

// Session 7, playing the German demo: "Budget: so 30.000 Dollar" typed at the area question (m²) was stored as 30,000 m²
// and the budget asked again later. An amount said with its currency is the one money question's answer.

const area: OpenQuestion = { nodeId: 'q.court_size', key: 'court_size', required: true, answer: { type: 'integer', min: 50, max: 50000, unit: 'm²' } };
const budget: OpenQuestion = { nodeId: 'q.budget', key: 'budget', required: true, answer: { type: 'integer', unit: 'USD', currency: 'USD', min: 0 } };
const courts: OpenQuestion = { nodeId: 'q.courts', key: 'courts', required: true, answer: { type: 'integer', min: 1, max: 40 } };
const ctx = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };
const at = (text: string, open: OpenQuestion[] = [area, budget, courts], locale?: string) =>
  volunteeredUpdates(text, area, open, locale ? { ...ctx, locale } : ctx).filter((u) => u.key === 'budget').map((u) => u.value);

describe('an amount of money said at another question', () => {
  it('goes to the one open money question', () => {
    expect(at('budget is about $30k')).toEqual([30000]);
    expect(at('about 700 m², budget around $30k')).toEqual([30000]);
    expect(at('Budget: so 30.000 Dollar', [area, budget, courts], 'de')).toEqual([30000]);
  });

  it('gives nothing without a currency, for a range, another currency or two money questions', () => {
    expect(at('about 700, budget 30k')).toEqual([]);
    expect(at('budget somewhere between $20k and $30k')).toEqual([]);
    expect(at('budget is about £30k')).toEqual([]);
    const spare: OpenQuestion = { ...budget, nodeId: 'q.spare', key: 'spare_budget' };
    expect(at('budget is about $30k', [area, budget, spare])).toEqual([]);
  });

  it('leaves a money question that is asked to its own reader', () => {
    expect(volunteeredUpdates('$30k', budget, [budget, area], ctx)).toEqual([]);
  });
});

describe('a German compound names the option it begins with', () => {
  const sport: OpenQuestion = {
    nodeId: 'q.sport', key: 'sport', required: true,
    answer: { type: 'enum', options: [{ value: 'tennis', label: 'Tennis' }, { value: 'basketball', label: 'Basketball' }, { value: 'soccer', label: 'Fußball' }] },
  };
  const de = { ...ctx, locale: 'de' };
  const sportOf = (text: string, locale: { now: string; defaultCountry: string; locale?: string } = de) => volunteeredUpdates(text, area, [area, sport], locale).filter((u) => u.key === 'sport').map((u) => u.value);

  it('reads "Tennisplatz", "Fußballfeld", "Basketballhalle" in German', () => {
    expect(sportOf('wir brauchen neue Flutlichter für unseren Tennisplatz')).toEqual(['tennis']);
    expect(sportOf('es geht um zwei Fußballfelder')).toEqual(['soccer']);
    expect(sportOf('Basketballhalle der Gesamtschule')).toEqual(['basketball']);
  });

  it('not a negated one, not two sports, not in English', () => {
    expect(sportOf('kein Tennisplatz, eine Basketballhalle')).toEqual(['basketball']);
    expect(sportOf('Tennisplatz und Basketballhalle')).toEqual([]);
    expect(sportOf('tennisplatz', ctx)).toEqual([]);
  });
});
