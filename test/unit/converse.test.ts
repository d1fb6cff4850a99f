import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { checkImplementations, converse, openFlow, QuestlineUsageError, setup } from '../../server/api/index.ts';

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
const actions = { quote: async (input: Record<string, unknown>) => ({ total: Number(input.seats) * 10 }) };

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
    const chat = converse(flow, { validators, actions });
    await chat.start();
    await chat.send('me@acme.io');
    const back = await chat.command('back');
    expect(back.messages.at(-1)?.text).toBe('Work email?');
    expect(back.events.some((e) => e.type === 'command')).toBe(true);
  });

  it('refuses to move a conversation that has not started', async () => {
    await expect(converse(flow, { validators, actions }).send('hello')).rejects.toThrow(/has not started; call start\(\) first/);
  });
});

describe('converse checks what it is given before anything is said', () => {
  const usage = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      expect(err).toBeInstanceOf(QuestlineUsageError);
      return err as QuestlineUsageError;
    }
    throw new Error('did not throw');
  };

  it('refuses a flow naming a validator or an action that is not given, with file:line:col', () => {
    const fromFile = openFlow(fileURLToPath(new URL('../../examples/signup.flow.json', import.meta.url)));
    if (!fromFile.ok) throw new Error('signup flow');
    const err = usage(() => converse(fromFile.flow, { actions: { 'pricing.quote': async () => ({ total: 1 }) } }));
    expect(err.code).toBe('unregistered_implementation');
    expect(err.message).toMatch(/signup\.flow\.json:11:30: error \[unregistered_validator\] validator 'work_email' is not registered/);
    const both = usage(() => converse(flow));
    expect(both.message).toContain("validator 'work_email' is not registered");
    expect(both.message).toContain("action 'quote' is not registered");
  });

  it("names openFlow's result passed instead of .flow, and a broken flow's result", () => {
    expect(usage(() => converse(opened as never, { validators, actions })).message)
      .toBe("converse(flow, options): pass the compiled flow, opened.flow, not openFlow's result itself");
    const broken = openFlow({ version: 'v1', id: 'x', nodes: [{ id: 'q', type: 'question' }] });
    expect(usage(() => converse(broken as never)).message).toMatch(/openFlow could not compile this flow \(check opened.ok/);
    expect(usage(() => converse({ version: 'v1', id: 'x', nodes: [] } as never)).message).toMatch(/a flow document, not a compiled flow; pass openFlow\(document\).flow/);
  });

  it('says what was expected for a validator that is not a function, a misspelled option and a bad clock', () => {
    expect(usage(() => converse(flow, { validators: { work_email: 'nope' as never }, actions })).message)
      .toBe('converse(flow, options): options.validators.work_email: expected a function (value, args, answers) => message | null, got the string "nope"');
    const typo = usage(() => converse(flow, { validator: validators, actions } as never));
    expect(typo.message).toMatch(/options\.validator is not an option \(did you mean validators\?\)/);
    expect(usage(() => converse(flow, { validators, actions, now: 'yesterday' })).message).toMatch(/options\.now: expected an ISO date-time or a function returning one, got the string "yesterday"/);
  });

  it("defaults a plain-JS extractor's missing unknown, and names a proposal that is not one", async () => {
    const lax = { name: 'mine', extract: () => ({ updates: [{ key: 'email', value: 'me@acme.io' }] }) };
    const chat = converse(flow, { validators, actions, extractor: lax as never });
    await chat.start();
    expect((await chat.send('anything')).answers).toEqual({ email: 'me@acme.io' });
    const wrong = { name: 'wrong', extract: () => ({ updates: { email: 'x' } }) };
    const bad = converse(flow, { validators, actions, extractor: wrong as never });
    await bad.start();
    const err = await bad.send('anything').catch((e: unknown) => e as QuestlineUsageError);
    expect(err).toBeInstanceOf(QuestlineUsageError);
    expect((err as QuestlineUsageError).code).toBe('invalid_proposal');
    expect((err as Error).message).toMatch(/extractor 'wrong' returned something that is not a proposal[\s\S]*proposal\.updates: expected a list of \{ key, value \}/);
  });

  it('checkImplementations takes the implementations as converse does, or lists of names', () => {
    expect(checkImplementations(flow, { validators, actions })).toEqual([]);
    expect(checkImplementations(flow, { validators: ['work_email'], actions: new Set(['quote']) })).toEqual([]);
    expect(checkImplementations(flow, { validators }).map((d) => d.code)).toEqual(['unregistered_action']);
    expect(usage(() => checkImplementations(opened, { validators })).message).toMatch(/pass the compiled flow, opened.flow/);
  });
});

describe('converse saves and resumes', () => {
  it('every exchange carries the session; converse(flow, { session }) goes on from it', async () => {
    const store = new Map<string, string>();
    const first = converse(flow, { validators, actions, context: { company: 'Acme' }, now: '2026-02-01T09:00:00Z' });
    await first.start();
    const after = await first.send('me@acme.io');
    expect(after.session.node).toBe('q.seats');
    store.set('visitor-1', JSON.stringify(after.session)); // any store: a file, a database row, Redis
    const again = converse(flow, { validators, actions, session: JSON.parse(store.get('visitor-1')!), now: '2026-02-01T09:05:00Z' });
    expect(again.session?.node).toBe('q.seats');
    const done = await again.send('3');
    expect(done.status).toBe('completed');
    expect(done.answers).toEqual({ email: 'me@acme.io', seats: 3, total: 30 });
    expect(done.messages.at(-1)?.text).toBe('Total 30 for Acme.');
  });

  it('refuses a session of another flow', () => {
    const other = openFlow({ version: 'v1', id: 'flow.other', nodes: [{ id: 'n', type: 'terminal' }] });
    if (!other.ok) throw new Error('other');
    const session = { v: 3, flow: { id: 'flow.quote', revision: 'r' } };
    expect(() => converse(other.flow, { session: session as never })).toThrow(QuestlineUsageError);
  });
});

describe('setup(): the typed path', () => {
  const app = setup({ validators, actions });
  it('compiles a flow written in code and converses with the implementations given', async () => {
    const f = app.flow({
      version: 'v1', id: 'flow.typed',
      nodes: [
        { id: 'q.email', type: 'question', key: 'email', prompt: 'Work email?', answer: { type: 'email' }, validate: [{ name: 'work_email', message: 'A work address, please.' }] },
        { id: 'n.done', type: 'terminal', say: 'Thanks.' },
      ],
    });
    const chat = app.converse(f);
    await chat.start();
    expect((await chat.send('me@gmail.com')).messages.map((m) => m.text)).toContain('A work address, please. Work email?');
    expect((await chat.send('me@acme.io')).status).toBe('completed');
  });

  it('throws a QuestlineUsageError listing what does not compile', () => {
    expect(() => app.flow({ version: 'v1', id: 'flow.broken', nodes: [] })).toThrow(/setup\(…\)\.flow\(document\): the flow does not compile:[\s\S]*no_nodes/);
  });
});
