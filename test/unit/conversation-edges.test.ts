import { describe, expect, it } from 'vitest';
import { start, turn } from '../../server/engine/engine.ts';
import { extractionRequest, matchCommand } from '../../server/engine/extraction.ts';
import type { Session } from '../../server/engine/session.ts';
import type { Effect, TurnResult } from '../../server/engine/types.ts';
import { OfflineExtractor } from '../../server/extract/offline/offline-extractor.ts';
import { matchTrigger } from '../../server/extract/offline/triggers.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { checkContext } from '../../server/flow/context-check.ts';
import { compileText } from '../../server/flow/document.ts';

const NOW = '2026-01-15T10:00:00Z';
const rules = new OfflineExtractor();

function compile(doc: unknown) {
  return compileText(JSON.stringify(doc), 'edge.flow.json');
}
function flowOf(doc: unknown): CompiledFlow {
  const r = compile(doc);
  if (r.kind !== 'flow' || !r.flow) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}
/** Sends text the way the runner does: a command word, else the offline rules' proposal. */
function say(flow: CompiledFlow, s: Session, text: string): TurnResult {
  const command = matchCommand(flow, text);
  if (command) return turn(flow, s, { kind: 'command', command, now: NOW, text });
  return turn(flow, s, { kind: 'message', text, now: NOW, proposal: rules.extract(extractionRequest(flow, s, text, NOW)) });
}
const texts = (r: TurnResult) => r.effects.flatMap((e) => (e.type === 'ask' || e.type === 'say' ? [e.text] : []));

const base = {
  version: 'v1', id: 'edge',
  triggers: [
    { id: 'danger', phrases: ['chest pain', 'cannot breathe'], goto: 'n.emergency', off_at: ['q.notes'], urgent: true, reason: 'red flag' },
    { id: 'person', phrases: ['let me speak to someone'], command: 'human' },
  ],
  nodes: [
    { id: 'q.name', type: 'question', key: 'name', prompt: 'Your name?' },
    { id: 'q.notes', type: 'question', key: 'notes', prompt: 'Anything else?' },
    { id: 'q.city', type: 'question', key: 'city', prompt: 'City?', dependencies: ['email'] },
    { id: 'q.email', type: 'question', key: 'email', prompt: 'Email?', answer: { type: 'email' } },
    { id: 'n.done', type: 'terminal' },
    { id: 'n.emergency', type: 'terminal', outcome: 'escalated', say: 'Call 911.' },
  ],
  edges: [
    { from: 'q.name', to: 'q.notes' }, { from: 'q.notes', to: 'q.city' }, { from: 'q.city', to: 'q.email' }, { from: 'q.email', to: 'n.done' },
  ],
};

describe('flow triggers', () => {
  it('a trigger phrase wins over the answer and marks the session urgent', () => {
    const flow = flowOf(base);
    const r = say(flow, start(flow, { now: NOW }).session, 'I have chest pain');
    expect(r.session.status).toBe('escalated');
    expect(r.session.node).toBe('n.emergency');
    expect(r.session.answers.has('name')).toBe(false);
    expect(r.session.urgent).toEqual({ reason: 'red flag', trigger: 'danger', turn: 1 });
    expect(r.events.map((e) => e.type)).toContain('trigger_matched');
    expect(texts(r)).toContain('Call 911.');
  });

  it('a negated phrase does not fire: "no chest pain" is an answer', () => {
    const flow = flowOf(base);
    const r = say(flow, start(flow, { now: NOW }).session, 'Ann, no chest pain');
    expect(r.session.status).toBe('active');
    expect(r.events.map((e) => e.type)).not.toContain('trigger_matched');
  });

  it('negation is clause-bound and ignores later clauses', () => {
    const t = [{ id: 'x', phrases: ['chest pain', "can't breathe"], examples: [] }];
    expect(matchTrigger("I don't have chest pain", t)).toBeUndefined();
    expect(matchTrigger('no fever, but crushing chest pain', t)?.id).toBe('x');
    expect(matchTrigger('I can’t breathe', t)?.id).toBe('x');
    expect(matchTrigger('without any chest pain', t)).toBeUndefined();
  });

  it('is off at the nodes listed in off_at, and the extractor is not even told', () => {
    const flow = flowOf(base);
    const at = say(flow, start(flow, { now: NOW }).session, 'Ann');
    expect(at.session.node).toBe('q.notes');
    expect(extractionRequest(flow, at.session, 'chest pain', NOW).triggers?.map((t) => t.id)).toEqual(['person']);
    const r = say(flow, at.session, 'I had chest pain last year');
    expect(r.session.status).toBe('active');
    expect(r.session.answers.get('notes')?.value).toBe('I had chest pain last year');
  });

  it('a command trigger runs the command', () => {
    const flow = flowOf(base);
    const r = say(flow, start(flow, { now: NOW }).session, 'please let me speak to someone');
    expect(r.session.status).toBe('escalated');
    expect(r.session.urgent).toBeUndefined();
  });

  it('compile reports a goto that is not a node and an off_at that is not a node', () => {
    const r = compile({ ...base, triggers: [{ id: 't', phrases: ['x'], goto: 'n.nowhere', off_at: ['q.gone'] }] });
    expect(r.diagnostics.filter((d) => d.code === 'unknown_node').map((d) => d.message)).toEqual([
      "trigger 't' goes to 'n.nowhere', which is not a node", "trigger 't' is off at 'q.gone', which is not a node",
    ]);
  });
});

describe('cancel asks first', () => {
  const flow = flowOf({ ...base, commands: { cancel_confirm: 'Really stop?' } });
  it('asks with the flow\'s words; anything but yes carries on at the same question', () => {
    const s0 = start(flow, { now: NOW }).session;
    const asked = say(flow, s0, 'stop');
    expect(asked.session.status).toBe('active');
    expect(texts(asked)).toEqual(['Really stop?']);
    const carried = say(flow, asked.session, 'no, sorry');
    expect(carried.session.status).toBe('active');
    expect(carried.session.node).toBe('q.name');
    expect(carried.session.answers.size).toBe(0);
    expect(texts(carried)).toEqual(['Your name?']);
  });
  it('yes abandons', () => {
    const asked = say(flow, start(flow, { now: NOW }).session, 'cancel');
    const r = say(flow, asked.session, 'Yes');
    expect(r.session.status).toBe('abandoned');
  });
});

describe('path prompt liveness', () => {
  const doc = (extra: Record<string, unknown>) => ({
    version: 'v1', id: 'paths',
    paths: { prompt: 'Buy or fix?', max_attempts: 2, options: { buy: { examples: ['buy'] }, fix: { examples: ['fix'] } }, ...extra },
    nodes: [
      { id: 'n.route', type: 'decision', routes: { on: 'path', cases: { buy: 'q.buy', fix: 'q.fix' } } },
      { id: 'q.buy', type: 'question', key: 'what' },
      { id: 'q.fix', type: 'question', key: 'broken' },
      { id: 'n.done', type: 'terminal' },
    ],
    edges: [{ from: 'q.buy', to: 'n.done' }, { from: 'q.fix', to: 'n.done' }],
  });
  it('after max_attempts the default path is locked and followed', () => {
    const flow = flowOf(doc({ default: 'fix' }));
    let s = start(flow, { now: NOW }).session;
    s = say(flow, s, 'hmm').session;
    expect(s.node).toBe('n.route');
    const r = say(flow, s, 'neither really');
    expect(r.session.node).toBe('q.fix');
    expect(r.session.path).toMatchObject({ tentative: 'fix', locked: true });
  });
  it('without a default it escalates instead of asking for ever', () => {
    const flow = flowOf(doc({}));
    let s = start(flow, { now: NOW }).session;
    s = say(flow, s, 'hmm').session;
    expect(say(flow, s, 'neither really').session.status).toBe('escalated');
  });
  it('a default that is not a declared path is a compile error', () => {
    expect(compile(doc({ default: 'nope' })).diagnostics.map((d) => d.code)).toContain('unknown_path');
  });
});

describe('dependencies', () => {
  it('a volunteered answer is not committed before the key it depends on', () => {
    const flow = flowOf(base);
    let s = start(flow, { now: NOW }).session;
    s = say(flow, s, 'Ann').session;
    // at q.notes: the city is volunteered, but it depends on the email, not given yet
    const r = turn(flow, s, { kind: 'message', text: 'x', now: NOW, proposal: { extractor: 'rules', updates: [{ key: 'notes', value: 'none' }, { key: 'city', value: 'Lyon' }], unknown: [] } });
    expect(r.session.answers.has('city')).toBe(false);
    expect(r.events.find((e) => e.type === 'proposal_rejected')?.reason).toBe("'city' depends on 'email', not answered yet");
    // with the email in the same message it stands
    const both = turn(flow, s, { kind: 'message', text: 'x', now: NOW, proposal: { extractor: 'rules', updates: [{ key: 'notes', value: 'none' }, { key: 'city', value: 'Lyon' }, { key: 'email', value: 'a@b.io' }], unknown: [] } });
    expect(both.session.answers.get('city')?.value).toBe('Lyon');
  });
});

describe('dependencies in graph order', () => {
  // q.city depends on the email, but the graph reaches it first
  const asked = (r: TurnResult) => r.effects.filter((e) => e.type === 'ask').map((e) => e.nodeId);
  const toCity = (flow: ReturnType<typeof flowOf>) => say(flow, say(flow, start(flow, { now: NOW }).session, 'Ann').session, 'nothing more');

  it('asks the missing dependency first, then comes back to the question that needed it', () => {
    const flow = flowOf(base);
    const r = toCity(flow);
    expect(asked(r)).toEqual(['q.email']);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'dependency', node: 'q.city', key: 'city', asks: 'email' }));
    expect(r.session.detour).toEqual({ node: 'q.city', stack: [] });
    // the email and the city are both still to come
    const p = (r.effects.find((e) => e.type === 'ask') as Extract<Effect, { type: 'ask' }>).progress;
    expect(p.total - p.answered).toBe(2);
    const back = say(flow, r.session, 'ann@example.com');
    expect(asked(back)).toEqual(['q.city']);
    expect(back.session.detour).toBeUndefined();
    const done = say(flow, back.session, 'Lyon');
    // q.email, already answered, is skipped on the way out
    expect(done.session.status).toBe('completed');
    expect(Object.fromEntries(done.session.answers)).toMatchObject({ email: { value: 'ann@example.com' }, city: { value: 'Lyon' } });
  });

  it('a dependency that gets no valid answer fails the question that needed it (its invalid edge, else an escalation)', () => {
    const flow = flowOf(base);
    let r = toCity(flow);
    for (let i = 0; i < 3; i++) r = say(flow, r.session, 'no idea');
    expect(r.session.status).toBe('escalated');
    expect(r.session.node).toBe('q.city');
    expect(r.events.find((e) => e.type === 'escalated')?.reason).toMatch(/'email'/);
    const withEdge = flowOf({ ...base, nodes: [...base.nodes, { id: 'n.no_email', type: 'terminal', outcome: 'no_email' }],
      edges: [...base.edges, { from: 'q.city', to: 'n.no_email', on: 'invalid' }] });
    r = toCity(withEdge);
    for (let i = 0; i < 3; i++) r = say(withEdge, r.session, 'no idea');
    expect(r.session).toMatchObject({ status: 'completed', outcome: 'no_email' });
  });

  it('`back` into a detour returns to it: answering the dependency again goes back to the question that needed it', () => {
    const flow = flowOf(base);
    const atCity = say(flow, toCity(flow).session, 'ann@example.com');
    const undone = say(flow, atCity.session, 'back');
    expect(asked(undone)).toEqual(['q.email']);
    expect(undone.session.answers.has('email')).toBe(false);
    expect(undone.session.detour).toEqual({ node: 'q.city', stack: [] });
    expect(asked(say(flow, undone.session, 'bo@example.com'))).toEqual(['q.city']);
  });

  it('a dependency whose question does not apply does not hold the question back', () => {
    const flow = flowOf({ ...base, nodes: base.nodes.map((n) => (n.id === 'q.email' ? { ...n, when: "answers.name == 'nobody'" } : n)) });
    expect(asked(toCity(flow))).toEqual(['q.city']);
  });
});

describe('interface.context', () => {
  const flow = { interface: { context: { type: 'object', properties: { clinic_id: { type: 'string' }, visitor: { type: 'object', properties: { age: { type: 'integer', minimum: 0 } } } }, required: ['clinic_id'] } } };
  it('names the missing or wrong field', () => {
    expect(checkContext(flow, {})).toEqual([{ field: 'clinic_id', message: 'clinic_id is required' }]);
    expect(checkContext(flow, { clinic_id: 3, visitor: { age: -1 } }).map((i) => i.field)).toEqual(['clinic_id', 'visitor.age']);
    expect(checkContext(flow, { clinic_id: 'north', visitor: { age: 30 } })).toEqual([]);
    expect(checkContext({}, { anything: 1 })).toEqual([]);
  });
});

describe('the model side of triggers', () => {
  it('is offered the active triggers with their descriptions, and its match becomes the proposal\'s trigger', async () => {
    const { toolsFor } = await import('../../server/extract/anthropic/schema.ts');
    const { proposalFromToolCalls } = await import('../../server/extract/tool-calls.ts');
    const flow = flowOf({ ...base, triggers: [{ ...base.triggers[0], description: 'a medical emergency now' }] });
    const req = extractionRequest(flow, start(flow, { now: NOW }).session, 'my chest is crushing', NOW);
    const tool = toolsFor(req).find((t) => t.name === 'match_trigger')!;
    expect(tool.description).toContain('danger: a medical emergency now');
    expect((tool.input_schema as unknown as { properties: { id: { enum: string[] } } }).properties.id.enum).toEqual(['danger']);
    expect(proposalFromToolCalls([{ tool: 'match_trigger', input: { id: 'danger', confidence: 0.9 } }], req, 'anthropic').trigger).toEqual({ id: 'danger', confidence: 0.9 });
  });
  it('an offline trigger match settles the message without the model', async () => {
    const { exactRule } = await import('../../server/extract/anthropic/hybrid.ts');
    const flow = flowOf(base);
    const req = extractionRequest(flow, start(flow, { now: NOW }).session, 'I cannot breathe', NOW);
    expect(exactRule(req, rules.extract(req))).toBe('trigger');
  });
  it('a pause ("hold on, let me check") settles the message without the model', async () => {
    const { exactRule } = await import('../../server/extract/anthropic/hybrid.ts');
    const flow = flowOf(base);
    const req = extractionRequest(flow, start(flow, { now: NOW }).session, 'hold on, let me check', NOW);
    expect(exactRule(req, rules.extract(req))).toBe('pause');
  });
});
