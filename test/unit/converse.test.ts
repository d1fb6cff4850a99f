import { describe, expect, it } from 'vitest';
import { converse, openFlow } from '../../server/api/index.ts';

// converse(): the public one-call conversation. Each step returns plain data
// (messages, answers as an object, status, events) from the same turn runner
// the server uses: named validators refuse, actions run, commands and
// operator decisions move the session.

const opened = openFlow({
  version: 'v1',
  id: 'flow.quote',
  nodes: [
    { id: 'q.email', type: 'question', key: 'email', prompt: 'Work email?', answer: { type: 'email' },
      validate: [{ name: 'work_email', message: 'A work address, please.' }] },
    { id: 'q.seats', type: 'question', key: 'seats', prompt: 'How many seats?', answer: { type: 'integer' } },
    { id: 'a.quote', type: 'action', call: 'quote', input_map: { seats: 'answers.seats' }, output_map: { total: 'total' }, provides: ['total'] },
    { id: 'n.done', type: 'terminal', say: 'Total {{answers.total}} for {{context.company}}.' },
  ],
});
if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics));
const flow = opened.flow;
const validators = { work_email: (v: unknown) => (String(v).endsWith('@gmail.com') ? 'personal' : null) };

describe('converse', () => {
  it('runs a conversation with a named validator, an action and the context, returning plain data', async () => {
    const seen: unknown[] = [];
    const chat = converse(flow, {
      validators, context: { company: 'Acme' }, now: '2026-02-01T09:00:00Z',
      actions: { quote: async (input) => (seen.push(input), { total: Number(input.seats) * 10 }) },
    });
    const first = await chat.start();
    expect(first).toMatchObject({ status: 'active', answers: {}, messages: [{ text: 'Work email?', kind: 'question' }] });
    expect(first.events.some((e) => e.type === 'node_enter')).toBe(true);
    const refused = await chat.send('me@gmail.com');
    expect(refused.messages.map((m) => m.text)).toContain('A work address, please. Work email?');
    expect(refused.answers).toEqual({});
    await chat.send('me@acme.io');
    const done = await chat.send('7');
    expect(seen).toEqual([{ seats: 7 }]);
    expect(done.status).toBe('completed');
    expect(done.answers).toEqual({ email: 'me@acme.io', seats: 7, total: 70 });
    expect(Object.getPrototypeOf(done.answers)).toBe(Object.prototype);
    expect(done.messages.at(-1)?.text).toBe('Total 70 for Acme.');
    expect(JSON.parse(JSON.stringify(done))).toEqual(done);
  });

  it('takes commands as controls: back reopens the previous question', async () => {
    const chat = converse(flow, { validators });
    await chat.start();
    await chat.send('me@acme.io');
    const back = await chat.command('back');
    expect(back.messages.at(-1)?.text).toBe('Work email?');
    expect(back.events.some((e) => e.type === 'command')).toBe(true);
  });

  it('refuses to move a conversation that has not started', async () => {
    await expect(converse(flow).send('hello')).rejects.toThrow(/needs a started session/);
  });
});
