import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../server/extract/parse/index.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';

// Contact details said in words (parse/spelled.ts with each pack's spoken.ts), the other channel asked for instead
// (the pack's otherChannel) and numbers in ranges set aside for fiction (parse/phone.ts).

const NOW = '2026-01-15T10:00:00Z';
const us = { now: NOW, defaultCountry: 'US' };
const de = { now: NOW, defaultCountry: 'DE', locale: 'de' };
const value = (spec: AnswerSpec, text: string, ctx: typeof us | typeof de = us) => {
  const r = parseAnswer(spec, text, ctx);
  return r.ok ? r.value : null;
};

describe('spelled email addresses', () => {
  const email: AnswerSpec = { type: 'email' };
  it('puts together an address said with "at" and "dot", in brackets too, and in German', () => {
    expect(value(email, 'john dot smith at gmail dot com')).toBe('john.smith@gmail.com');
    expect(value(email, 'my work one: tbecker at lakeviewtennis dot com')).toBe('tbecker@lakeviewtennis.com');
    expect(value(email, 'k.asante-mensah (at) outlook.com')).toBe('k.asante-mensah@outlook.com');
    expect(value(email, 'sam at riversidepadel dot co dot uk')).toBe('sam@riversidepadel.co.uk');
    expect(value(email, 'sabine punkt mueller ät web punkt de', de)).toBe('sabine.mueller@web.de');
    expect(value(email, 'info (at) tc-gruen-weiss (Punkt) de', de)).toBe('info@tc-gruen-weiss.de');
  });
  it('reads no address where the words do not spell one', () => {
    expect(value(email, "we're at harbourpadel.com")).toBeNull(); // a common word is no local part
    expect(value(email, 'john at smith dot family')).toBeNull(); // no known ending
    expect(value(email, 'see you at the club')).toBeNull();
  });
});

describe('phone numbers said in words', () => {
  const phone: AnswerSpec = { type: 'phone' };
  it('reads digit words, "oh" and "double", in English and German', () => {
    expect(value(phone, 'nine one seven five five five zero one two three')).toBe('+19175550123');
    expect(value(phone, 'six one seven, five five five, oh one one nine')).toBe('+16175550119');
    expect(value(phone, 'six four six, double five five, zero one seven seven')).toBe('+16465550177');
    expect(value(phone, 'null eins sieben sechs, eins zwei drei vier fünf sechs sieben acht', de)).toBe('+4917612345678');
  });
  it('asks again when the words say too few digits', () => {
    expect(value(phone, 'five five five oh one four four')).toBeNull();
  });
  it("reads Ofcom's drama ranges as numbers, and says what is wrong with a number of the right length that is none", () => {
    expect(value(phone, '+44 7700 900123')).toBe('+447700900123');
    expect(value(phone, '01632 960555', { now: NOW, defaultCountry: 'GB' })).toBe('+441632960555');
    const r = parseAnswer(phone, '(212) 111-0188', us); // ten digits, but no US exchange starts with 1
    expect(r.ok ? r.value : r.reason).toMatch(/doesn't look right/);
  });
});

describe('the other channel asked for instead', () => {
  const propose = (answer: AnswerSpec, text: string, locale?: string, required = false) => {
    const current: OpenQuestion = { nodeId: 'q', key: answer.type, answer, required, prompt: 'Your contact?' };
    return new OfflineExtractor().extract({ text, current, open: [current], paths: [], now: NOW, defaultCountry: locale ? 'DE' : 'US', ...(locale ? { locale } : {}) });
  };
  it('skips the email question when a call is asked for, and the phone question when email is', () => {
    expect(propose({ type: 'email' }, "I'd rather you called me").unknown).toEqual(['email']);
    expect(propose({ type: 'email' }, 'just call, 312-555-0199').unknown).toEqual(['email']);
    expect(propose({ type: 'phone' }, 'no thanks, email is fine').unknown).toEqual(['phone']);
    expect(propose({ type: 'email' }, 'rufen Sie mich lieber an', 'de').unknown).toEqual(['email']);
    expect(propose({ type: 'phone' }, 'doch lieber per Mail', 'de').unknown).toEqual(['phone']);
    expect(propose({ type: 'email' }, 'no email, phone only').unknown).toEqual(['email']);
    expect(propose({ type: 'email' }, 'hab keine', 'de').unknown).toEqual(['email']);
    expect(propose({ type: 'email' }, 'lieber Telefon', 'de').unknown).toEqual(['email']);
    expect(propose({ type: 'phone' }, 'no calls please, at work all day').unknown).toEqual(['phone']);
  });
  it('takes the value when the reply gives one of the question\'s own type', () => {
    const p = propose({ type: 'email' }, 'gern auch anrufen, Mail ist kasse@tsv-oberdorf.de', 'de');
    expect(p.unknown).toEqual([]);
    expect(p.updates.find((u) => u.key === 'email')?.value).toBe('kasse@tsv-oberdorf.de');
  });
});
