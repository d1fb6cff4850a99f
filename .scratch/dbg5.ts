import { parseEnum } from '../server/extract/parse/enum.ts';
import { packOf } from '../server/language/registry.ts';
const spec = { type: 'enum' as const, options: [{ value: 'buy_led', label: 'Buy LED lighting', synonyms: ['buy', 'quote', 'lights for a court'] }, { value: 'support', label: 'Support', synonyms: ['broken', 'warranty'] }] };
console.log(parseEnum(spec, 'our court lights keep tripping the breaker', packOf('en'), '2026-01-15T10:00:00Z'));
import { optionEvidence } from '../server/extract/parse/option-meaning.ts';
import { normalOptions } from '../server/flow/answer-types.ts';
import { fold } from '../server/extract/parse/fold.ts';
console.log(optionEvidence(normalOptions(spec), fold('our court lights keep tripping the breaker').text, [], packOf('en')));
console.log(packOf('en').options.meaning!.stem('tripping'));
