import { parseEnum } from '../server/extract/parse/enum.ts';
import { packOf } from '../server/language/registry.ts';
const care = { type: 'enum' as const, options: [{ value: 'problem', label: 'Something is wrong (ill or hurt)' }, { value: 'routine', label: 'Routine care' }] };
for (const t of ['she fell down the stairs', 'fever and a cough', 'fell']) console.log(t, parseEnum(care, t, packOf('en'), '2026-01-15T10:00:00Z'));
