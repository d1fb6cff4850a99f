import { describe, expect, it } from 'vitest';
import { matchTrigger } from '../../server/extract/offline/triggers.ts';
import type { TriggerChoice } from '../../server/extract/extractor.ts';

// The co-occurrence rule of flow triggers (`words`, `together`, `unless`) on
// a made-up trigger: word lists in one clause, the negation scope, degree
// negation, wildcards, a number threshold, and clause vetoes.

const pain: TriggerChoice = {
  id: 'pain', phrases: [], examples: [],
  words: {
    part: ['chest', 'cheast'],
    hurt: ['hurt*', 'pain', 'tight*'],
    breath: ['breath*'],
    hard: ['cant', 'struggl*'],
    apnea: ['not breathing'],
    took: ['took', 'swallowed'],
    pills: ['pills', 'tylenol'],
    many: ['#10+'],
  },
  together: [['part', 'hurt'], ['breath', 'hard'], ['apnea'], ['took', 'pills', 'many']],
  unless: ['years ago', 'died of'],
};

const fires = (text: string) => matchTrigger(text, [pain])?.id === 'pain';

describe('trigger word lists that occur together in one clause', () => {
  it('fires on every list of an entry in one clause, in any order, with word endings and spellings', () => {
    expect(fires('my chest has been hurting all morning')).toBe(true);
    expect(fires('tightness in his cheast')).toBe(true);
    expect(fires("can't breathe properly")).toBe(true);
    expect(fires('cant breathe')).toBe(true);
    expect(matchTrigger('my chest hurts', [pain])).toEqual({ id: 'pain', confidence: 1, evidence: 'my chest hurts' });
  });

  it('does not fire across clauses, on one list alone, or inside a longer word', () => {
    expect(fires('my chest is fine, my knee hurts')).toBe(false);
    expect(fires('chest infection')).toBe(false);
    expect(fires('the chesterfield hurts my back')).toBe(false);
  });

  it('a negator before a hit negates it; a negator that is part of another hit of the entry does not', () => {
    expect(fires('no chest pain')).toBe(false);
    expect(fires('chest is not hurting')).toBe(false);
    expect(fires('not struggling to breathe')).toBe(false);
    expect(fires("I don't have any chest pain, but I can't breathe")).toBe(true);
  });

  it('"not X badly" negates the degree, not the event', () => {
    expect(fires('he is not breathing')).toBe(true);
    expect(fires('a cold, not breathing badly or anything')).toBe(false);
  });

  it('a number list takes a count of at least its threshold, not a dose', () => {
    expect(fires('took 30 tylenol')).toBe(true);
    expect(fires('took 2 tylenol')).toBe(false);
    expect(fires('took 500 mg tylenol')).toBe(false);
  });

  it('an unless phrase voids its clause only, for word lists and phrases alike', () => {
    expect(fires('had chest pain years ago')).toBe(false);
    expect(fires('had chest pain years ago. now my chest hurts again')).toBe(true);
    const attack: TriggerChoice = { id: 'attack', phrases: ['heart attack'], examples: [], unless: ['died of'] };
    expect(matchTrigger('my mom died of a heart attack', [attack])).toBeUndefined();
    expect(matchTrigger('my mom died last year, I think I am having a heart attack', [attack])?.id).toBe('attack');
  });

  it('the first trigger in declaration order wins, whether by phrase or word lists', () => {
    const crisis: TriggerChoice = { id: 'crisis', phrases: ['take all my pills'], examples: [] };
    expect(matchTrigger("I'm going to take all my pills, 30 tylenol", [crisis, pain])?.id).toBe('crisis');
    expect(matchTrigger("chest pain, I'm going to take all my pills", [pain, crisis])?.id).toBe('pain');
  });
});

describe('negated unless phrases, word lists across clauses, figurative objects, units', () => {
  const bleed: TriggerChoice = {
    id: 'bleed', phrases: ['overdosed', 'kms'], examples: [],
    words: { bleed: ['bleed*', 'nosebleed*'], on: ['hasnt stopped', 'still bleeding', 'over an hour'], rash: ['rash'], look: ['like bruis*'], fever: ['fever*'] },
    together: [['bleed', 'on']],
    togetherInMessage: [['rash', 'look', 'fever']],
    unless: ['stopped', 'years ago'],
    figurative: ['netflix', 'chocolate', 'laughing'],
  };
  const fired = (text: string) => matchTrigger(text, [bleed])?.id === 'bleed';

  it('an unless phrase that is itself negated does not void its clause ("hasn\'t stopped" is no "stopped")', () => {
    expect(fired("my son's nosebleed hasn't stopped in over an hour")).toBe(true);
    expect(fired('the nosebleed has not stopped')).toBe(false); // "has not stopped" is not in the list: no rule holds, nothing voided
    expect(fired('nosebleed this morning, it stopped, been bleeding over an hour before that')).toBe(true);
    expect(fired('the bleeding stopped after over an hour')).toBe(false);
  });

  it('together_in_message: the lists may stand in different clauses, each not negated and not voided in its own', () => {
    expect(fired('teenage daughter feverish, headache, and a rash that looks like bruises')).toBe(true);
    expect(fired('no fever, and a rash that looks like bruises')).toBe(false);
    expect(fired('fever years ago, a rash that looks like bruises')).toBe(false);
    // the clause rule still needs one clause
    expect(fired('nosebleed this morning. over an hour in the queue')).toBe(false);
  });

  it('a hit followed by a figurative object is a figure of speech; a laughing marker alone is not one', () => {
    expect(fired('I overdosed on netflix this weekend haha')).toBe(false);
    expect(fired('overdosed on all the chocolate at christmas')).toBe(false);
    expect(fired('I think I overdosed on my insulin lol')).toBe(true);
    expect(fired('overdosed haha')).toBe(true);
  });

  it('a clause that says, all of itself, that it is over or not now voids the clause before it', () => {
    expect(fires("I get a tight chest when I'm anxious, not now")).toBe(false);
    expect(fires('my chest was hurting, gone now')).toBe(false);
    expect(fires('my chest hurts, not at the moment')).toBe(false);
    // only a whole clause saying so, and only for the clause before it
    expect(fires('my chest hurts, not now but it did an hour ago')).toBe(false);
    expect(fires('my chest hurts, not sure now')).toBe(true);
    expect(fires('it was fine now my chest hurts')).toBe(true);
    expect(fires('my knee hurt, gone now, my chest hurts')).toBe(true);
    // the phrase rule too
    expect(matchTrigger('had a seizure, all settled now', [{ id: 's', phrases: ['seizure'], examples: [] } as TriggerChoice])).toBeUndefined();
    expect(matchTrigger('having a seizure', [{ id: 's', phrases: ['seizure'], examples: [] } as TriggerChoice])?.id).toBe('s');
  });

  it('"#N-M" in a list or `unless` is a number from N to M: a year voids its clause, another number does not', () => {
    const dated: TriggerChoice = { ...pain, unless: ['#1950-2099'] };
    expect(matchTrigger('chest pain in 2015', [dated])).toBeUndefined();
    expect(matchTrigger('chest pain for 20 minutes', [dated])?.id).toBe('pain');
    expect(matchTrigger('chest pain, code 30000', [dated])?.id).toBe('pain');
  });

  it('a short abbreviation right after a number is a unit, not the word', () => {
    expect(fired('ran 10 kms yesterday')).toBe(false);
    expect(fired('walked 5kms')).toBe(false);
    expect(fired('kms fr nothing matters')).toBe(true);
  });
});

describe('the negation scope ends at a new predicate; hedges and self-corrections do not negate', () => {
  const sign: TriggerChoice = {
    id: 'sign', phrases: ['rat poison'], examples: [],
    words: { arm: ['one arm'], weak: ['weak*'], lips: ['lips'], blue: ['blue'], pain: ['chest pain'], breath: ['short of breath'] },
    together: [['arm', 'weak'], ['lips', 'blue'], ['pain'], ['breath']],
  };
  const fires = (text: string) => matchTrigger(text, [sign])?.id === 'sign';
  it('a negator before a conjunction does not reach words after it that have a verb of their own', () => {
    expect(fires('hes not making sense and one arm is weak')).toBe(true);
    expect(fires('no fever and her lips are blue')).toBe(true);
    expect(fires('no chest pain and short of breath')).toBe(false);
    expect(fires('no chest pain or short of breath')).toBe(false);
    expect(fires('her lips are not blue')).toBe(false);
  });
  it('"not sure", "no idea" and "no sorry" are no negation, for word lists and phrases alike', () => {
    expect(fires('not sure if her lips are blue')).toBe(true);
    expect(fires('no idea why, chest pain')).toBe(true);
    expect(fires('my dog ate... no sorry my son ate rat poison')).toBe(true);
    expect(fires('no rat poison in the house')).toBe(false);
  });
});

describe('a checklist answered no', () => {
  const pain: TriggerChoice = { id: 'pain', phrases: ['short of breath'], examples: [], words: { chest: ['chest'], bad: ['pain'] }, together: [['chest', 'bad']] };
  const fires = (text: string) => matchTrigger(text, [pain])?.id === 'pain';
  it('a clause answered by a lone "no" in the next clause or at its own end does not fire; "yes" does', () => {
    expect(fires('short of breath? no. chest pain? no. just a sore throat')).toBe(false);
    expect(fires('chest pain - no, cough yes')).toBe(false);
    expect(fires('any chest pain? nope')).toBe(false);
    expect(fires('chest pain? yes')).toBe(true);
    expect(fires('short of breath, no inhaler with me')).toBe(true);
  });
  it('"while" and "when" link a figurative object ("cut myself again while cooking")', () => {
    const harm: TriggerChoice = { id: 'harm', phrases: [], examples: [], words: { self: ['cut myself'], again: ['again'] }, together: [['self', 'again']], figurative: ['cooking'] };
    expect(matchTrigger('i cut myself again while cooking', [harm])).toBeUndefined();
    expect(matchTrigger('i cut myself again', [harm])?.id).toBe('harm');
  });
});

describe('entries with alternatives and gaps', () => {
  const stroke: TriggerChoice = {
    id: 'stroke', phrases: [], examples: [],
    words: { arm: ['{arm,hand,leg} ~3 {weak*,numb,wont work}'], face: ['{face,mouth} ~2 {droop*,twice the size}'] },
    togetherInMessage: [['arm', 'face']],
  };
  const fires = (text: string) => matchTrigger(text, [stroke])?.id === 'stroke';
  it('"{a,b}" is any of its words or phrases, "~N" up to N other words', () => {
    expect(fires('his arm is so very weak, and his face is drooping')).toBe(true);
    expect(fires('her hand wont work and her mouth droops')).toBe(true);
    expect(fires('his arm is so very really weak, and his face is drooping')).toBe(false); // four words between
    expect(fires('his arm is weak')).toBe(false);
    expect(fires('arm weak, mouth twice the size')).toBe(true);
  });
});

describe('a flow declaring trigger word lists', () => {
  it('compiles when together names its words, and is an error (unknown_word_list) when it names a list it lacks', async () => {
    const { compileText } = await import('../../server/flow/document.ts');
    const flow = (together: string[][]) => JSON.stringify({
      version: 'v1', id: 'f', nodes: [{ id: 'q.a', type: 'question', key: 'a', prompt: 'A?' }, { id: 'n.x', type: 'terminal', say: 'Call 911.' }],
      triggers: [{ id: 't', words: { chest: ['chest'], pain: ['pain*'] }, together, unless: ['years ago'], goto: 'n.x' }],
    });
    expect(compileText(flow([['chest', 'pain']])).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compileText(flow([['chest', 'ache']])).diagnostics.map((d) => d.code)).toContain('unknown_word_list');
    const inMessage = (names: string[]) => JSON.stringify({
      version: 'v1', id: 'f', nodes: [{ id: 'q.a', type: 'question', key: 'a', prompt: 'A?' }, { id: 'n.x', type: 'terminal', say: 'Call 911.' }],
      triggers: [{ id: 't', words: { chest: ['chest'], pain: ['pain*'] }, together_in_message: [names], figurative: ['laughing'], goto: 'n.x' }],
    });
    expect(compileText(inMessage(['chest', 'pain'])).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compileText(inMessage(['chest', 'ache'])).diagnostics.map((d) => d.code)).toContain('unknown_word_list');
  });
});
