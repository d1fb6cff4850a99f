import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { packOf } from '../../server/language/registry.ts';
import { say } from '../../server/language/parser-messages.ts';

// Replies that are no answer at a text or yes/no question (server/extract/offline/not-an-answer.ts, short-text.ts;
// docs/understanding.md "Short text and codes"). The eval files test/eval/not-an-answer.yaml and de-not-an-answer.yaml hold
// the cases; this file pins which question back the visitor gets.
const offline = new OfflineExtractor();
const read = (q: Omit<OpenQuestion, 'nodeId'>, reply: string, locale?: string) => {
  const p = offline.extract({ text: reply, current: { nodeId: 'q', ...q }, open: [], paths: [], now: '2026-11-25T10:00:00Z', defaultCountry: 'US', ...(locale ? { locale } : {}) });
  const u = p.updates.find((x) => x.key === q.key);
  return u ? { value: u.value } : p.unknown.includes(q.key) ? { skip: true } : { problem: p.problem?.reason };
};
const en = packOf('en');
const de = packOf('de');
const issue = (reply: string) => read({ key: 'issue', prompt: 'Please describe the issue: what is happening, on which device, and since when?', answer: { type: 'text', min: 10, max: 3000 }, required: true }, reply);
const need = (reply: string, required = true) => read({ key: 'details', prompt: "Tell us a little about what you need and we'll pass it on.", answer: { type: 'text', min: 10, max: 2000 }, required }, reply);
const notes = (reply: string) => read({ key: 'notes', prompt: 'Anything else we should know? (Optional — say skip.)', answer: { type: 'text', max: 2000 }, required: false }, reply);
const anliegen = (reply: string) => read({ key: 'anliegen', prompt: 'Erzählen Sie mir kurz, worum es geht.', answer: { type: 'text', min: 10, max: 2000 }, required: true }, reply, 'de');
const stoerung = (reply: string) => read({ key: 'stoerung', prompt: 'Bitte beschreiben Sie die Störung: Was passiert, an welchem Gerät?', answer: { type: 'text', min: 10, max: 2000 }, required: true }, reply, 'de');
const leak = (reply: string) => read({ key: 'leak', prompt: 'Is water still coming through the ceiling?', answer: { type: 'boolean', synonyms: { true: ['dripping'], false: ['dry'] } }, required: true }, reply);

describe('a question of the visitor\'s own instead of the answer', () => {
  it('is answered with "I can\'t answer that here" and the question again, never stored', () => {
    expect(issue('is this covered by the warranty?')).toEqual({ problem: say(en, 'ownQuestion') });
    expect(issue('who do I complain to')).toEqual({ problem: say(en, 'ownQuestion') });
    expect(stoerung('Was kostet ein Technikerbesuch?')).toEqual({ problem: say(de, 'ownQuestion') });
  });
  it('is kept when it names something, and where the prompt asks what the visitor needs', () => {
    expect(issue('the screen flickers when I open excel, is that covered?')).toEqual({ value: 'the screen flickers when I open excel, is that covered?' });
    expect(need('do you do solar panels too?')).toEqual({ value: 'do you do solar panels too?' });
    expect(notes('can someone call me before the visit?')).toEqual({ value: 'can someone call me before the visit?' });
  });
});

describe('a request or a non-description at a required description', () => {
  it('is asked what it is about', () => {
    expect(need('can someone call me')).toEqual({ problem: say(en, 'whatAbout') });
    expect(need('just browsing')).toEqual({ problem: say(en, 'whatAbout') });
    expect(need('your ad on facebook')).toEqual({ problem: say(en, 'whatAbout') });
    expect(anliegen('Rückruf bitte')).toEqual({ problem: say(de, 'whatAbout') });
  });
  it('is kept at an optional question, and when it says what about', () => {
    expect(need('can someone call me', false)).toEqual({ value: 'can someone call me' });
    expect(need('can someone call me about my order')).toEqual({ value: 'can someone call me about my order' });
  });
});

describe('not knowing, or someone else holding the answer, with nothing else of substance', () => {
  it('is asked again at a required question and skipped at an optional one', () => {
    expect(issue('idk the facilities guy just told me to contact you')).toEqual({ problem: say(en, 'moreDetail') });
    expect(read({ key: 'meds', prompt: 'Which medicines do you take?', answer: { type: 'text', max: 2000 }, required: true }, 'my wife has the list')).toEqual({ problem: say(en, 'moreDetail') });
    expect(read({ key: 'meds', prompt: 'Which medicines do you take?', answer: { type: 'text', max: 2000 }, required: false }, 'ask my wife')).toEqual({ skip: true });
  });
  it('is kept when it names something', () => {
    expect(issue('no idea why, the whole third floor lost wifi this morning')).toEqual({ value: 'no idea why, the whole third floor lost wifi this morning' });
  });
});

describe('a question back about the word a yes/no is read from', () => {
  it('asks the question again instead of reading the synonym', () => {
    expect(leak('define dripping')).toEqual({ problem: say(en, 'askedBack') });
    expect(leak('dripping in what way')).toEqual({ problem: say(en, 'askedBack') });
    expect(leak('still dripping')).toEqual({ value: true });
  });
});

describe('a yes/no answered with a question, the items not known, what is taken as known', () => {
  const takes = (reply: string) => read({ key: 'takes', prompt: 'Do you take any medications at the moment?', answer: { type: 'boolean' }, required: true }, reply);
  const meds = (reply: string) => read({ key: 'meds', prompt: 'Which medicines do you take?', answer: { type: 'text', max: 2000 }, required: true }, reply);
  it('asks a yes/no back when every clause asks and no yes or no word is said', () => {
    expect(takes('does weed count')).toEqual({ problem: say(en, 'askedBack') });
    expect(takes('yes, does that count?')).not.toEqual({ problem: say(en, 'askedBack') });
  });
  it('asks again for a kind beside "can\'t remember which", keeps "can\'t remember the dose"', () => {
    expect(meds('a few antibiotics, cant remember which')).toEqual({ problem: say(en, 'moreDetail') });
    expect(meds('amlodipine, cant remember the dose')).toEqual({ value: 'amlodipine, cant remember the dose' });
  });
  it('asks "the usual" to be typed here', () => {
    expect(meds('his usual ones')).toEqual({ problem: say(en, 'pointsElsewhere') });
  });
});

describe('session 8: replies that name nothing or decline', () => {
  const allergies = (reply: string) => read({ key: 'allergies', prompt: 'What are you allergic to, and what happens when you are exposed?', answer: { type: 'text', min: 2, max: 1000 }, required: true }, reply);
  const provider = (reply: string) => read({ key: 'insurance_provider', prompt: 'Who is your insurance provider?', answer: { type: 'text', min: 2, max: 120 }, required: true }, reply);
  const company = (reply: string, locale?: string) => read({ key: 'company', prompt: locale === 'de' ? 'Für welche Schule oder welchen Verein ist das Projekt? (Sagen Sie „überspringen“, wenn es privat ist.)' : "Which school or club is the project for? (Say skip if it's a private project.)", answer: { type: 'text', min: 2, max: 200 }, required: false }, reply, locale);
  it('asks again when the reply is only words that name nothing in particular', () => {
    expect(allergies('stuff')).toEqual({ problem: say(en, 'moreDetail') });
    expect(allergies('random stuff lol')).toEqual({ problem: say(en, 'moreDetail') });
    expect(allergies('dust and stuff like that')).toEqual({ value: 'dust and stuff like that' });
  });
  it('asks again when not knowing is said beside where the answer is kept', () => {
    expect(provider('idk its on the card somewhere')).toEqual({ problem: say(en, 'moreDetail') });
    expect(provider('its aetna thru my husbands job')).toEqual({ value: 'aetna' });
  });
  it('asks for a sentence when one topic word answers what the visitor needs', () => {
    expect(need('partnership')).toEqual({ problem: say(en, 'whatAbout') });
    expect(anliegen('eine Kooperation')).toEqual({ problem: say(de, 'whatAbout') });
    expect(need('solar carports')).toEqual({ value: 'solar carports' });
    expect(need('question about my order')).toEqual({ value: 'question about my order' });
  });
  it('skips an optional text question on a refusal or a polite decline, in dialect too', () => {
    expect(company('dont want to say')).toEqual({ skip: true });
    expect(company('möcht i ned sagen', 'de')).toEqual({ skip: true });
    expect(company('geht Sie nichts an', 'de')).toEqual({ skip: true });
    expect(notes('nah im good')).toEqual({ skip: true });
    expect(notes("I'm good, thank you")).toEqual({ skip: true });
    expect(notes('I\'m good with needles but I faint sometimes')).toEqual({ value: "I'm good with needles but I faint sometimes" });
  });
});
