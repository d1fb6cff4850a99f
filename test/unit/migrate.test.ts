import { describe, expect, it } from 'vitest';
import { compileText } from '../../server/flow/document.ts';
import { checklistOrder, migrateV0 } from '../../server/flow/migrate.ts';
import { FlowV0 } from '../../server/flow/schema.ts';

const v0 = (doc: Record<string, unknown>) => FlowV0.parse({ version: 'v0', id: 'flow.c', ...doc });

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
    expect(flow.nodes[1]).toMatchObject({ type: 'question', key: 'email', when: "answers.pref == 'email'", dependencies: ['pref'], required: true });
    expect(flow.nodes[2]).toMatchObject({ required: false });
    const compiled = compileText(JSON.stringify(flow), 'm.json');
    expect(compiled.diagnostics).toEqual([]);
  });

  it('asks the questions all paths share first, then routes on the locked path into each merged checklist', () => {
    const { flow } = migrateV0(v0({
      questions: [{ key: 'name', prompt: 'Name?', priority: 1 }, { key: 'size', prompt: 'Size?', priority: 5 }],
      paths: {
        buy: { label: 'Buy', examples: ['quote'], questions: [{ key: 'size', prompt: 'Court size?' }, { key: 'budget', prompt: 'Budget?', priority: 6 }] },
        support: { label: 'Support', questions: [{ key: 'order', prompt: 'Order number?', priority: 2 }] },
      },
    }));
    expect(flow.entry).toBe('q.name');
    const route = flow.nodes.find((n) => n.id === 'n.route');
    expect(route).toMatchObject({ type: 'decision', routes: { on: 'path', cases: { buy: 'q.buy.size' }, default: 'q.support.order' } });
    expect(flow.nodes.find((n) => n.id === 'q.buy.size')).toMatchObject({ prompt: 'Court size?' });
    expect(flow.nodes.find((n) => n.id === 'q.support.size')).toMatchObject({ prompt: 'Size?' });
    expect(flow.paths).toMatchObject({ policy: { lock_threshold: 2, allow_switch_before_lock: true }, options: { buy: { label: 'Buy', examples: ['quote'] } } });
    const compiled = compileText(JSON.stringify(flow), 'm.json');
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('compiles the shipped v0 checklist to the same revision as its printed migration', () => {
    const direct = compileText(JSON.stringify(v0({ questions: [{ key: 'a', prompt: 'A?' }] })), 'a.v0.json');
    const { flow } = migrateV0(v0({ questions: [{ key: 'a', prompt: 'A?' }] }));
    const migrated = compileText(JSON.stringify(flow), 'a.json');
    expect(direct.kind === 'flow' && direct.flow?.revision).toBe(migrated.kind === 'flow' && migrated.flow?.revision);
  });
});
