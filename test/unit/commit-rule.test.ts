import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ScriptedClock } from '../../server/conversation/scripted-clock.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import type { OpenQuestion } from '../../server/extract/extractor.ts';
import { compileText } from '../../server/flow/document.ts';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';

// The commit rule (server/extract/offline/commit-rule.ts) and the engine's
// confirmation (server/engine/check-value.ts): a value is committed only when
// every word of the reply is accounted for; otherwise the bot checks first.

const NOW = '2026-01-15T10:00:00Z';

function propose(answer: AnswerSpec, text: string, prompt = 'Your answer?', locale?: string) {
  const current: OpenQuestion = { nodeId: 'q', key: 'answer', answer, required: true, prompt };
  return new OfflineExtractor().extract({ text, current, open: [], paths: [], now: NOW, defaultCountry: 'US', ...(locale ? { locale } : {}) });
}
const confirmOf = (answer: AnswerSpec, text: string, prompt?: string, locale?: string) => propose(answer, text, prompt, locale).updates.find((u) => u.key === 'answer')?.confirm === true;

describe('the commit rule: every word of a reply accounted for', () => {
  const sport: AnswerSpec = { type: 'enum', options: ['tennis', 'padel', 'football'] };
  it('commits a value whose reply holds only the value, its unit, filler, a hedge or the question\'s own words', () => {
    expect(confirmOf({ type: 'number', unit: 'm' }, 'about 25 feet')).toBe(false);
    expect(confirmOf({ type: 'integer' }, 'we have 4 courts', 'How many courts do you have?')).toBe(false);
    expect(confirmOf(sport, 'tennis please')).toBe(false);
    expect(confirmOf(sport, 'not padel, tennis')).toBe(false); // the negated option is read by the parser
    expect(confirmOf({ type: 'integer' }, '3 courts — sorry, 4', 'How many courts?')).toBe(false); // a self-correction replaces what came before
    expect(confirmOf({ type: 'boolean' }, 'no, paying cash')).toBe(false); // a yes or no said first, the rest an aside
    expect(confirmOf({ type: 'integer' }, '4 Masten', 'Wie viele Lichtmasten?', 'de')).toBe(false); // a part of the question's compound
  });

  it('checks first when a word is left over: a clause, a qualifier, a second thing', () => {
    expect(confirmOf(sport, 'padel and the lights are old')).toBe(true);
    expect(confirmOf({ type: 'number', unit: 'm²' }, 'about 300 m² each')).toBe(true);
    expect(confirmOf({ type: 'boolean' }, "I do but the card's at home", 'Do you have health insurance?')).toBe(true);
    expect(confirmOf({ type: 'date', future: true }, 'bis zum 1. März, da beginnt unsere Saison', 'Bis wann?', 'de')).toBe(true);
  });
});

describe('explained leftovers: a remark that competes with nothing (offline/remarks.ts)', () => {
  const valueOf = (answer: AnswerSpec, text: string, prompt?: string, locale?: string) => {
    const u = propose(answer, text, prompt, locale).updates.find((x) => x.key === 'answer');
    return u === undefined ? undefined : u.confirm ? { check: u.value } : u.value;
  };
  const budget: AnswerSpec = { type: 'integer', unit: 'USD', currency: 'USD', min: 0 };
  it('commits a value beside a reason, a story, a source or an aside', () => {
    expect(valueOf({ type: 'boolean' }, 'yep, through my husband\'s work', 'Do you have health insurance?')).toBe(true);
    expect(valueOf({ type: 'boolean' }, 'not right now, it was earlier this morning', 'Are you having chest pain right now?')).toBe(false);
    expect(valueOf({ type: 'boolean' }, 'nein, alles ok', 'Ist gerade etwas unsicher?', 'de')).toBe(false);
    expect(valueOf({ type: 'phone' }, 'cell is 415 555 0132, best after 3pm')).toBe('+14155550132');
    expect(valueOf({ type: 'phone' }, 'Büro +49 221 98765412, am besten vormittags', undefined, 'de')).toBe('+4922198765412');
    expect(valueOf({ type: 'email' }, 'facilities@lincolnhs.org - shared inbox, checked daily')).toBe('facilities@lincolnhs.org');
    expect(valueOf({ type: 'date' }, 'Dec 25th, 1956 — a Christmas baby!')).toBe('1956-12-25');
    expect(valueOf(budget, 'board approved 60k usd', 'What budget do you have in mind?')).toBe(60000);
    expect(valueOf(budget, '1,5 Mio. USD fürs ganze Stadion', 'Welches Budget?', 'de')).toBe(1500000);
    expect(valueOf(budget, 'zero, we were hoping for sponsorship lol', 'What budget do you have in mind?')).toBe(0);
  });
  it('checks a value beside a hedge, a contrast, a negation, a rate, a second figure or a question', () => {
    expect(valueOf({ type: 'boolean' }, "yes but the card's at home", 'Do you have health insurance?')).toEqual({ check: true });
    expect(valueOf({ type: 'boolean' }, "I'm not on site today, can't tell", 'Is anything unsafe?')).toEqual({ check: false });
    expect(valueOf({ type: 'boolean' }, "we're uninsured right now", 'Do you have health insurance?')).toBeUndefined(); // "right now" says no yes
    expect(valueOf({ type: 'date' }, 'i think 11/2/1950, her memory isn\'t great')).toEqual({ check: '1950-11-02' });
    expect(valueOf({ type: 'date', past: true }, 'last tuesday, he is a newborn')).toEqual({ check: '2026-01-13' });
    expect(valueOf(budget, 'we spent 20k on the last install', 'What budget do you have in mind?')).toEqual({ check: 20000 });
    expect(valueOf(budget, '20k, about 500 a month for maintenance', 'What budget do you have in mind?')).not.toBe(20000); // asked about: two figures
    expect(valueOf(budget, '20k per court', 'What budget do you have in mind?')).toEqual({ check: 20000 });
    expect(valueOf(budget, 'maybe 15k? depends on the board', 'What budget do you have in mind?')).toEqual({ check: 15000 });
  });
});

describe('the confirmation: "Just to check: …?"', () => {
  const flow = () => {
    const doc = {
      version: 'v1', id: 'check.test',
      nodes: [
        { id: 'q.sport', type: 'question', key: 'sport', prompt: 'Which sport?', answer: { type: 'enum', options: ['tennis', 'padel', 'football'] } },
        { id: 'q.courts', type: 'question', key: 'courts', prompt: 'How many courts?', answer: { type: 'integer', min: 1, max: 50 } },
        { id: 'n.done', type: 'terminal', say: 'Noted.' },
      ],
    };
    const r = compileText(JSON.stringify(doc), 'check.test');
    if (r.kind !== 'flow' || !r.flow) throw new Error('does not compile');
    return r.flow;
  };
  async function conversation() {
    const clock = new ScriptedClock(NOW);
    const conv = new LocalConversation(flow(), { extractor: new OfflineExtractor(), env: clock });
    await conv.start({ now: clock.now() });
    return { conv, say: async (text: string) => { clock.tick(); return conv.send(text, clock.now()); } };
  }
  const texts = (r: { messages: Array<{ text?: string }> }) => r.messages.map((m) => m.text).join(' / ');

  it('asks before committing, with yes/no chips, and commits on a yes — no miss, no strike', async () => {
    const { say } = await conversation();
    const asked = await say('padel and the lights are old');
    expect(texts(asked)).toBe('Just to check: padel?');
    expect(asked.messages.at(-1)).toMatchObject({ quickReplies: ['Yes', 'No'] });
    expect(asked.session.answers.get('sport')).toBeUndefined();
    expect(asked.session.attempts).toBe(0);
    expect(asked.events.map((e) => e.type)).toContain('confirmation');
    const yes = await say('yes');
    expect(yes.session.answers.get('sport')?.value).toBe('padel');
    expect(yes.session.node).toBe('q.courts');
    expect(yes.session.checking).toBeUndefined();
  });

  it('asks the question again on a no, and reads a new value as a normal reply', async () => {
    const { say } = await conversation();
    await say('padel and the lights are old');
    const no = await say('no');
    expect(texts(no)).toBe('Which sport?');
    expect(no.session.answers.get('sport')).toBeUndefined();
    expect(no.session.attempts).toBe(0);
    const { say: say2 } = await conversation();
    await say2('padel and the lights are old');
    const other = await say2('tennis');
    expect(other.session.answers.get('sport')?.value).toBe('tennis');
    expect(other.session.node).toBe('q.courts');
  });
});

describe('the confirmation of a short text answer', () => {
  const flow = () => {
    const doc = {
      version: 'v1', id: 'check.text',
      nodes: [
        { id: 'q.company', type: 'question', key: 'company', prompt: 'Which school, club or organisation is the project for?', answer: { type: 'text', max: 200 } },
        { id: 'q.courts', type: 'question', key: 'courts', prompt: 'How many courts?', answer: { type: 'integer', min: 1, max: 50 } },
        { id: 'n.done', type: 'terminal', say: 'Noted.' },
      ],
    };
    const r = compileText(JSON.stringify(doc), 'check.text');
    if (r.kind !== 'flow' || !r.flow) throw new Error('does not compile');
    return r.flow;
  };
  async function conversation() {
    const clock = new ScriptedClock(NOW);
    const conv = new LocalConversation(flow(), { extractor: new OfflineExtractor(), env: clock });
    await conv.start({ now: clock.now() });
    return { say: async (text: string) => { clock.tick(); return conv.send(text, clock.now()); } };
  }

  it('commits the checked head on a yes (not "yes" itself) and asks again on a no', async () => {
    for (const yes of ['yes', "yes that's right"]) {
      const { say } = await conversation();
      const asked = await say('Harbour Padel Ltd, the council owns the site though');
      expect(asked.messages.map((m) => m.text).join(' / ')).toBe('Just to check: Harbour Padel Ltd?');
      const r = await say(yes);
      expect(r.session.answers.get('company')?.value).toBe('Harbour Padel Ltd');
      expect(r.session.node).toBe('q.courts');
    }
    const { say } = await conversation();
    await say('Harbour Padel Ltd, the council owns the site though');
    const no = await say('no');
    expect(no.session.answers.get('company')).toBeUndefined();
    expect(no.session.node).toBe('q.company');
  });
});

describe('a correction of the previous answer typed at the next question', () => {
  const flow = (nodes: unknown[]) => {
    const r = compileText(JSON.stringify({ version: 'v1', id: 'late.test', nodes: [...nodes, { id: 'n.done', type: 'terminal', say: 'Noted.' }] }), 'late.test');
    if (r.kind !== 'flow' || !r.flow) throw new Error('does not compile');
    return r.flow;
  };
  async function talk(nodes: unknown[], replies: string[], locale?: string) {
    const clock = new ScriptedClock(NOW);
    const f = flow(nodes);
    const conv = new LocalConversation(f, { extractor: locale ? { name: 'rules', extract: (req) => new OfflineExtractor().extract({ ...req, locale }) } : new OfflineExtractor(), env: clock });
    await conv.start({ now: clock.now() });
    let last;
    for (const r of replies) {
      clock.tick();
      last = await conv.send(r, clock.now());
    }
    return last!;
  }
  const budget = { id: 'q.budget', type: 'question', key: 'budget', label: 'budget', prompt: 'What is your budget?', answer: { type: 'number', currency: 'USD' } };
  const timeline = { id: 'q.timeline', type: 'question', key: 'timeline', prompt: 'When do you need it?', answer: { type: 'enum', options: [{ value: 'asap', label: 'As soon as possible' }, { value: 'later', label: 'Later this year' }] } };

  it('replaces the previous answer with an echo, and reads the rest for the current question', async () => {
    const r = await talk([budget, timeline], ['20k', 'actually make that 25k. and as soon as possible please']);
    expect(r.session.answers.get('budget')?.value).toBe(25000);
    expect(r.session.answers.get('timeline')?.value).toBe('asap');
    expect(r.messages.map((m) => m.text)).toContain('Thanks — I\'ve changed budget to 25000.');
  });

  it('re-asks the current question when the reply only corrects the previous one, in German too', async () => {
    const r = await talk([budget, timeline], ['20.000 $', 'Korrektur: 25.000 $.'], 'de');
    expect(r.session.answers.get('budget')?.value).toBe(25000);
    expect(r.session.answers.has('timeline')).toBe(false);
    expect(r.session.node).toBe('q.timeline');
    expect(r.session.attempts).toBe(0);
  });

  const phone = { id: 'q.phone', type: 'question', key: 'phone', label: 'phone number', prompt: 'Your mobile number?', answer: { type: 'phone' }, pii: true };
  const hazard = { id: 'q.hazard', type: 'question', key: 'safety_hazard', prompt: 'Is anything unsafe right now, like a pole that could fall?', answer: { type: 'boolean' } };
  const name = { id: 'q.name', type: 'question', key: 'name', prompt: 'Who am I chatting with?', answer: { type: 'text', kind: 'name' } };

  it('asks an earlier question again when the reply goes back to it without a readable value, then comes back', async () => {
    const back = "hang on, the safety question, my colleague is not sure about the pole on court 4. I'm Gary";
    const r = await talk([hazard, name, budget], ['no', back]);
    expect(r.session.answers.has('safety_hazard')).toBe(false);
    expect(r.session.answers.get('name')?.value).toBe('Gary');
    expect(r.session.node).toBe('q.hazard');
    expect(r.messages.map((m) => m.text).join(' ')).toContain("Sure, let's correct that. Is anything unsafe");
    const next = await talk([hazard, name, budget], ['no', back, 'yes']);
    expect(next.session.answers.get('safety_hazard')?.value).toBe(true);
    expect(next.session.node).toBe('q.budget');
  });

  it('changes an earlier yes/no the reply answers anew by content, with an echo, and goes on', async () => {
    const r = await talk([hazard, name, budget], ['no', "hang on, my colleague says the pole on court 4 is leaning. I'm Gary"]);
    expect(r.session.answers.get('safety_hazard')?.value).toBe(true);
    expect(r.session.answers.get('name')?.value).toBe('Gary');
    expect(r.session.node).toBe('q.budget');
    expect(r.messages.map((m) => m.text).join(' ')).toContain("I've changed safety hazard to Yes");
  });

  it('asks a pii answer again on "wrong number", takes a new ending in its place, and takes a whole new one', async () => {
    const ins = { id: 'q.ins', type: 'question', key: 'has_insurance', prompt: 'Do you have insurance?', answer: { type: 'boolean' } };
    const r = await talk([phone, ins], ['(202) 555-0143', 'wrong number sorry, no idea what I typed. and yes we have insurance']);
    expect(r.session.answers.has('phone')).toBe(false);
    expect(r.session.answers.get('has_insurance')?.value).toBe(true);
    expect(r.session.node).toBe('q.phone');
    // the ending said: the last digits replaced (late-value.ts, "her number ends 0184")
    const e = await talk([phone, ins], ['(202) 555-0143', 'wrong number sorry, it ends 0134. and yes we have insurance']);
    expect(e.session.answers.get('phone')?.value).toBe('+12025550134');
    expect(e.session.answers.get('has_insurance')?.value).toBe(true);
    const s = await talk([phone, ins], ['(202) 555-0143', 'oops wrong number, it is (202) 555-0134']);
    expect(s.session.answers.get('phone')?.value).toBe('+12025550134');
  });

  it('corrects an older answer the reply names, adds to a multiple choice, and reads a total beside a per-item figure', async () => {
    const r = await talk([budget, timeline, name], ['20k', 'later', 'Ann. sorry, the budget should be 30k']);
    expect(r.session.answers.get('budget')?.value).toBe(30000);
    expect(r.session.answers.get('name')?.value).toBe('Ann');
    const symptoms = { id: 'q.sym', type: 'question', key: 'symptoms', prompt: 'Which symptoms?', answer: { type: 'enum', multiple: true, options: [{ value: 'fever', label: 'Fever' }, { value: 'cough', label: 'Cough' }] } };
    const s = await talk([symptoms, hazard], ['fever', 'no. she has a cough too, forgot to say']);
    expect(s.session.answers.get('symptoms')?.value).toEqual(['fever', 'cough']);
    expect(s.session.answers.get('safety_hazard')?.value).toBe(false);
    const t = await talk([budget, timeline], ['15k', "oh that 15k was per court, we've got 2 so 30k total. and as soon as possible"]);
    expect(t.session.answers.get('budget')?.value).toBe(30000);
    expect(t.session.answers.get('timeline')?.value).toBe('asap');
  });

  it('applies an extra zero, a per-item figure said without repeating it and an added amount to the budget, with the echo', async () => {
    const said = (r: { messages: { text: string }[] }) => r.messages.map((m) => m.text).join(' ');
    const a = await talk([budget, timeline], ['40000', '4000 sorry extra zero. as soon as possible']);
    expect(a.session.answers.get('budget')?.value).toBe(4000);
    expect(a.session.answers.get('timeline')?.value).toBe('asap');
    expect(said(a)).toContain("I've changed budget to 4000");
    const b = await talk([budget, timeline], ['40.000 $', 'Oh, beim Budget ist eine Null zu viel. So bald wie möglich'], 'de');
    expect(b.session.answers.get('budget')?.value).toBe(4000);
    const c = await talk([budget, timeline], ['20000', "as soon as possible. oh and that's per court, we have 2"]);
    expect(c.session.answers.get('budget')?.value).toBe(40000);
    expect(said(c)).toContain("I've changed budget to 40000");
    const d = await talk([budget, timeline], ['12000', 'later. oh and add another 5k for the parking lot lights']);
    expect(d.session.answers.get('budget')?.value).toBe(17000);
    expect(d.session.answers.get('timeline')?.value).toBe('later');
    const e = await talk([budget, timeline], ['20000', 'as soon as possible, plus we might add the car park later']);
    expect(e.session.answers.get('budget')?.value).toBe(20000);
  });

  it('keeps the year of a date corrected without one, and leaves the previous answer alone for a self-correction of the current one', async () => {
    const dob = { id: 'q.dob', type: 'question', key: 'date_of_birth', prompt: 'Date of birth?', answer: { type: 'date', past: true } };
    const age = { id: 'q.age', type: 'question', key: 'age', prompt: 'Age?', answer: { type: 'integer', min: 0, max: 120 } };
    // "03/02/2015" reads two ways (3 February or 2 March): checked, and the yes commits the US reading
    const r = await talk([dob, age], ['03/02/2015', 'yes', '10. oh and the birthday is Feb 3rd, sorry, I wrote it the UK way']);
    expect(r.session.answers.get('date_of_birth')?.value).toBe('2015-02-03');
    expect(r.session.answers.get('age')?.value).toBe(10);
    const courts = { id: 'q.courts', type: 'question', key: 'courts', prompt: 'How many courts?', answer: { type: 'integer', min: 1, max: 50 } };
    const s = await talk([age, courts], ['7', '3 courts — sorry, 4']);
    expect(s.session.answers.get('age')?.value).toBe(7);
    expect(s.session.answers.get('courts')?.value).toBe(4);
  });
});

describe('a follow-up narrows the reading the bot asked back about', () => {
  async function talk(answer: unknown, replies: string[]) {
    const r = compileText(JSON.stringify({ version: 'v1', id: 'narrow.test', default_country: 'US', nodes: [
      { id: 'q.when', type: 'question', key: 'when', prompt: 'Which date?', answer }, { id: 'n.done', type: 'terminal', say: 'Noted.' }] }), 'narrow.test');
    const clock = new ScriptedClock(NOW);
    if (r.kind !== 'flow' || !r.flow) throw new Error('does not compile');
    const conv = new LocalConversation(r.flow, { extractor: new OfflineExtractor(), env: clock });
    await conv.start({ now: clock.now() });
    let last;
    for (const text of replies) {
      clock.tick();
      last = await conv.send(text, clock.now());
    }
    return last!;
  }

  it('takes the month or the year said before: "sometime in March" → "the 9th", "born in 2016" → "august 14", "January" → "20"', async () => {
    expect((await talk({ type: 'date', future: true }, ['sometime in March', 'the 9th'])).session.answers.get('when')?.value).toBe('2026-03-09');
    expect((await talk({ type: 'date', past: true }, ['born in 2016', 'august 14'])).session.answers.get('when')?.value).toBe('2016-08-14');
    expect((await talk({ type: 'date', future: true }, ['in January', '20'])).session.answers.get('when')?.value).toBe('2026-01-20');
  });
});
