import { describe, expect, it } from 'vitest';
import { compileText } from '../../server/flow/document.ts';
import { yearsSince } from '../../server/flow/guard/functions.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { answer, begin, command, end, flowOf, lastAsk, q, valueOf } from '../support/engine-harness.ts';

// Derived answers (flow-ir.md "Derived answers"): a question with `derive` is
// answered from other answers at the session clock (NOW is 2026-01-15) and
// then not asked; a value given that disagrees with the derived one is asked
// about, never stored beside it.

const flow = flowOf({
  nodes: [
    q('q.name', 'name'),
    q('q.dob', 'date_of_birth', { label: 'Date of birth', answer: { type: 'date', past: true } }),
    q('q.age', 'age', { label: 'Age', answer: { type: 'integer', min: 0, max: 120 }, derive: { expr: 'years_since(answers.date_of_birth)' } }),
    q('q.sex', 'sex'),
    q('q.phone', 'phone'),
    end(),
  ],
});

describe('years_since()', () => {
  it('counts whole years to today, a birthday not yet reached this year one fewer; null for no date or a future one', () => {
    expect(yearsSince('1990-03-04', '2026-01-15')).toBe(35);
    expect(yearsSince('1990-01-15', '2026-01-15')).toBe(36);
    expect(yearsSince('2000-02-29', '2025-02-28')).toBe(24);
    expect(yearsSince('2026-01-15', '2026-01-15')).toBe(0);
    expect(yearsSince('2026-01-16', '2026-01-15')).toBeNull();
    expect(yearsSince('soon', '2026-01-15')).toBeNull();
    expect(yearsSince(null, '2026-01-15')).toBeNull();
  });
});

describe('a question derived from another answer', () => {
  it('is answered from the date of birth at the session clock and not asked', () => {
    let s = answer(flow, begin(flow).session, { name: 'Ann' }).session;
    const r = answer(flow, s, { date_of_birth: '1990-03-04' });
    s = r.session;
    expect(valueOf(s, 'age')).toBe(35);
    expect(s.answers.get('age')?.source).toBe('derived');
    expect(s.node).toBe('q.sex');
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'node_exit', node: 'q.age', skipped: 'answered' }));
  });

  it('follows the date of birth when it changes, and goes with it on back', () => {
    let s = answer(flow, begin(flow).session, { name: 'Ann' }).session;
    s = answer(flow, s, { date_of_birth: '1990-03-04' }).session;
    s = command(flow, s, 'back').session;
    expect(s.node).toBe('q.dob');
    expect(s.answers.has('age')).toBe(false);
    s = answer(flow, s, { date_of_birth: '2010-06-03' }).session;
    expect(valueOf(s, 'age')).toBe(15);
  });

  it('an age given beside a date of birth that disagrees keeps neither, and the date of birth is asked again with the reason (no miss)', () => {
    const s = answer(flow, begin(flow).session, { name: 'Ann' }).session;
    const r = answer(flow, s, { date_of_birth: '2010-03-04', age: 35 });
    expect(r.session.answers.has('date_of_birth')).toBe(false);
    expect(r.session.answers.has('age')).toBe(false);
    expect(r.session.node).toBe('q.dob');
    expect(r.session.attempts).toBe(0);
    // the line names both values, the date of birth in words (the pack's derive_mismatch)
    expect(lastAsk(r)?.text).toBe('You said 35, but 4 March 2010 makes it 15 — which is right? date_of_birth?');
    // the two agreeing are both kept
    const ok = answer(flow, r.session, { date_of_birth: '1990-03-04', age: 35 }).session;
    expect([valueOf(ok, 'date_of_birth'), valueOf(ok, 'age'), ok.node]).toEqual(['1990-03-04', 35, 'q.sex']);
  });

  it('an age proposed later that disagrees with the derived one asks the date of birth again (a detour), the rest of the message kept', () => {
    let s = answer(flow, begin(flow).session, { name: 'Ann' }).session;
    s = answer(flow, s, { date_of_birth: '1990-03-04' }).session;
    const r = answer(flow, s, { sex: 'female', age: 50 });
    expect(valueOf(r.session, 'sex')).toBe('female');
    expect(r.session.answers.has('date_of_birth')).toBe(false);
    expect(r.session.answers.has('age')).toBe(false);
    expect(r.session.node).toBe('q.dob');
    expect(lastAsk(r)?.text).toMatch(/^You said 50, but 4 March 1990 makes it 35 — which is right\?/);
    const back = answer(flow, r.session, { date_of_birth: '1976-03-04' }).session;
    expect([valueOf(back, 'age'), back.node]).toEqual([49, 'q.phone']);
  });

  it('an age given first is checked when the date of birth comes: disagreeing, the date of birth is asked again and the age given is dropped', () => {
    let s = answer(flow, begin(flow).session, { name: 'Ann', age: 35 }).session;
    expect(valueOf(s, 'age')).toBe(35);
    const r = answer(flow, s, { date_of_birth: '2010-03-04' });
    s = r.session;
    expect(s.answers.has('age')).toBe(false);
    expect(s.answers.has('date_of_birth')).toBe(false);
    expect(s.node).toBe('q.dob');
    s = answer(flow, s, { date_of_birth: '2010-03-04' }).session;
    expect([valueOf(s, 'age'), s.node]).toEqual([15, 'q.sex']);
  });

  it('offline, an age said in passing beside the date of birth is read for the age question ("she\'s 35", "35 years old")', async () => {
    const offline = new OfflineExtractor();
    const open = (key: string, type: string) => ({ nodeId: `q.${key}`, key, answer: { type } as never, required: true, prompt: key === 'age' ? 'And the patient\'s age in years?' : 'Date of birth?' });
    for (const [text, age] of [["4 March 2010, she's 35", 35], ['born 2010-03-04, 35 years old', 35], ['March 4 2010 (aged 9)', 9], ["he's 7, born march 14 2020", 7], ['she is 35. born 4 March 2010', 35]] as const) {
      const p = await offline.extract({ text, current: open('date_of_birth', 'date'), open: [open('date_of_birth', 'date'), open('age', 'integer')], paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'US' } as never);
      expect(p.updates.find((u) => u.key === 'age')?.value, text).toBe(age);
    }
    for (const text of ["4 March 2010, she's 35 weeks along", 'I am 5 foot 2, born 1990', "born 2010, she's 7,5 kg"]) {
      const p = await offline.extract({ text, current: open('date_of_birth', 'date'), open: [open('date_of_birth', 'date'), open('age', 'integer')], paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'US' } as never);
      expect(p.updates.find((u) => u.key === 'age'), text).toBeUndefined();
    }
  });

  it('a derive reading its own key is a compile error (derive_cycle); an unknown function is one too', () => {
    const doc = (expr: string) => JSON.stringify({ version: 'v1', id: 'f', nodes: [q('q.dob', 'dob', { answer: { type: 'date' } }), q('q.age', 'age', { answer: { type: 'integer' }, derive: { expr } }), end()] });
    expect(compileText(doc('years_since(answers.dob)')).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compileText(doc('answers.age')).diagnostics.map((d) => d.code)).toContain('derive_cycle');
    expect(compileText(doc('age_of(answers.dob)')).diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });
});

describe('a value given for another question', () => {
  it('is said back ("Noted — …") before the current question is asked again; a pii one is not', () => {
    const noted = flowOf({ nodes: [q('q.area', 'area', { answer: { type: 'integer' } }), q('q.budget', 'budget', { label: 'Budget', answer: { type: 'integer', unit: 'USD' } }), q('q.phone', 'phone', { pii: true }), end()] });
    const r = answer(noted, begin(noted).session, { budget: 30000 });
    expect(r.session.node).toBe('q.area');
    const says = r.effects.filter((e) => e.type === 'say').map((e) => (e as { text: string }).text);
    expect(says).toContainEqual(expect.stringMatching(/^Noted — Budget: 30000 USD\.$/));
    const pii = answer(noted, begin(noted).session, { phone: '+14155550100' });
    expect(pii.effects.filter((e) => e.type === 'say').map((e) => (e as { text: string }).text).join(' ')).not.toMatch(/Noted/);
  });
});
