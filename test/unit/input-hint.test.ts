import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ScriptedClock } from '../../server/conversation/scripted-clock.ts';
import { stateOf } from '../../server/conversation/service.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import { compileText } from '../../server/flow/document.ts';
import { SessionState } from '../../server/protocol/session.ts';

// `state.input`: what the question being asked accepts, and `offer` once a
// reply there was not understood (docs/interfaces.md "input").

const FLOW = JSON.stringify({
  version: 'v1', id: 'f', default_country: 'GB',
  nodes: [
    { id: 'q.born', type: 'question', key: 'born', prompt: 'Date of birth?', answer: { type: 'date', past: true, min: '1900-01-01' } },
    { id: 'q.phone', type: 'question', key: 'phone', prompt: 'Phone?', answer: { type: 'phone' } },
    { id: 'q.height', type: 'question', key: 'height', prompt: 'Height?', answer: { type: 'number', unit: 'm', min: 0 } },
    { id: 'q.sport', type: 'question', key: 'sport', prompt: 'Sport?', required: false, answer: { type: 'enum', options: [{ value: 'padel', label: 'Padel' }, { value: 'tennis', label: 'Tennis' }] } },
    { id: 'q.notes', type: 'question', key: 'notes', prompt: 'Notes?' },
    { id: 'n.done', type: 'terminal', say: 'Done.' },
  ],
});

describe('the input a question accepts, in the session state', () => {
  it('says the kind and bounds at each question, offers the control after a miss, and is absent for text', async () => {
    const compiled = compileText(FLOW);
    if (compiled.kind !== 'flow' || !compiled.flow) throw new Error('the test flow does not compile');
    const flow = compiled.flow;
    const clock = new ScriptedClock('2026-01-15T10:00:00Z');
    const conv = new LocalConversation(flow, { extractor: new OfflineExtractor(), env: clock });
    await conv.start({ now: clock.now() });
    const state = () => SessionState.parse(stateOf(flow, conv.session));
    expect(state().input).toEqual({ kind: 'date', key: 'born', offer: false, optional: false, min: '1900-01-01', max: '2026-01-15' });
    await conv.send('my birthday', clock.now());
    expect(state().input).toMatchObject({ kind: 'date', offer: true });
    await conv.send('1984-03-27', clock.now());
    expect(state().input).toEqual({ kind: 'phone', key: 'phone', offer: false, optional: false, country: 'GB' });
    await conv.send('call me', clock.now());
    const phone = state().input;
    expect(phone).toMatchObject({ kind: 'phone', offer: true, country: 'GB' });
    expect(phone?.kind === 'phone' && phone.countries?.find((c) => c.code === 'DE')).toEqual({ code: 'DE', dial: '+49' });
    await conv.send('+49 30 1234567', clock.now());
    expect(state().input).toEqual({ kind: 'number', key: 'height', offer: false, optional: false, integer: false, min: 0, unit: 'm', units: ['m', 'cm', 'ft', 'yd'] });
    await conv.send('6 ft', clock.now());
    expect(conv.session.answers.get('height')?.value).toBeCloseTo(1.8288, 4);
    expect(state().input).toEqual({ kind: 'options', key: 'sport', offer: false, optional: true, skip: 'skip',
      options: [{ value: 'padel', label: 'Padel' }, { value: 'tennis', label: 'Tennis' }], multiple: false });
    await conv.send('skip', clock.now());
    expect(state().nodeId).toBe('q.notes');
    expect(state().input).toBeUndefined();
  });
});
