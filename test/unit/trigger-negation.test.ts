import { describe, expect, it } from 'vitest';
import { matchTrigger } from '../../server/extract/offline/triggers.ts';
import type { TriggerChoice } from '../../server/extract/extractor.ts';
import { packOf } from '../../server/language/registry.ts';

// A trigger phrase denied in the visitor's own language does not fire: the pack's negators ("keine Funken", "ohne Rauch") and
// its one-word "none" words right before the phrase or a list ending in it ("nothing hanging or sparking", "nix funkt").

const hazard = (lang: 'en' | 'de'): TriggerChoice => ({
  id: 'hazard',
  phrases: lang === 'en' ? ['sparks', 'sparking', 'smoke', 'chest pain'] : ['funken', 'funkt', 'rauch', 'brandgeruch'],
  examples: [],
});
const fires = (lang: 'en' | 'de', text: string) => matchTrigger(text, [hazard(lang)], packOf(lang === 'en' ? undefined : lang))?.id === 'hazard';

describe('trigger phrases denied in the pack\'s words', () => {
  it('does not fire on a German negator before the phrase', () => {
    expect(fires('de', 'keine Funken, aber das Licht flackert')).toBe(false);
    expect(fires('de', 'keine Funken und kein Rauch')).toBe(false);
    expect(fires('de', 'kein Brandgeruch')).toBe(false);
    expect(fires('de', 'ohne Funken, nur dunkel')).toBe(false);
    expect(fires('de', 'nix funkt, es flackert nur')).toBe(false);
  });

  it('fires where the phrase is asserted, or the negator is a hedge', () => {
    expect(fires('de', 'Es gibt Funken am Mast 2')).toBe(true);
    expect(fires('de', 'keine Ahnung, aber da kommen Funken raus')).toBe(true);
    expect(fires('de', 'nicht sicher, vielleicht Funken')).toBe(true);
    expect(fires('de', 'das Licht flackert, keine Ahnung warum, und es kommt Rauch')).toBe(true);
  });

  it('reads a "none" word right before the phrase or a list ending in it, not further', () => {
    expect(fires('en', 'nothing hanging or sparking')).toBe(false);
    expect(fires('en', 'nothing is sparking')).toBe(false);
    expect(fires('en', 'nothing sparking, it just flickers')).toBe(false);
    expect(fires('en', 'nothing stops the sparking')).toBe(true);
    expect(fires('en', 'nothing helps the chest pain')).toBe(true);
    expect(fires('en', 'there are sparks')).toBe(true);
  });
});
