import { readNameReply, nameQuestion } from './server/extract/offline/name-reply.ts';
import { packOf } from './server/language/registry.ts';
const pack = packOf('en');
const q = { key: 'emergency_contact_name', label: 'Emergency contact', prompt: 'Who should we contact in an emergency? Please give their name and relationship to the patient.', answer: { type: 'text', min: 2, max: 160 } } as any;
const ask = nameQuestion(q, pack)!;
console.log(ask);
for (const t of ['my sister Grace Kim', 'my sister Grace Kim instead', 'my brother Leo Souza', 'my dad Luis Gomez', 'my neighbor Ann Hill', 'Ann Hill', 'emergency contact is my sister Mia Chen', 'emergency contact Dev Patel, husband', 'Emergency contact: my husband Raj Mehta', 'Emergency contact is my boyfriend Chris Lopez'])
  console.log(t, '=>', JSON.stringify(readNameReply(t, ask, pack)));
