import { foldPhrase } from '../server/extract/parse/fold.ts';
import { packOf } from '../server/language/registry.ts';
const p = packOf('en'); const m = p.options.meaning!;
const lex = p.lexicon;
const all = [...m.plain, ...lex.filler, ...lex.joinFiller, ...lex.joiners, ...lex.negators].flatMap((w) => foldPhrase(w).split(' ')).filter(Boolean).map((w) => m.stem(w));
for (const w of ['ill', 'hurt', 'wrong', 'routin', 'care', 'fell', 'new', 'sick']) console.log(w, all.includes(w));
console.log(foldPhrase('Something is wrong (ill or hurt)'));
