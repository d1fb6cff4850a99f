import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { contactFollowUp } from '../../server/extract/offline/contact-follow-up.ts';
import { findPhones, parsePhone } from '../../server/extract/parse/phone.ts';
import { packOf } from '../../server/language/registry.ts';

// A reply at a phone or email question the bot asked back about, read with the reply before it
// (server/extract/offline/contact-follow-up.ts); and a number too short or too long for its kind (parse/phone.ts).

const phone: OpenQuestion = { nodeId: 'q.phone', key: 'phone', required: false, answer: { type: 'phone' } };
const email: OpenQuestion = { nodeId: 'q.email', key: 'email', required: false, answer: { type: 'email' } };
const us = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };
const de = { now: '2026-01-15T10:00:00Z', defaultCountry: 'DE', locale: 'de' };
const en = packOf('en');
const german = packOf('de');
const valueOf = (r: ReturnType<typeof contactFollowUp>) => (r && r.ok ? r.value : null);

describe('a follow-up at a phone question', () => {
  it('puts the area code said in front of the number given without it', () => {
    expect(valueOf(contactFollowUp(phone, 'area code 312', '555-0148', us, en))).toBe('+13125550148');
    expect(valueOf(contactFollowUp(phone, 'sorry, 718', '555 0166', us, en))).toBe('+17185550166');
    expect(valueOf(contactFollowUp(phone, 'Vorwahl ist 089', '1234567', de, german))).toBe('+49891234567');
    // no valid number with it: nothing
    expect(valueOf(contactFollowUp(phone, 'area code 11', '555-0148', us, en))).toBeNull();
  });

  it('picks one of two numbers by the word beside it or its place, and only one', () => {
    const two = 'office 317-555-0110 or cell 317-555-0188';
    expect(valueOf(contactFollowUp(phone, 'the cell', two, us, en))).toBe('+13175550188');
    expect(valueOf(contactFollowUp(phone, 'office', two, us, en))).toBe('+13175550110');
    expect(valueOf(contactFollowUp(phone, 'the first one is my cell', 'Call 480 555 0166 or 480 555 0167', us, en))).toBe('+14805550166');
    expect(valueOf(contactFollowUp(phone, 'last one', '617 555 0102, 617 555 0190', us, en))).toBe('+16175550190');
    expect(valueOf(contactFollowUp(phone, 'Handy', 'Büro 08031 123456 oder Handy 0151 98765432', de, german))).toBe('+4915198765432');
    // both named, or neither: asked again
    expect(valueOf(contactFollowUp(phone, 'office, or cell after 5', two, us, en))).toBeNull();
    expect(valueOf(contactFollowUp(phone, 'whichever', two, us, en))).toBeNull();
    // "one" is a count, not a place
    expect(valueOf(contactFollowUp(phone, 'one', two, us, en))).toBeNull();
  });

  it('applies an edit of the digits said in words', () => {
    expect(valueOf(contactFollowUp(phone, 'sorry, missed an 8 at the end', '312 555 014', us, en))).toBe('+13125550148');
    expect(valueOf(contactFollowUp(phone, 'da fehlt eine 8 am Ende', '0171 234567', de, german))).toBe('+491712345678');
  });

  it('leaves a reply with a number of its own to the parser', () => {
    expect(contactFollowUp(phone, 'no, 312 555 0177', '555-0148', us, en)).toBeNull();
  });
});

describe('a follow-up at an email question', () => {
  it('completes an address typed without its end', () => {
    expect(valueOf(contactFollowUp(email, '.ch natürlich', 'b.zuercher@bluewin', de, german))).toBe('b.zuercher@bluewin.ch');
    expect(valueOf(contactFollowUp(email, 'ja, .at mit Punkt', 'sepp.huber@gmx,at', de, german))).toBe('sepp.huber@gmx.at');
    expect(valueOf(contactFollowUp(email, 'gmail.com', 'dreynolds@gmail', us, en))).toBe('dreynolds@gmail.com');
    expect(valueOf(contactFollowUp(email, 'oops, .co.uk', 'sam@btinternet', us, en))).toBe('sam@btinternet.co.uk');
    // another provider than the one typed: not this address
    expect(valueOf(contactFollowUp(email, 'hotmail.com', 'jordan.p@outlook', us, en))).toBeNull();
  });

  it('picks one of two addresses by the word beside it or its provider', () => {
    expect(valueOf(contactFollowUp(email, 'work one', 'work: b.hall@maplegrove.gov or personal bhall77@gmail.com', us, en))).toBe('b.hall@maplegrove.gov');
    expect(valueOf(contactFollowUp(email, 'use the yahoo', 'my work one is kobrien@lakesidetc.com but I check personal more, kevob77@yahoo.com', us, en))).toBe('kevob77@yahoo.com');
    expect(valueOf(contactFollowUp(email, 'die geschäftliche', 'reto.brunner@gmx.ch oder geschäftlich r.brunner@emmen.ch', de, german))).toBe('r.brunner@emmen.ch');
  });
});

describe('a phone number of a length its kind does not have', () => {
  it('is asked again as too short or too long, in the visitor language', () => {
    const short = parsePhone('0162 12345', de);
    expect(short.ok).toBe(false);
    expect(!short.ok && short.reason).toMatch(/zu kurz/);
    expect(parsePhone('0152 345', de).ok).toBe(false);
    const long = parsePhone('0171 23456789012', de);
    expect(!long.ok && long.reason).toMatch(/zu lang/);
    const gb = parsePhone('07911 1234', { now: us.now, defaultCountry: 'GB' });
    expect(!gb.ok && gb.reason).toMatch(/too short/);
    // whole numbers of either kind stay numbers; a short landline number is a whole number in Germany
    expect(parsePhone('0162 1234567', de)).toMatchObject({ ok: true, value: '+491621234567' });
    expect(parsePhone('06221 12345', de)).toMatchObject({ ok: true, value: '+49622112345' });
  });

  it('is no number found beside other words either', () => {
    expect(findPhones('Handy 0162 12345, danke', de)).toEqual([]);
  });
});

describe('two numbers listed with a comma', () => {
  it('are two numbers, not a number with an extension', () => {
    expect(findPhones('617 555 0102, 617 555 0190', us).map((f) => f.value)).toEqual(['+16175550102', '+16175550190']);
    expect(findPhones('0221 7654321, 0176 12345678', de).map((f) => f.value)).toEqual(['+492217654321', '+4917612345678']);
    expect(findPhones('(713) 555-0100 ext. 214', us).map((f) => f.value)).toEqual(['+17135550100']);
  });
});
