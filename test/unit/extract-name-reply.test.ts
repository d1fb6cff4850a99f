import { describe, expect, it } from 'vitest';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { nameQuestion } from '../../server/extract/offline/name-reply.ts';
import { packOf } from '../../server/language/registry.ts';

// Replies at a name question (server/extract/offline/name-reply.ts), through the offline extractor.
const offline = new OfflineExtractor();
const text: AnswerSpec = { type: 'text', min: 2, max: 120 };
const ask = (key: string, prompt: string, reply: string, locale?: string) => {
  const current: OpenQuestion = { nodeId: 'q', key, prompt, answer: text, required: true };
  const p = offline.extract({ text: reply, current, open: [], paths: [], now: '2026-11-25T10:00:00Z', defaultCountry: 'US', ...(locale ? { locale } : {}) });
  const u = p.updates.find((x) => x.key === key);
  return u ? { value: u.value, confirm: u.confirm === true, evidence: u.evidence } : { problem: p.problem?.reason };
};
const speaker = (reply: string) => ask('name', 'Who am I chatting with?', reply);
const patient = (reply: string) => ask('full_name', "What is the patient's full legal name?", reply);
const contact = (reply: string) => ask('emergency_contact_name', 'Who should we contact in an emergency? Please give their name and relationship to the patient.', reply);
const german = (reply: string) => ask('name', 'Mit wem spreche ich?', reply, 'de');

describe('a name question the flow did not declare', () => {
  const q = (key: string, prompt: string, locale = 'en') => nameQuestion({ nodeId: 'q', key, prompt, answer: text, required: true }, packOf(locale));
  it('is inferred from the key or the prompt, with whose name is asked', () => {
    expect(q('guardian_name', 'Who is with the patient?')).toMatchObject({ whose: 'respondent' });
    expect(q('full_name', "What is the patient's full legal name?")).toMatchObject({ whose: 'subject', full: true });
    expect(q('emergency_contact_name', 'Their name and relationship?')).toMatchObject({ whose: 'contact', relation: true });
    expect(q('visitor', "What's your name?")).toMatchObject({ whose: 'respondent', full: false });
    expect(q('ansprechpartner', 'Wie heißen Sie?', 'de')).toMatchObject({ whose: 'respondent' });
  });
  it('is not inferred for a company, a club or a free text question', () => {
    expect(q('company_name', 'What is the name of your company?')).toBeNull();
    expect(q('club_name', 'Which club are you with?')).toBeNull();
    expect(q('problem', 'Please describe the problem.')).toBeNull();
  });
});

describe('introductions, sign-offs and how a name is written', () => {
  it('drops the introduction or sign-off and capitalises a name typed in lower case', () => {
    expect(speaker("i'm dave")).toMatchObject({ value: 'Dave', confirm: false });
    expect(speaker('Hannah here')).toMatchObject({ value: 'Hannah', confirm: false });
    expect(speaker('my name is fatima el amrani')).toMatchObject({ value: 'Fatima El Amrani' });
  });
  it("keeps titles, particles, apostrophes, hyphens and the visitor's own capitals", () => {
    expect(speaker('this is Dr. Aisha Rahman')).toMatchObject({ value: 'Dr. Aisha Rahman' });
    expect(speaker("mrs o'brien")).toMatchObject({ value: "Mrs O'Brien" });
    expect(speaker('pieter van der merwe')).toMatchObject({ value: 'Pieter van der Merwe' });
    expect(speaker('anne-sophie leclerc-dubois')).toMatchObject({ value: 'Anne-Sophie Leclerc-Dubois' });
    expect(speaker('DeShawn McKenzie')).toMatchObject({ value: 'DeShawn McKenzie' });
    expect(speaker('Okonkwo, Chidi')).toMatchObject({ value: 'Chidi Okonkwo', confirm: false });
  });
  it('reads German introductions and keeps a title', () => {
    expect(german('Ich bin Jörg Müller')).toMatchObject({ value: 'Jörg Müller', confirm: false });
    expect(german('Hier ist Frau Dr. Schmidt')).toMatchObject({ value: 'Frau Dr. Schmidt' });
    expect(german('katrin vogt hier')).toMatchObject({ value: 'Katrin Vogt' });
    expect(german('Ich bin der Hausmeister, Klaus Becker')).toMatchObject({ value: 'Klaus Becker', confirm: false });
  });
});

describe('a name with more words after it', () => {
  it('commits the name when a job title or company after a comma explains the rest', () => {
    expect(speaker('James Whitfield-Hughes, club manager at Riverside')).toMatchObject({ value: 'James Whitfield-Hughes', confirm: false });
    expect(speaker('Rory Fitzgerald from Lakeside Padel')).toMatchObject({ value: 'Rory Fitzgerald', confirm: false });
  });
  it('checks the name once when the rest is unexplained', () => {
    expect(speaker('James Whitfield-Hughes club manager')).toMatchObject({ value: 'James Whitfield-Hughes', confirm: true });
    // a statement naming no one explains itself; a doubt is checked
    expect(patient("Ava Grace McAllister, she's 6")).toMatchObject({ value: 'Ava Grace McAllister', confirm: false });
    expect(patient("Ava Grace McAllister, I'm not sure")).toMatchObject({ value: 'Ava Grace McAllister', confirm: true });
  });
});

describe('a reply that is no name', () => {
  it('is asked again with a reason, never stored', () => {
    // a question back about why it is asked is the question again (offline-extractor asksBack), not "I need a name"
    expect(speaker('why do you need that')).toEqual({ problem: "Sorry if that wasn't clear — here is the question again." });
    for (const reply of ['just want a price', 'the manager', 'the club manager', "i'm bringing my daughter in", 'he has had a fever since tuesday', '2014-06-02', 'nope']) {
      expect(speaker(reply)).toEqual({ problem: 'Sorry, I need a name here.' });
    }
    expect(german('warum wollen Sie das wissen?')).toEqual({ problem: 'Entschuldigung, wenn das unklar war — hier noch einmal die Frage.' });
    expect(german('mit dem Hausmeister')).toEqual({ problem: 'Ich brauche hier einen Namen.' });
  });
});

describe('whose name is asked', () => {
  it("takes the patient's name from a parent's reply, and asks when only the parent's is given", () => {
    expect(patient("I'm his dad, he's called Leo Park")).toMatchObject({ value: 'Leo Park' });
    expect(patient('i\'m his father, michael brennan')).toEqual({ problem: "Thanks — that's your own name." });
    expect(patient('Sofia')).toEqual({ problem: 'Could I have the full name, first and last?' });
  });
  it("takes the speaker's name at the guardian's question", () => {
    expect(ask('guardian_name', 'What is the name of the parent or legal guardian attending?', "i'm his father, michael brennan")).toMatchObject({ value: 'Michael Brennan' });
    expect(ask('guardian_name', 'What is the name of the parent or legal guardian attending?', 'Jennifer Walsh-Park, his mother')).toMatchObject({ value: 'Jennifer Walsh-Park' });
  });
  it("keeps an emergency contact's name with the relationship the prompt asks for", () => {
    expect(contact('my husband Dave Ruiz')).toMatchObject({ value: 'Dave Ruiz, husband' });
    expect(contact('John Doe, husband')).toMatchObject({ value: 'John Doe, husband' });
    expect(contact('Maria')).toEqual({ problem: 'Please give their name and how they are related, for example “Maria Lopez, sister”.' });
    expect(contact('me')).toEqual({ problem: 'That should be someone other than you.' });
  });
});

describe('lead-ins, surnames first, legal names, initials and courtesy titles (issue 30)', () => {
  it('drops a discourse lead-in before a name without a check, in English and German', () => {
    expect(speaker('oh lol, Carla Mendes')).toMatchObject({ value: 'Carla Mendes', confirm: false });
    expect(speaker('alright then, Priya Raman')).toMatchObject({ value: 'Priya Raman', confirm: false });
    expect(german('Ach so, Peter Brandt')).toMatchObject({ value: 'Peter Brandt', confirm: false });
    expect(german('achso, ute fromm')).toMatchObject({ value: 'Ute Fromm', confirm: false });
    expect(german('ich bin die Sabine Müller')).toMatchObject({ value: 'Sabine Müller', confirm: false });
  });
  it('turns a surname with particles given first round, and never reads particles alone as a name', () => {
    expect(patient('van der Merwe, Pieter')).toMatchObject({ value: 'Pieter van der Merwe', confirm: false });
    expect(patient('van den bosch, joris')).toMatchObject({ value: 'Joris van den Bosch', confirm: false });
    expect(patient('de la, Maria')).toHaveProperty('problem');
  });
  it('takes the legal given name beside the usual one', () => {
    expect(patient('Bob Smith, well Robert legally')).toMatchObject({ value: 'Robert Smith', confirm: false });
    expect(patient('Bob Jenkins Jr. (legally Robert)')).toMatchObject({ value: 'Robert Jenkins Jr.', confirm: false });
    expect(patient('Liz Moreno, legal name is Elizabeth')).toMatchObject({ value: 'Elizabeth Moreno', confirm: false });
  });
  it('reads initials written together', () => {
    expect(speaker('J.R. Martinez')).toMatchObject({ value: 'J.R. Martinez', confirm: false });
    expect(speaker("it's t.j. brennan")).toMatchObject({ value: 'T.J. Brennan' });
    expect(speaker('J.R.')).toHaveProperty('problem');
  });
  it('drops a courtesy title before a full name, keeps it before a surname alone, and reads a relation said as a clause', () => {
    expect(contact("Mr. Joseph O'Connor, neighbor")).toMatchObject({ value: "Joseph O'Connor, neighbor", confirm: false });
    expect(contact('Mrs. Okafor, neighbour')).toMatchObject({ value: 'Mrs. Okafor, neighbour' });
    expect(contact("Sarah Carter, she's his mum")).toMatchObject({ value: 'Sarah Carter, mother', confirm: false });
    expect(contact('Linda Park')).toHaveProperty('problem');
  });
});

describe('what is said beside a name (session 6)', () => {
  it('takes a remark in small letters after a name typed with capitals as an aside, not a doubt', () => {
    expect(speaker('Fr. Thomas Nguyen, the parish runs the school gym')).toMatchObject({ value: 'Fr. Thomas Nguyen', confirm: false });
    expect(speaker('Owen Price, moved here last spring')).toMatchObject({ value: 'Owen Price', confirm: false });
    expect(patient('its my grandpa, Walter Eugene Price. hes 88 and hard of hearing so im typing')).toMatchObject({ value: 'Walter Eugene Price', confirm: false });
    // a doubt, talk of the name, or a reply all in small letters is still checked
    expect(speaker('Owen Price, not sure the booking is under that')).toMatchObject({ value: 'Owen Price', confirm: true });
    expect(speaker('Jamie Ortiz, the invoice has it spelled differently')).toMatchObject({ confirm: true });
    expect(speaker('owen price, moved here last spring')).toMatchObject({ confirm: true });
  });
  it('reads the name now, which word is the family name and the parts given by label', () => {
    expect(patient('Sarah Miller — sorry, Sarah Miller-Chen now, got married last year')).toMatchObject({ value: 'Sarah Miller-Chen', confirm: false });
    expect(patient('Kim Min-jun (Kim is the family name)')).toMatchObject({ value: 'Kim Min-jun', confirm: false });
    expect(patient('last name Kowalski, first Piotr')).toMatchObject({ value: 'Piotr Kowalski', confirm: false });
    expect(patient('my son Ethan, surname Okafor')).toMatchObject({ value: 'Ethan Okafor', confirm: false });
    expect(patient('Leo Marchetti, surname Rossi')).toMatchObject({ confirm: true });
    expect(german('Nachname Krüger, Vorname Bernd')).toMatchObject({ value: 'Bernd Krüger', confirm: false });
  });
  it('reads the name on paperwork, "me again", a name started again after an ellipsis and a role after the name', () => {
    expect(speaker('Mike Brennan (Michael on paperwork)')).toMatchObject({ value: 'Michael Brennan' });
    expect(patient('bob smith but legally its robert smith')).toMatchObject({ value: 'Robert Smith' });
    expect(speaker('me again, Tom')).toMatchObject({ value: 'Tom', confirm: false });
    expect(speaker('Imogen... Imogen Pryce')).toMatchObject({ value: 'Imogen Pryce', confirm: false });
    expect(speaker('Dr. Raj Patel, athletic director')).toMatchObject({ value: 'Dr. Raj Patel', confirm: false });
    expect(speaker('chris p. @ riverside ymca')).toMatchObject({ value: 'Chris P.', confirm: false });
    expect(german('Dr. Klaus von der Heide, Schulleiter')).toMatchObject({ value: 'Dr. Klaus von der Heide', confirm: false });
  });
  it('records a contact with the role or the speaker\'s relation to the patient', () => {
    expect(contact('his case worker Angela Ruiz')).toMatchObject({ value: 'Angela Ruiz, case worker' });
    expect(contact('Bea Lindqvist, his teacher')).toMatchObject({ value: 'Bea Lindqvist, teacher' });
    expect(contact("me, I'm his dad. Daniel Kowalczyk")).toMatchObject({ value: 'Daniel Kowalczyk, father' });
    expect(contact('me, Greg Tull')).toMatchObject({ problem: expect.stringContaining('someone other than you') });
  });
  it('reads German articles, dialect and courtesy titles', () => {
    expect(german('ich bin die Steffi vom TSV')).toMatchObject({ value: 'Steffi' });
    expect(german('Servus, i bin da Sepp Huber')).toMatchObject({ value: 'Sepp Huber', confirm: false });
    expect(german('Hr. Müller')).toMatchObject({ value: 'Herr Müller' });
    expect(german('Hr. Lange')).toMatchObject({ value: 'Herr Lange' });
    expect(german('ich bin der Ansprechpartner')).toHaveProperty('problem');
  });
});

describe('signatures, names not given yet and a short name then the full one (session 6)', () => {
  it('reads name, role, organisation; a department is no name; a name not picked yet is checked', () => {
    expect(speaker('Marcus Webb, Director of Facilities, Riverside County Parks & Rec')).toMatchObject({ value: 'Marcus Webb', confirm: false });
    expect(speaker("you're chatting with the facilities dept")).toHaveProperty('problem');
    expect(patient("Baby girl Martinez, she's 3 weeks old and we haven't finalized her name")).toMatchObject({ confirm: true });
    expect(german('Mein Name ist Jürgen Hofer, ich bin Obmann vom SV Hintertux')).toMatchObject({ value: 'Jürgen Hofer', confirm: false });
    expect(german('Ich bin de Ueli')).toMatchObject({ value: 'Ueli' });
  });
  it('takes the full name said after a short one for the same person', () => {
    expect(contact('grandpa joe (joseph miller)')).toMatchObject({ value: 'Joseph Miller, grandfather', confirm: false });
    expect(contact('grandpa joe (walter miller)')).toMatchObject({ confirm: true });
  });
});

describe('session 8: every word of a name reply accounted for', () => {
  it('reads "i\'m the …" in plain words of the dictionary as who the speaker is, no name', () => {
    expect(speaker('im the maintenance guy')).toEqual({ problem: packOf('en').names.reply.say.notAName });
    expect(speaker("i'm the one who emailed yesterday")).toEqual({ problem: packOf('en').names.reply.say.notAName });
    expect(speaker("i'm the maintenance guy, Dave Kowalski")).toMatchObject({ value: 'Dave Kowalski', confirm: false });
    expect(speaker("I'm Guy Martin")).toMatchObject({ value: 'Guy Martin', confirm: false });
    expect(speaker('im dave kowalski')).toMatchObject({ value: 'Dave Kowalski' });
  });
  it('sets aside a politeness or chat word after the name', () => {
    expect(speaker('Jose Rizal Dela Cruz po')).toMatchObject({ value: 'Jose Rizal Dela Cruz', confirm: false });
    expect(speaker('Kevin Walsh btw')).toMatchObject({ value: 'Kevin Walsh', confirm: false });
    expect(speaker('opo, Andres Bautista')).toMatchObject({ value: 'Andres Bautista', confirm: false });
  });
  it('takes the full name beside a short one in brackets, either way round', () => {
    expect(speaker('Raj (Rajesh Venkataraman)')).toMatchObject({ value: 'Rajesh Venkataraman', confirm: false });
    expect(speaker('Bill (William Harris)')).toMatchObject({ value: 'William Harris', confirm: true });
    expect(speaker('Robert Hale (Bob)')).toMatchObject({ value: 'Robert Hale', confirm: false });
    expect(speaker('Okonkwo, Chidi')).toMatchObject({ value: 'Chidi Okonkwo', confirm: false });
  });
  it('reads Bavarian, Swabian and Swiss introductions and articles', () => {
    expect(german('mei Nam is Sepp Huber')).toMatchObject({ value: 'Sepp Huber', confirm: false });
    expect(german('mi Name isch Ueli Meier')).toMatchObject({ value: 'Ueli Meier', confirm: false });
    expect(german('I bin dr Schorsch')).toMatchObject({ value: 'Schorsch', confirm: false });
    expect(german('Ich bin Dr Petra Vogel')).toMatchObject({ value: 'Dr Petra Vogel' });
  });
});
