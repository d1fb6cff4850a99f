import { describe, expect, it } from 'vitest';
import { parseEnum } from '../../server/extract/parse/enum.ts';
import { packOf } from '../../server/language/registry.ts';

// Options said in the visitor's own words (server/extract/parse/option-meaning.ts, time-window.ts), with the labels
// alone: word forms, the pack's meaning groups, positions, time windows, and the rule that commits only a reading
// nothing in the reply contradicts.

const NOW = '2026-01-15T10:00:00Z';
const en = packOf('en');
const de = packOf('de');
const enumOf = (pairs: Array<[string, string]>, multiple = false) => ({ type: 'enum' as const, ...(multiple ? { multiple: true } : {}), options: pairs.map(([value, label]) => ({ value, label })) });
const reason = enumOf([['unwell', 'Feeling unwell'], ['injury', 'An injury'], ['checkup', 'Check-up or physical'], ['vaccination', 'Vaccination'], ['refill', 'Prescription refill'], ['other', 'Something else'], ['sports', 'Sports physical']]);
const visit = enumOf([['unwell', 'Feeling unwell or injured'], ['routine', 'Routine visit']]);
const intent = enumOf([['buy', 'Buy new LED lighting'], ['support', 'Help with existing lights'], ['other', 'Something else']]);
const timeline = enumOf([['asap', 'As soon as possible'], ['w3', 'Within 3 months'], ['w12', 'In 3 to 12 months'], ['research', 'Just researching']]);
const zeit = enumOf([['asap', 'So bald wie möglich'], ['w3', 'Innerhalb von 3 Monaten'], ['w12', 'In 3 bis 12 Monaten'], ['research', 'Nur Recherche']]);
const committed = (r: ReturnType<typeof parseEnum>) => (r.ok && r.exact && !r.check ? r.value : r.ok ? `check ${JSON.stringify(r.value)}` : 'ask');

describe('an option said in other words', () => {
  it('reads a label word in another form (by its stem) and commits it', () => {
    expect(committed(parseEnum(reason, 'vaccines', en, NOW))).toBe('vaccination');
    expect(committed(parseEnum(reason, 'need my inhaler refilled', en, NOW))).toBe('refill');
    expect(committed(parseEnum(enumOf([['impfung', 'Impfung'], ['rezept', 'Rezept']]), 'Impfungen', de, NOW))).toBe('impfung');
  });

  it('reads the pack\'s meaning groups, the longest phrase first, for the option whose label names the group', () => {
    expect(committed(parseEnum(reason, 'flu shot', en, NOW))).toBe('vaccination');
    expect(committed(parseEnum(reason, 'twisted my ankle playing soccer', en, NOW))).toBe('injury');
    expect(committed(parseEnum(reason, 'been sick all week', en, NOW))).toBe('unwell');
    expect(committed(parseEnum(reason, 'annual physical', en, NOW))).toBe('checkup');
    expect(committed(parseEnum(intent, 'our gym lights keep flickering since the storm', en, NOW))).toBe('support');
    expect(committed(parseEnum(intent, 'buying new ones', en, NOW))).toBe('buy');
    expect(committed(parseEnum(enumOf([['buy', 'Neue LED-Beleuchtung kaufen'], ['support', 'Hilfe mit bestehender Beleuchtung']]), 'die Hallenbeleuchtung flackert seit dem Gewitter', de, NOW))).toBe('support');
  });

  it('links a group with anchors to a label by its anchors and one-word entries, never by a word inside one of its phrases', () => {
    // "note for school" is paperwork: it says nothing of a "School gym" option, so "on the invoice" is no venue
    const venue = enumOf([['court', 'Outdoor court'], ['school_gym', 'School gym'], ['arena', 'Indoor arena'], ['stadium', 'Stadium or field']]);
    expect(committed(parseEnum(venue, 'hang on its on the invoice somewhere', en, NOW))).toBe('ask');
    expect(committed(parseEnum(venue, 'the school gym', en, NOW))).toBe('school_gym');
    expect(committed(parseEnum(reason, 'a sick note', en, NOW))).toBe('other');
    expect(committed(parseEnum(intent, 'I need a copy of my invoice', en, NOW))).toBe('other');
  });

  it('takes a broader group when no label names the group itself (a vaccination is a routine visit)', () => {
    expect(committed(parseEnum(visit, 'just his 4 year shots', en, NOW))).toBe('routine');
    expect(committed(parseEnum(visit, 'cut my hand on a tin can', en, NOW))).toBe('unwell');
  });

  it('commits only what nothing in the reply contradicts: two options are asked about, a hedge or a group fitting several is checked', () => {
    expect(committed(parseEnum(reason, 'checkup and his flu shot', en, NOW))).toBe('ask');
    expect(committed(parseEnum(reason, 'my knee hurts', en, NOW))).toBe('ask'); // pain: unwell or injury
    expect(committed(parseEnum(reason, 'twisted my ankle, it hurts', en, NOW))).toBe('check "injury"');
    expect(committed(parseEnum(reason, 'maybe his vaccines?', en, NOW))).toBe('check "vaccination"');
    expect(committed(parseEnum(intent, 'the warranty replacement you sent is the wrong colour', en, NOW))).toBe('ask');
    expect(committed(parseEnum(intent, 'i want to sell you some poles', en, NOW))).toBe('ask');
    // a negated group is no evidence
    expect(committed(parseEnum(intent, "it's not broken, we just want a quote", en, NOW))).toBe('buy');
    // a label word alone in a long reply is a weak sign: checked ("LED" is the business, not a purchase)
    expect(committed(parseEnum(intent, "we're fans of LED drivers and would like to chat", en, NOW))).toBe('check "buy"');
    // beside a supplier's words it gives way to the menu's "Something else" (the business group)
    expect(committed(parseEnum(intent, "we're a manufacturer of LED drivers and would like to supply you", en, NOW))).toBe('other');
  });

  it('takes an option by its position', () => {
    expect(committed(parseEnum(intent, 'Option 2', en, NOW))).toBe('support');
    expect(committed(parseEnum(intent, 'the second one please', en, NOW))).toBe('support');
    expect(committed(parseEnum(intent, 'the last one', en, NOW))).toBe('other');
    expect(committed(parseEnum(intent, 'Nr. 2', de, NOW))).toBe('support');
    expect(committed(parseEnum(intent, 'die zweite', de, NOW))).toBe('support');
    expect(committed(parseEnum(intent, 'option 7', en, NOW))).toBe('ask');
  });

  it('reads a date or period against options that are windows of time, from the session clock', () => {
    expect(committed(parseEnum(timeline, 'by end of february if possible', en, NOW))).toBe('w3');
    expect(committed(parseEnum(timeline, 'mid next month', en, NOW))).toBe('w3');
    expect(committed(parseEnum(timeline, 'in 6 months or so', en, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'next fall', en, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'asap, season starts soon', en, NOW))).toBe('asap');
    expect(committed(parseEnum(zeit, 'bis Ende Februar', de, NOW))).toBe('w3');
    expect(committed(parseEnum(zeit, 'bis zum 15.03.', de, NOW))).toBe('w3');
    expect(committed(parseEnum(zeit, 'zum Saisonstart im August', de, NOW))).toBe('w12');
    // across two windows, or beyond every window: asked, never guessed
    expect(committed(parseEnum(timeline, 'in 3 months', en, NOW))).toBe('ask');
    expect(committed(parseEnum(timeline, 'next spring', en, NOW))).toBe('ask');
    // (Easter 2026 is 5 April: the week after it ends more than three days before the 3-month boundary of mid-January)
    expect(committed(parseEnum(zeit, 'nach Ostern', de, NOW))).toBe('w3');
    // a span ending within ten days is as soon as possible; relative durations and holidays by date arithmetic
    expect(committed(parseEnum(timeline, 'next week', en, NOW))).toBe('asap');
    expect(committed(parseEnum(zeit, 'nächste Woche wär super', de, NOW))).toBe('asap');
    expect(committed(parseEnum(timeline, 'in two weeks', en, NOW))).toBe('w3');
    expect(committed(parseEnum(timeline, 'within 90 days', en, NOW))).toBe('w3');
    expect(committed(parseEnum(zeit, 'in nem halben Jahr', de, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'by christmas', en, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'fall 2026', en, NOW))).toBe('w12');
    expect(committed(parseEnum(timeline, 'next quarter', en, NOW))).toBe('ask');
    expect(committed(parseEnum(timeline, 'sometime in 2027', en, NOW))).toBe('ask');
    // the same words a month later: the windows move with the clock
    expect(committed(parseEnum(timeline, 'by end of february', en, '2025-08-01T10:00:00Z'))).toBe('w12');
  });

  it('takes every option named at a multiple choice, and checks one it cannot place', () => {
    const services = enumOf([['cleaning', 'Cleaning'], ['repair', 'Repair'], ['installation', 'Installation'], ['inspection', 'Inspection']], true);
    const vet = enumOf([['checkup', 'Check-up'], ['vaccination', 'Vaccination'], ['sick', 'Sick']], true);
    // (not `exact` beside words such as "a": the commit rule then finds every word explained and commits the list)
    expect(parseEnum(services, 'cleaning and a repair', en, NOW)).toMatchObject({ ok: true, value: ['cleaning', 'repair'] });
    expect(parseEnum(vet, 'checkup and his flu shot', en, NOW)).toMatchObject({ ok: true, value: ['checkup', 'vaccination'], evidence: 'checkup, flu shot' });
    // bare numbers name options by their place in a list the widget does not number: read, and checked
    expect(parseEnum(services, '1 und 3', de, NOW)).toMatchObject({ ok: true, value: ['cleaning', 'installation'], check: true });
    // "nail trim" is no option: the reading is not exact, and its words are left for the commit rule to check
    expect(parseEnum(vet, 'booster and nail trim', en, NOW)).toMatchObject({ ok: true, value: ['vaccination'], evidence: 'booster', exact: false });
  });
});

describe('a reply to the path prompt', () => {
  it('is read with the same understanding of options, and a phrase example pointing elsewhere leaves no vote', async () => {
    const { votePath } = await import('../../server/extract/offline/path-vote.ts');
    const paths = [
      { name: 'buy_led', label: 'Buy LED lighting', examples: ['buy', 'quote', 'lights for a court'] },
      { name: 'support', label: 'Support', examples: ['broken', 'warranty'] },
    ];
    const atPrompt = { now: NOW };
    expect(votePath('the ones we got from you last year keep cutting out', paths, 'en', atPrompt)).toEqual({ path: 'support', confidence: 1 });
    expect(votePath('buying new ones', paths, 'en', atPrompt)).toEqual({ path: 'buy_led', confidence: 1 });
    // the words of an example ("lights", "court") are a weak hint: the fault said beside them decides
    expect(votePath('our court lights keep tripping the breaker', paths, 'en', atPrompt)).toEqual({ path: 'support', confidence: 1 });
    expect(votePath('a quote, the old ones are broken', paths, 'en', atPrompt)).toBeUndefined();
    // elsewhere in the flow a message votes by its example phrases only, as before
    expect(votePath('the ones we got from you last year keep cutting out', paths, 'en')).toBeUndefined();
  });
});

describe('a list of symptoms said in the visitor\'s words (labels alone)', () => {
  const symptoms = enumOf([['chest_pain', 'Chest pain or tightness'], ['breath', 'Shortness of breath'], ['fever', 'Fever'], ['cough', 'Cough'], ['throat', 'Sore throat'],
    ['headache', 'Headache'], ['dizzy', 'Dizziness or fainting'], ['belly', 'Stomach or abdominal pain'], ['nausea', 'Nausea or vomiting'], ['rash', 'Rash or skin problem'],
    ['injury', 'Pain from an injury'], ['other', 'Something else']], true);
  const read = (reply: string) => {
    const r = parseEnum(symptoms, reply, en, NOW);
    return r.ok ? { value: r.value, check: r.check === true, described: r.described ?? [] } : 'ask';
  };

  it('reads a clause naming one symptom with where, when or how as a description of it', () => {
    expect(read('rash on my arms')).toEqual({ value: ['rash'], check: false, described: ['rash on my arms'] });
    expect(read('passed out yesterday at work')).toEqual({ value: ['dizzy'], check: false, described: ['passed out yesterday at work'] });
    expect(read('ankle hurts from when I fell')).toEqual({ value: ['injury'], check: false, described: ['ankle hurts from when I fell'] });
    expect(read('temp of 39.2 last night')).toEqual({ value: ['fever'], check: false, described: ['temp of 39.2 last night'] });
  });

  it('reads several symptoms by meaning, a degree before one being no hedge', () => {
    expect(read('threw up twice and my tummy hurts')).toMatchObject({ value: ['belly', 'nausea'], check: false });
    expect(read('headache, kind of dizzy')).toMatchObject({ value: ['headache', 'dizzy'], check: false });
  });

  it('names "Something else" for a symptom off the menu, alone or beside others; a part of the body said as a place is no option', () => {
    expect(read('earache')).toMatchObject({ value: ['other'] });
    expect(read('cough and a runny nose')).toMatchObject({ value: ['cough', 'other'], check: false });
    expect(read('rash on my chest')).toEqual({ value: ['rash'], check: false, described: ['rash on my chest'] });
    const none = read('none of those, my ear hurts');
    expect(none).toMatchObject({ value: ['other'], check: false });
    expect(typeof none === 'string' ? [] : none.described).toContain('none of those');
    // at "What brings you in?" the same words are feeling unwell; a part of the body alone is an illness or an injury
    expect(committed(parseEnum(reason, 'diarrhoea since friday', en, NOW))).toBe('unwell');
    expect(committed(parseEnum(reason, 'my back', en, NOW))).not.toBe('unwell');
  });

  it('does not describe away a word of another option, a negation or a hedge, and checks a word that only begins an option', () => {
    expect(read('rash with neck pain')).toMatchObject({ value: ['rash', 'other'] });
    expect(read('rash and my head')).toMatchObject({ value: ['headache', 'rash'], check: true });
    expect(read('rash but not itchy')).toMatchObject({ described: [] });
    expect(read('head')).toMatchObject({ value: ['headache'], check: true });
    expect(read('my head hurts')).toMatchObject({ value: ['headache'], check: false });
  });
});

describe('words that say something else, and the more specific of two options', () => {
  const sex = enumOf([['female', 'Female'], ['male', 'Male'], ['intersex', 'Intersex'], ['prefer_not_to_say', 'Prefer not to say']]);
  const visits = { type: 'enum' as const, options: [...reason.options] };
  it('voids an option word inside a gender said, and asks about one word for a sex beside it', () => {
    expect(committed(parseEnum(sex, 'trans man', en, NOW))).toBe('ask');
    expect(committed(parseEnum(sex, 'male, he transitioned last year', en, NOW))).toBe('ask');
    expect(committed(parseEnum(sex, "assigned female at birth, I'm a trans man", en, NOW))).toBe('female');
    expect(committed(parseEnum(sex, 'AMAB', en, NOW))).toBe('male');
    expect(committed(parseEnum(sex, 'Transfrau', de, NOW))).toBe('ask');
  });
  it('takes the option whose label holds the other one\'s word and more, a sport only beside it', () => {
    expect(committed(parseEnum(visits, 'physical for basketball tryouts', en, NOW))).toBe('sports');
    expect(committed(parseEnum(visits, 'annual physical', en, NOW))).toBe('checkup');
    expect(committed(parseEnum(visits, 'twisted my ankle at soccer', en, NOW))).toBe('injury');
    expect(committed(parseEnum(visits, 'my knee has been hurting since i fell last week', en, NOW))).toBe('injury');
  });
});
