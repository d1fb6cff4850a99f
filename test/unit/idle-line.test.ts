import { describe, expect, it } from 'vitest';
import { start } from '../../server/engine/engine.ts';
import { expire } from '../../server/engine/expire.ts';
import { compileFile } from '../../server/flow/document.ts';

// The idle closing line says what the visitor can do in every client: the
// widget's input is disabled once the session ended (it shows a "Start a new
// conversation" button), so the line must not tell them to type "restart".

describe('the idle closing line', () => {
  it.each(['en', 'de', 'fr', 'es'])('in %s offers a new conversation and asks for no typing', (locale) => {
    const r = compileFile('flows/global/sales.flow.json');
    if (r.kind !== 'flow' || !r.flow) throw new Error('sales flow does not compile');
    const s = start(r.flow, { id: 'idle', now: '2026-01-15T10:00:00Z', locale }).session;
    const closed = expire(r.flow, s, '2026-01-15T11:00:00Z', 3600);
    expect(closed.session).toMatchObject({ status: 'abandoned', outcome: 'timed_out' });
    const line = closed.effects.find((e) => e.type === 'say')!;
    expect(line).toBeDefined();
    expect(line.type === 'say' && line.text).not.toMatch(/restart|neu starten|recommencer|reiniciar|["„«]/i);
  });
});
