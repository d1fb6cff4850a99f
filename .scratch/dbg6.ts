import { votePath } from '../server/extract/offline/path-vote.ts';
const paths = [{ name: 'buy_led', label: 'Buy LED lighting', examples: ['buy', 'quote', 'lights for a court'] }, { name: 'support', label: 'Support', examples: ['broken', 'warranty'] }];
console.log(votePath('a quote, the old ones are broken', paths, 'en'));
console.log(votePath('a quote, the old ones are broken', paths, 'en', { now: '2026-01-15T10:00:00Z' }));
