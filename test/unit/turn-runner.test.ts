import { describe, expect, it } from 'vitest';
import type { CallEnv } from '../../server/conversation/actions.ts';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { runTurn } from '../../server/conversation/turn-runner.ts';
import type { Extractor } from '../../server/extract/extractor.ts';
import { end, flowOf, NOW, q } from '../support/engine-harness.ts';

const env: CallEnv = { now: () => NOW, sleep: async () => {}, clock: () => 0 };

const codeFlow = flowOf({ nodes: [q('q.code', 'code', { validate: [{ name: 'checksum', message: 'Codes end in 7.' }] }), q('q.next', 'next'), end()] });
const checksum = (v: unknown) => (String(v).endsWith('7') ? null : 'bad checksum');

/** An extractor that records what reached it and proposes the text as the current question's answer. */
function recording() {
  const seen: string[] = [];
  const extractor: Extractor = {
    name: 'recording',
    extract: (req) => {
      seen.push(req.text);
      return { extractor: 'recording', updates: req.current ? [{ key: req.current.key, value: req.text }] : [], unknown: [] };
    },
  };
  return { extractor, seen };
}

describe('the turn runner', () => {
  it('runs a command word as the command, without asking the extractor', async () => {
    const { extractor, seen } = recording();
    const started = await runTurn(codeFlow, undefined, { kind: 'start', init: { now: NOW } }, { extractor, env, validators: { checksum } });
    const answered = await runTurn(codeFlow, started.session, { kind: 'text', text: 'AB7', now: NOW }, { extractor, env, validators: { checksum } });
    expect(answered.session.node).toBe('q.next');
    const back = await runTurn(codeFlow, answered.session, { kind: 'text', text: 'back', now: NOW }, { extractor, env, validators: { checksum } });
    expect(back.events).toContainEqual(expect.objectContaining({ type: 'command', command: 'back' }));
    expect(back.session.node).toBe('q.code');
    expect(seen).toEqual(['AB7']);
  });

  it('waits for an extractor that answers with a thenable that is not a native promise', async () => {
    const extractor: Extractor = {
      name: 'thenable',
      extract: (req) => ({
        then: (resolve: (p: unknown) => void) => resolve({ extractor: 'thenable', updates: req.current ? [{ key: req.current.key, value: req.text }] : [], unknown: [] }),
      }) as unknown as ReturnType<Extractor['extract']>,
    };
    const started = await runTurn(codeFlow, undefined, { kind: 'start', init: { now: NOW } }, { extractor, env, validators: { checksum } });
    const answered = await runTurn(codeFlow, started.session, { kind: 'text', text: 'AB7', now: NOW }, { extractor, env, validators: { checksum } });
    expect(answered.session.node).toBe('q.next');
    expect(answered.session.answers.get('code')?.value).toBe('AB7');
  });

  it('refuses a turn on a session that was never started', async () => {
    await expect(runTurn(codeFlow, undefined, { kind: 'text', text: 'AB7', now: NOW }, { env })).rejects.toThrow(/started session/);
  });
});

describe('LocalConversation with named validators', () => {
  it('accepts what the registered validator passes and re-asks with the flow message otherwise', async () => {
    const conv = new LocalConversation(codeFlow, { env, validators: { checksum } });
    await conv.start();
    const wrong = await conv.send('AB1');
    expect(wrong.messages.at(-1)).toMatchObject({ kind: 'invalid', nodeId: 'q.code' });
    expect(wrong.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', key: 'code', reason: 'Codes end in 7.' }));
    const right = await conv.send('AB7');
    expect(right.session.node).toBe('q.next');
  });
});
