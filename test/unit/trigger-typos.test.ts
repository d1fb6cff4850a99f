import { describe, expect, it } from 'vitest';
import { repairTypos } from '../../server/extract/offline/trigger-typos.ts';
import { matchTrigger } from '../../server/extract/offline/triggers.ts';
import type { TriggerChoice } from '../../server/extract/extractor.ts';
import { packOf } from '../../server/language/registry.ts';

const isWord = packOf('en').isWord!;

// Typos in red-flag words are read as the trigger's word when the typed word is no English word and one edit
// from exactly one trigger word (server/extract/offline/trigger-typos.ts).

const TRIGGERS: readonly TriggerChoice[] = Object.freeze([
  { id: 'red_flag', phrases: ['unconscious', 'seizure'], examples: [], words: { chest: ['chest'], bad: ['pain', 'tight*'], rash: ['rash'], no_fade: ['wont blanch'], wheeze: ['wheez*', 'swell*'] },
    together: [['chest', 'bad'], ['rash', 'no_fade']], description: '', urgent: true } as TriggerChoice,
]);

describe('typos in trigger words', () => {
  it('repairs a swap in a 4-letter word, a dropped or added letter, a changed one, and a stem with its ending', () => {
    expect(repairTypos('chest pian', TRIGGERS, isWord)).toBe('chest pain');
    expect(repairTypos('Grandpa is unconcious', TRIGGERS, isWord)).toBe('Grandpa is unconscious');
    expect(repairTypos('having a siezure', TRIGGERS, isWord)).toBe('having a seizure');
    expect(repairTypos('chets feels tigt', TRIGGERS, isWord)).toBe('chest feels tight'); // a swap; a letter dropped from the stem tight*
    expect(repairTypos('his throat is sweling', TRIGGERS, isWord)).toBe('his throat is swelling');
    expect(repairTypos('CHEST PIAN', TRIGGERS, isWord)).toBe('CHEST pain');
  });

  it('of several trigger words one edit away, takes the English ones when they are forms of one word', () => {
    const forms: readonly TriggerChoice[] = Object.freeze([
      { id: 'red_flag', phrases: [], examples: [], words: { chest: ['chest', 'chests', 'cheast'], bad: ['pain'] }, together: [['chest', 'bad']], description: '', urgent: true } as TriggerChoice,
    ]);
    // "chesst" is one edit from chest, chests (a swap) and cheast (a list's own misspelling)
    expect(repairTypos('chesst pain', forms, isWord)).toBe('chest pain');
    expect(matchTrigger('chesst pain really bad', forms)?.id).toBe('red_flag');
    // two different words one edit away stay as typed
    const two: readonly TriggerChoice[] = Object.freeze([
      { id: 'x', phrases: [], examples: [], words: { a: ['bleeding', 'breeding'] }, together: [['a']], description: '', urgent: true } as TriggerChoice,
    ]);
    expect(repairTypos('bleeeding', two, isWord)).toBe('bleeding');
    expect(repairTypos('bxeeding', two, isWord)).toBe('bxeeding');
  });

  it('keeps English words one letter from a trigger word, words of the triggers, short words, numbers and contractions', () => {
    expect(repairTypos('wheeling the pram', TRIGGERS, isWord)).toBe('wheeling the pram'); // one edit from wheez*+ing, but English
    expect(repairTypos('a rash on a branch', TRIGGERS, isWord)).toBe('a rash on a branch');
    expect(repairTypos('seizure and pain', TRIGGERS, isWord)).toBe('seizure and pain');
    expect(repairTypos('pan and 12345 and won’t', TRIGGERS, isWord)).toBe('pan and 12345 and won’t');
  });

  it('fires the trigger on the repaired words, with negation still read', () => {
    expect(matchTrigger('chest pian since this morning', TRIGGERS)?.id).toBe('red_flag');
    expect(matchTrigger('no chest pian, just a cough', TRIGGERS)).toBeUndefined();
    expect(matchTrigger('he is unconcious', TRIGGERS)?.id).toBe('red_flag');
  });
});

describe('typos that are English words beside their partner, and doubled letters', () => {
  const PAIRED: readonly TriggerChoice[] = Object.freeze([
    { id: 'red_flag', phrases: ['having a fit'], examples: ['severe chest pain'], words: { chest: ['chest'], bad: ['pain'] }, together: [['chest', 'bad']], description: '', urgent: true } as TriggerChoice,
  ]);
  it('repairs an English word when the repair stands beside its partner in a phrase, example or list entry ("cheat pain")', () => {
    expect(repairTypos('i have cheat pain', PAIRED, isWord)).toBe('i have chest pain');
    expect(matchTrigger('i have cheat pain', PAIRED)?.id).toBe('red_flag');
    expect(repairTypos('I want to cheat on my diet', PAIRED, isWord)).toBe('I want to cheat on my diet');
  });
  it('reads a doubled last letter on a three-letter trigger word as the word ("fitt"), not an English word', () => {
    expect(repairTypos('having a fitt', PAIRED, isWord)).toBe('having a fit');
    expect(matchTrigger('having a fitt', PAIRED)?.id).toBe('red_flag');
    expect(repairTypos('a hitt', PAIRED, isWord)).toBe('a hitt');
  });
});

describe('typos outside English', () => {
  const HAZARD: readonly TriggerChoice[] = Object.freeze([{ id: 'hazard', phrases: ['feuer', 'unconscious'], examples: [], description: '', urgent: true } as TriggerChoice]);
  it('are not repaired in another language: the guard is an English dictionary ("Feier" is a party, not "Feuer")', () => {
    expect(matchTrigger('wir planen eine Feier auf dem Platz', HAZARD, packOf('de'))).toBeUndefined();
    expect(matchTrigger('es gibt Feuer am Mast', HAZARD, packOf('de'))?.id).toBe('hazard');
    expect(matchTrigger('he is unconcious', HAZARD, packOf('en'))?.id).toBe('hazard');
  });
});
