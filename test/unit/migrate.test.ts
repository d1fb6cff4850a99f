import { describe, expect, it } from 'vitest';
import { compileText } from '../../server/flow/document.ts';
import { checklistOrder, migrateV0 } from '../../server/flow/migrate.ts';
import { FlowV0 } from '../../server/flow/schema.ts';

const v0 = (doc: Record<string, unknown>) => FlowV0().parse({ version: 'v0', id: 'flow.c', ...doc }) as FlowV0;

describe('v0 checklist order', () => {
  it('asks the lowest priority first, ties broken by key', () => {
    const order = checklistOrder(v0({ questions: [
      { key: 'zeta', priority: 1 }, { key: 'alpha', priority: 1 }, { key: 'first', priority: 0 }, { key: 'none' },
    ] }).questions);
    expect(order.map((q) => q.key)).toEqual(['first', 'alpha', 'zeta', 'none']);
  });

  it('asks a question only after its dependencies, even when its priority is lower', () => {
    const order = checklistOrder(v0({ questions: [
      { key: 'details', priority: 1, dependencies: ['product'] }, { key: 'product', priority: 5 }, { key: 'name', priority: 3 },
    ] }).questions);
    expect(order.map((q) => q.key)).toEqual(['name', 'product', 'details']);
  });

  it('puts questions caught in a dependency cycle last instead of dropping them', () => {
    const order = checklistOrder(v0({ questions: [{ key: 'a', dependencies: ['b'] }, { key: 'b', dependencies: ['a'] }, { key: 'c' }] }).questions);
    expect(order.map((q) => q.key)).toEqual(['c', 'a', 'b']);
  });
});

describe('v0 → v1 migration', () => {
  it('turns a checklist without paths into a sequence ending at a terminal, keeping when/required/dependencies', () => {
    const { flow } = migrateV0(v0({ questions: [
      { key: 'email', prompt: 'Email?', priority: 2, answer: { type: 'email' }, when: "answers.pref == 'email'", dependencies: ['pref'] },
      { key: 'pref', prompt: 'Email or phone?', priority: 1, answer: { type: 'enum', options: ['email', 'phone'] } },
      { key: 'notes', prompt: 'Anything else?', required: false, priority: 9 },
    ] }));
    expect(flow.nodes.map((n) => n.id)).toEqual(['q.pref', 'q.email', 'q.notes', 'n.done']);
    expect(flow.nodes[2]).toMatchObject({ never_ask: true });
    expect(flow.nodes[1]).toMatchObject({ type: 'question', key: 'email', when: "answers.pref == 'email'", dependencies: ['pref'], required: true });
    expect(flow.nodes[2]).toMatchObject({ required: false });
    const compiled = compileText(JSON.stringify(flow), 'm.json');
    expect(compiled.diagnostics).toEqual([]);
  });

  it('asks the shared questions, then the global ones while no path is voted, and the path prompt only after them', () => {
    const { flow } = migrateV0(v0({
      questions: [{ key: 'name', prompt: 'Name?', priority: 1 }, { key: 'size', prompt: 'Size?', priority: 5 }],
      paths: {
        buy: { label: 'Buy', examples: ['quote'], questions: [{ key: 'size', prompt: 'Court size?' }, { key: 'budget', prompt: 'Budget?', priority: 6 }] },
        support: { label: 'Support', questions: [{ key: 'order', prompt: 'Order number?', priority: 2 }] },
      },
    }));
    expect(flow.entry).toBe('q.name');
    expect(flow.nodes.map((n) => n.id)).toEqual(['q.name', 'n.hub', 'q.size', 'n.route', 'q.buy.after_prompt.budget', 'q.support.after_prompt.order',
      'q.buy.size', 'q.buy.budget', 'q.support.order', 'q.support.size', 'n.done']);
    // a voted path: its whole merged checklist; none yet: on through the global questions, not the path prompt
    expect(flow.nodes.find((n) => n.id === 'n.hub')).toMatchObject({ type: 'decision', routes: { on: 'path', cases: { buy: 'q.buy.size' }, default: 'q.support.order' } });
    expect(flow.edges).toContainEqual({ from: 'n.hub', to: 'q.size', on: 'no_path', label: 'No path voted yet' });
    expect(flow.edges).toContainEqual({ from: 'q.size', to: 'n.route' });
    // the prompt, last: into the questions each path adds; exhausted, the checklist completes
    expect(flow.nodes.find((n) => n.id === 'n.route')).toMatchObject({ routes: { on: 'path', cases: { buy: 'q.buy.after_prompt.budget' }, default: 'q.support.after_prompt.order' } });
    expect(flow.edges).toContainEqual({ from: 'n.route', to: 'n.done', on: 'invalid', label: 'No path chosen' });
    expect(flow.nodes.find((n) => n.id === 'q.buy.size')).toMatchObject({ prompt: 'Court size?' });
    expect(flow.nodes.find((n) => n.id === 'q.support.size')).toMatchObject({ prompt: 'Size?' });
    expect(flow.paths).toMatchObject({ policy: { lock_threshold: 2, allow_switch_before_lock: true }, options: { buy: { label: 'Buy', examples: ['quote'] } } });
    const compiled = compileText(JSON.stringify(flow), 'm.json');
    expect(compiled.diagnostics).toEqual([]);
  });

  it('never asks an optional question: it ends each sequence as never_ask, open to a volunteered answer', () => {
    const { flow } = migrateV0(v0({
      questions: [{ key: 'name', prompt: 'Name?', priority: 1 }, { key: 'notes', prompt: 'Notes?', required: false, priority: 0 }],
      paths: { a: { questions: [{ key: 'x', prompt: 'X?', priority: 3 }, { key: 'photo', prompt: 'Photo?', required: false, priority: 2 }] }, b: {} },
    }));
    expect(flow.nodes.map((n) => n.id)).toEqual(['q.name', 'n.route', 'q.a.x', 'q.a.notes', 'q.a.photo', 'q.b.notes', 'n.done']);
    expect(flow.nodes.find((n) => n.id === 'q.a.photo')).toMatchObject({ required: false, never_ask: true });
    expect(flow.nodes.find((n) => n.id === 'q.a.x')).not.toHaveProperty('never_ask');
    expect(compileText(JSON.stringify(flow), 'm.json').diagnostics).toEqual([]);
  });

  it('compiles the shipped v0 checklist to the same revision as its printed migration', () => {
    const direct = compileText(JSON.stringify(v0({ questions: [{ key: 'a', prompt: 'A?' }] })), 'a.v0.json');
    const { flow } = migrateV0(v0({ questions: [{ key: 'a', prompt: 'A?' }] }));
    const migrated = compileText(JSON.stringify(flow), 'a.json');
    expect(direct.kind === 'flow' && direct.flow?.revision).toBe(migrated.kind === 'flow' && migrated.flow?.revision);
  });
});

describe('a v0 flow and its printed migration', () => {
  it('hold the same conversation, turn for turn', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { compileFile } = await import('../../server/flow/document.ts');
    const { LocalConversation } = await import('../../server/conversation/local-conversation.ts');
    const { answerValues } = await import('../../server/engine/session.ts');
    const v0 = compileFile('flows/global/checklist.v0.json');
    if (v0.kind !== 'flow' || !v0.flow || !v0.ir) throw new Error('v0 flow does not compile');
    const file = join(mkdtempSync(join(tmpdir(), 'questline-mig-')), 'migrated.flow.json');
    writeFileSync(file, JSON.stringify(v0.ir));
    const v1 = compileFile(file);
    if (v1.kind !== 'flow' || !v1.flow) throw new Error('migrated flow does not compile');
    const play = async (flow: typeof v1.flow) => {
      const conv = new LocalConversation(flow!, { env: { now: () => '2026-01-15T10:00:00Z', sleep: async () => {}, clock: () => 0 } });
      const seen = [(await conv.start()).messages];
      for (const text of ['Ann Lee', 'ann@example.com', 'warranty claim, it stopped working after a month', 'back', 'it is a warranty claim', 'Floodlight 400', 'March 3rd', 'it flickers and then goes dark', '12', 'skip', 'skip']) {
        seen.push((await conv.send(text)).messages);
      }
      return { seen, status: conv.session.status, answers: answerValues(conv.session), trace: conv.trace };
    };
    const a = await play(v0.flow);
    const b = await play(v1.flow);
    expect(b).toEqual(a);
    expect(a.seen.length).toBe(12);
  });
});
