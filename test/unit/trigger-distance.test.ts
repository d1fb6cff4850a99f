import { describe, expect, it } from 'vitest';
import { matchTrigger } from '../../server/extract/offline/triggers.ts';
import type { TriggerChoice } from '../../server/extract/extractor.ts';

// Near misses of flow triggers (trigger-distance.ts) on a made-up trigger: an emergency word named at a distance —
// asked about, on paperwork, in a history or a relative's past, a refill, a condition or service — does not fire; the
// same word said as happening, in a clause or predicate of its own, still does. And readings: a number word in an
// entry ("{sats,spo2} ~3 #50-91") fires on a number in its range only.

const flag: TriggerChoice = {
  id: 'flag', phrases: ['seizure', 'anaphylaxis'], examples: [],
  words: {
    chest: ['chest'],
    bad: ['pain', 'tight*'],
    reading: ['{sats,spo2,oxygen} ~3 #50-91', 'gcs ~2 #3-14'],
    not: ['not'],
    responding: ['responding'],
  },
  together: [['chest', 'bad'], ['reading'], ['not', 'responding']],
  figurative: ['chocolate', 'netflix'],
};

const fires = (text: string) => matchTrigger(text, [flag])?.id === 'flag';

describe('an emergency word named at a distance', () => {
  it('does not fire after a question about information', () => {
    expect(fires('what should I do if my son has a seizure at school?')).toBe(false);
    expect(fires('in case of anaphylaxis, should I use the pen first?')).toBe(false);
    expect(fires('how long can a seizure last before it is dangerous')).toBe(false);
    expect(fires('whats the difference between a seizure and a faint')).toBe(false);
    expect(fires('how would I recognise chest pain that matters')).toBe(false);
  });

  it('does not fire on paperwork, a history, a refill, or a condition or service', () => {
    expect(fires('I need a letter about my seizure disorder')).toBe(false);
    expect(fires('a form for my sons anaphylaxis for nursery')).toBe(false);
    expect(fires('hx of seizure in 2019')).toBe(false);
    expect(fires('need more of my seizure rescue meds')).toBe(false);
    expect(fires('chest pain clinic appointment')).toBe(false);
    expect(fires('my aunt had anaphylaxis, should my kids be tested')).toBe(false);
    expect(fires('both my parents had chest pain in their 50s')).toBe(false);
  });

  it('still fires when the emergency is happening, beside the near miss or told of a relative today', () => {
    expect(fires('what should I do, my son is having a seizure')).toBe(true);
    expect(fires('I need a letter for my epilepsy but she is having a seizure')).toBe(true);
    expect(fires('my dad had a seizure')).toBe(true);
    expect(fires('my dad had a seizure just now, am I at risk of them too')).toBe(true);
    expect(fires('refill of my spray please and my chest is so tight')).toBe(true);
    expect(fires('what should I do if he is having a seizure right now')).toBe(true);
  });

  it('keeps a wish to die beside a letter, a note or a plan: no paperwork, no condition', () => {
    const crisis: TriggerChoice = { id: 'crisis', phrases: ['suicide', 'ending my life', 'killing myself'], examples: [] };
    for (const said of ['I have a plan for my suicide tonight', 'I wrote letters to my family about ending my life',
      'left a note for my mum about killing myself', 'he has a suicide plan', 'found a suicide letter in his room', 'my son is a suicide risk']) {
      expect(matchTrigger(said, [crisis])?.id, said).toBe('crisis');
    }
    expect(matchTrigger('I need a letter about my suicide prevention course', [crisis])).toBeUndefined();
  });
});

describe('a sign said to be fine, and a figurative word before a hit', () => {
  it('does not fire on a sign said to be fine, unless the hit itself says no', () => {
    expect(fires('chest pain is bad')).toBe(true);
    expect(fires('chest pain is fine, just a cold')).toBe(false);
    expect(fires('my chest feels tight, breathing ok')).toBe(true);
    expect(fires('not responding')).toBe(true);
    expect(fires('he is not responding normally')).toBe(true);
  });

  it('reads a figurative object right before a phrase hit as a modifier ("a chocolate overdose")', () => {
    const od: TriggerChoice = { id: 'od', phrases: ['overdose'], examples: [], figurative: ['chocolate', 'netflix'] };
    expect(matchTrigger('a chocolate overdose at christmas', [od])).toBeUndefined();
    expect(matchTrigger('a netflix overdose', [od])).toBeUndefined();
    expect(matchTrigger('an overdose of her pills', [od])?.id).toBe('od');
  });
});

describe('a reading in an entry: words with a number in a range', () => {
  it('fires on a number in the range, with a percent sign or word, past a few words', () => {
    expect(fires('sats 85% on his home monitor')).toBe(true);
    expect(fires('her spo2 is 82')).toBe(true);
    expect(fires('oxygen level dropped to 88 percent')).toBe(true);
    expect(fires('GCS 8')).toBe(true);
  });

  it('does not fire outside the range, or on a number of something else after it', () => {
    expect(fires('sats 97%')).toBe(false);
    expect(fires('GCS 15')).toBe(false);
    expect(fires('sats 96 pulse 88')).toBe(false);
    expect(fires('sats fine 2 hours ago')).toBe(false);
  });
});
