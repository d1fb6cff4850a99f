import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';

// Codes at a question that declares a pattern (server/extract/offline/short-text.ts, docs/understanding.md "Short text and codes").
const offline = new OfflineExtractor();
const ask = (pattern: string, prompt: string, reply: string, locale?: string, required = true) => {
  const current: OpenQuestion = { nodeId: 'q', key: 'order_number', label: 'Order number', prompt, answer: { type: 'text', pattern }, required };
  const p = offline.extract({ text: reply, current, open: [], paths: [], now: '2026-11-25T10:00:00Z', defaultCountry: 'US', ...(locale ? { locale } : {}) });
  const u = p.updates.find((x) => x.key === 'order_number');
  return u ? { value: u.value, confirm: u.confirm === true } : p.unknown.includes('order_number') ? { skip: true } : { problem: p.problem?.reason };
};
const order = (reply: string, locale?: string) => ask('^[A-Za-z]{2}-?[0-9]{6}$', "What's your order number? It looks like BF-104233. (Say skip if you don't have it.)", reply, locale, false);
const member = (reply: string) => ask('^[A-Za-z0-9-]{5,20}$', 'What is the member ID on your insurance card?', reply);

describe('a code at a question with a pattern', () => {
  it('is written like the prompt\'s example when the pattern takes it in several ways', () => {
    expect(order('bf 104512')).toEqual({ value: 'BF-104512', confirm: false });
    expect(order('BF 109 221')).toEqual({ value: 'BF-109221', confirm: false });
    expect(order('found it, qt 440871 on the email')).toEqual({ value: 'QT-440871', confirm: false });
  });
  it('joins an ID typed in groups, whole, in capitals', () => {
    expect(member('W 1234 5678 9')).toEqual({ value: 'W123456789', confirm: false });
    expect(member('ZGP 884 22 1093')).toEqual({ value: 'ZGP884221093', confirm: false });
    expect(member('xjh 1234 5678 9')).toEqual({ value: 'XJH123456789', confirm: false });
    expect(member('member id is U8844 2210')).toEqual({ value: 'U88442210', confirm: false });
  });
  it('adds the prefix the pattern fixes, and puts a separator the pattern names in the one place it fits', () => {
    expect(ask('^LIC-[0-9]{5}$', "What's your licence number?", '20931')).toEqual({ value: 'LIC-20931', confirm: false });
    expect(ask('^LIC-[0-9]{5}$', "What's your licence number?", 'lic 20931')).toEqual({ value: 'LIC-20931', confirm: false });
    expect(ask('^[0-9]{3}-[0-9]{4}$', 'Which invoice?', 'invoice 4182290')).toEqual({ value: '418-2290', confirm: false });
  });
  it('reads a code typed loosely: any dash, digits in words, the example\'s letters left out, O for zero, a correction inside (issue 30 session 6)', () => {
    expect(order('BF–118 020')).toEqual({ value: 'BF-118020', confirm: false });
    expect(order('B F one zero four two three three')).toEqual({ value: 'BF-104233', confirm: false });
    expect(order('104233')).toEqual({ value: 'BF-104233', confirm: false });
    expect(order('BF-1O4233')).toEqual({ value: 'BF-104233', confirm: false });
    expect(order('BF-104233 wait no BF-104323')).toEqual({ value: 'BF-104323', confirm: false });
    expect(order('BF-104233, nein, BF-104332', 'de')).toEqual({ value: 'BF-104332', confirm: false });
    expect(order('invoice says BF-121003 / PO 7781')).toEqual({ value: 'BF-121003', confirm: false });
  });
  it('checks a code the reply doubts (issue 30 session 6)', () => {
    expect(order("BF-104233 I think, or maybe that's the quote number")).toEqual({ value: 'BF-104233', confirm: true });
    expect(order('BF-120045?? not sure')).toEqual({ value: 'BF-120045', confirm: true });
    expect(order('BF-104233 sorry, maybe BF-104332')).toEqual({ value: 'BF-104332', confirm: true });
    expect(order('i think its BF-103322')).toEqual({ value: 'BF-103322', confirm: false });
  });
  it('asks again when no way of writing it fits, and asks which when two codes do', () => {
    expect(order('10423')).toHaveProperty('problem');
    expect(order('bf 77120')).toHaveProperty('problem');
    expect(order('bf 771204 or bf 771240')).toHaveProperty('problem');
  });
  it('asks the question again at "where do I find that?", never skips it', () => {
    expect(order('no idea, where would I find that?')).toHaveProperty('problem');
    expect(order('weiß nicht, wo finde ich die?', 'de')).toHaveProperty('problem');
    expect(order("don't have it on me")).toEqual({ skip: true });
  });
});

describe('free text (issue 30)', () => {
  const fault = (reply: string, locale?: string) => {
    const prompt = locale === 'de'
      ? 'Bitte beschreiben Sie das Problem: Welche Leuchten sind betroffen, und was passiert (Flackern, gehen nicht an)? Seit wann?'
      : 'Please describe the problem: which lights are affected, and what are they doing (flickering, not turning on)? When did it start?';
    const current: OpenQuestion = { nodeId: 'q', key: 'problem', prompt, answer: { type: 'text', min: 10, max: 4000 }, required: true };
    const p = offline.extract({ text: reply, current, open: [], paths: [], now: '2026-11-25T10:00:00Z', defaultCountry: 'US', ...(locale ? { locale } : {}) });
    const u = p.updates.find((x) => x.key === 'problem');
    return u ? { value: u.value } : { problem: p.problem?.reason };
  };
  it('drops greetings and discourse words before a description, never inside it', () => {
    expect(fault('hi yes hello, so basically the lights over court 2 buzz since monday')).toEqual({ value: 'the lights over court 2 buzz since monday' });
    expect(fault('anyway court 3 lights flicker since monday')).toEqual({ value: 'court 3 lights flicker since monday' });
    expect(fault('ja hallo, also die Strahler in Halle 2 summen seit Montag', 'de')).toEqual({ value: 'die Strahler in Halle 2 summen seit Montag' });
    expect(fault('court 2 buzzes, so we switched it off')).toEqual({ value: 'court 2 buzzes, so we switched it off' });
  });
  it('asks about a description that names nothing, and keeps a short complete one', () => {
    expect(fault("they don't work")).toHaveProperty('problem');
    expect(fault('flickering')).toHaveProperty('problem');
    expect(fault('geht nicht', 'de')).toHaveProperty('problem');
    expect(fault('flackert', 'de')).toHaveProperty('problem');
    expect(fault('court 3 flickers since monday')).toEqual({ value: 'court 3 flickers since monday' });
  });
});
