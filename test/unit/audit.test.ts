import { describe, expect, it } from 'vitest';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { auditTrace, type AuditCode } from '../../server/engine/audit.ts';
import type { EngineEvent } from '../../server/engine/types.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { compileFile } from '../../server/flow/document.ts';
import { answer, begin, end, flowOf, q } from '../support/engine-harness.ts';

const salesFlow = (() => {
  const r = compileFile('flows/global/sales.flow.json');
  if (r.kind !== 'flow' || !r.flow) throw new Error('sales flow does not compile');
  return r.flow;
})();

/** Plays user lines through the sales flow with a fixed clock; returns the whole trace. */
async function salesTrace(lines: readonly string[]): Promise<{ trace: EngineEvent[]; status: string }> {
  let t = Date.parse('2026-01-15T10:00:00Z');
  const conv = new LocalConversation(salesFlow, {
    actions: sampleActions,
    env: { now: () => new Date((t += 60_000)).toISOString(), sleep: async () => {}, clock: () => 0 },
  });
  await conv.start();
  for (const line of lines) await conv.send(line);
  return { trace: conv.trace, status: conv.session.status };
}

const HAPPY = ['Hi, I want LED lights for a basketball court', '420', '8', '10', 'skip', '25k', 'asap', "I'm Ann Lee", 'Lincoln High', 'ann@example.com', 'yes'];

const codes = (issues: ReturnType<typeof auditTrace>) => issues.map((i) => i.code);

/** A copy of the trace with one event replaced (or removed, with null). */
function tamper(trace: readonly EngineEvent[], match: (e: EngineEvent) => boolean, replace: (e: EngineEvent) => EngineEvent | null): EngineEvent[] {
  const i = trace.findIndex(match);
  if (i < 0) throw new Error('no event to tamper with');
  const out = [...trace];
  const r = replace(trace[i]!);
  if (r) out[i] = r;
  else out.splice(i, 1);
  return out;
}

describe('auditTrace over real runs', () => {
  it('finds nothing wrong with a completed sales run through the LED subgraph and the CRM action', async () => {
    const { trace, status } = await salesTrace(HAPPY);
    expect(status).toBe('completed');
    expect(trace.some((e) => e.type === 'subgraph_exit')).toBe(true);
    expect(auditTrace(salesFlow, trace)).toEqual([]);
  });

  it('finds nothing wrong when back undoes an answer across the subgraph boundary and a wrong email is re-asked', async () => {
    const { trace, status } = await salesTrace([
      'We need new lights, looking for a quote', 'tennis', 'about 1300 m2', '2', '30', 'back', '25', '1000w',
      'back', '1000w', '$40k', 'next season', "I'm Ann Lee", 'Acme Tennis Club', 'ann@acme', 'ann@acmetennis.com', 'yes',
    ]);
    expect(status).toBe('completed');
    expect(trace.filter((e) => e.type === 'back')).toHaveLength(2);
    expect(auditTrace(salesFlow, trace)).toEqual([]);
  });

  it('does not count a budget the flow gave up on through its invalid edge as a missing required answer', async () => {
    const { trace, status } = await salesTrace([
      'I want a quote for new lights', '420', 'basketball', 'school gym', '8', 'skip',
      'no idea', 'no idea', 'no idea', 'asap', 'Ann Lee', 'Lincoln High', 'ann@example.com', 'yes',
    ]);
    expect(trace).toContainEqual(expect.objectContaining({ type: 'node_exit', node: 'q.budget', on: 'invalid' }));
    expect(status).toBe('completed');
    expect(auditTrace(salesFlow, trace)).toEqual([]);
  });

  it('accepts a restart after the end, and the run after it', async () => {
    const { trace } = await salesTrace(['human', 'restart', 'Hi, I want LED lights for a basketball court']);
    expect(trace.some((e) => e.type === 'escalated')).toBe(true);
    expect(auditTrace(salesFlow, trace)).toEqual([]);
  });

  it('follows a re-route on a path switch before the lock without blaming the abandoned branch', () => {
    const flow = flowOf({
      paths: { policy: { lock_threshold: 3 }, prompt: 'Buy or help?', options: { buy: { examples: ['buy'] }, help: { examples: ['help'] } } },
      nodes: [
        q('q.name', 'name'), { id: 'd', type: 'decision' },
        q('q.size', 'size', { answer: { type: 'integer' }, carry: 'drop' }),
        q('q.order', 'order'), end('n.end'),
      ],
      edges: [
        { from: 'q.name', to: 'd' }, { from: 'd', to: 'q.size', guard: "path == 'buy'" }, { from: 'd', to: 'q.order', guard: "path == 'help'" },
        { from: 'q.size', to: 'n.end' }, { from: 'q.order', to: 'n.end' },
      ],
    });
    const trace: EngineEvent[] = [];
    let r = begin(flow);
    trace.push(...r.events);
    r = answer(flow, r.session, { name: 'Ann' }, { pathVote: { path: 'buy' } });
    trace.push(...r.events);
    expect(r.session.node).toBe('q.size');
    for (let i = 0; i < 2; i++) {
      r = answer(flow, r.session, {}, { pathVote: { path: 'help', confidence: 1 } });
      trace.push(...r.events);
    }
    expect(r.session.node).toBe('q.order');
    r = answer(flow, r.session, { order: 'BF-1' });
    trace.push(...r.events);
    expect(r.session.status).toBe('completed');
    expect(trace).toContainEqual(expect.objectContaining({ type: 'path_switch', moved: { from: 'q.size', to: 'd' } }));
    expect(auditTrace(flow, trace)).toEqual([]);
  });
});

/** Plausible answers for a question's type, so random conversations get deep into a flow. */
function answersFor(spec: { type?: string; min?: number; options?: Array<string | { value: string; label?: string }> } | undefined): string[] {
  switch (spec?.type) {
    case 'integer':
    case 'number': return [String(spec.min ?? 1), String(Math.max(spec.min ?? 0, 10)), '420'];
    case 'enum': return (spec.options ?? []).map((o) => (typeof o === 'string' ? o : o.label ?? o.value));
    case 'boolean': return ['yes', 'no'];
    case 'email': return ['ann@example.com'];
    case 'phone': return ['(415) 555-2671'];
    case 'date': return ['1980-02-03', 'last monday'];
    default: return ['Ann Lee', 'The north court lights are flickering since Monday evening', 'BF-104233'];
  }
}

/** A seeded random conversation: mostly fitting answers, with noise, back, restart, a person, operator decisions. */
async function randomRun(flow: CompiledFlow, seed: number): Promise<{ trace: EngineEvent[]; lines: string[] }> {
  let state = seed;
  const rnd = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = (list: readonly string[]) => list[Math.floor(rnd() * list.length)] ?? 'skip';
  const noise = ['skip', 'no idea', 'hmm', 'back', 'back', 'support', 'buy', 'my lights are broken', 'restart'];
  const conv = new LocalConversation(flow, { actions: sampleActions, env: { now: () => '2026-01-15T10:00:00Z', sleep: async () => {}, clock: () => 0 } });
  await conv.start();
  const lines: string[] = [];
  for (let i = 0; i < 50 && ['active', 'waiting'].includes(conv.session.status); i++) {
    if (conv.session.status === 'waiting') {
      const decision = rnd() < 0.7 ? 'approve' : 'reject';
      lines.push(`<${decision}>`);
      await conv.operator(decision);
      continue;
    }
    const n = flow.nodes.get(conv.session.node ?? '')?.node;
    const r = rnd();
    const line = r < 0.75 && n?.type === 'question' ? pick(answersFor(n.answer as Parameters<typeof answersFor>[0]))
      : r < 0.99 ? pick(noise) : 'human';
    lines.push(line);
    await conv.send(line);
  }
  return { trace: conv.trace, lines };
}

describe('auditTrace over random conversations', () => {
  const files = ['global/sales.flow.json', 'global/patient-intake.flow.yaml', 'global/newsletter.flow.json', 'global/checklist.v0.json', 'examples/seed-sales.flow.json'];
  it.each(files)('finds nothing wrong in 30 seeded random conversations through flows/%s', async (file) => {
    const r = compileFile(`flows/${file}`);
    if (r.kind !== 'flow' || !r.flow) throw new Error(`${file} does not compile`);
    for (let seed = 1; seed <= 30; seed++) {
      const { trace, lines } = await randomRun(r.flow, seed);
      expect({ seed, lines, issues: auditTrace(r.flow, trace) }).toEqual({ seed, lines, issues: [] });
    }
  });
});

describe('auditTrace over tampered traces', () => {
  it('reports an exit to a node that is not a target of the node\'s edges as illegal_transition', async () => {
    const { trace } = await salesTrace(HAPPY);
    const bad = tamper(trace, (e) => e.type === 'node_exit' && e.node === 'q.court_size', (e) => ({ ...e, to: 'q.budget' }));
    const issues = auditTrace(salesFlow, bad);
    expect(issues[0]).toMatchObject({ code: 'illegal_transition', node: 'q.court_size', turn: 2 });
    expect(issues[0]!.message).toContain("'q.budget'");
  });

  it('reports entering a node no exit led to as illegal_transition', async () => {
    const { trace } = await salesTrace(HAPPY);
    const bad = tamper(trace, (e) => e.type === 'node_exit' && e.node === 'q.pole_count', () => null);
    expect(auditTrace(salesFlow, bad)).toContainEqual(expect.objectContaining({ code: 'illegal_transition', node: 'q.mounting_height' }));
  });

  it('reports a subgraph return to a node that did not call it as illegal_transition', async () => {
    const { trace } = await salesTrace(HAPPY);
    const bad = tamper(trace, (e) => e.type === 'subgraph_exit', (e) => ({ ...e, node: 'q.intent' }));
    expect(codes(auditTrace(salesFlow, bad))).toContain('illegal_transition');
  });

  it('reports an answer for a key the flow does not define as answer_without_node', async () => {
    const { trace } = await salesTrace(HAPPY);
    const bad = tamper(trace, (e) => e.type === 'answer_set' && e.key === 'court_size', (e) => ({ ...e, key: 'favourite_colour' }));
    const issues = auditTrace(salesFlow, bad);
    expect(issues).toContainEqual(expect.objectContaining({ code: 'answer_without_node', node: 'q.court_size' }));
    expect(issues.find((i) => i.code === 'answer_without_node')!.message).toContain("'favourite_colour'");
  });

  it('reports a completion with an asked required question unanswered as required_not_answered', async () => {
    const { trace } = await salesTrace(HAPPY);
    const bad = tamper(trace, (e) => e.type === 'answer_set' && e.key === 'court_size', () => null);
    expect(auditTrace(salesFlow, bad)).toEqual([
      expect.objectContaining({ code: 'required_not_answered', node: 'n.done', message: expect.stringContaining("'q.court_size'") }),
    ]);
  });

  it('reports events after completion as enter_after_end, once, at the first of them', async () => {
    const { trace } = await salesTrace(HAPPY);
    const last = trace[trace.length - 1]!;
    const bad = [...trace,
      { type: 'node_enter', turn: last.turn + 1, node: 'q.intent', nodeType: 'question' },
      { type: 'answer_set', turn: last.turn + 1, node: 'q.intent', key: 'intention', value: 'support' },
    ] satisfies EngineEvent[];
    expect(auditTrace(salesFlow, bad)).toEqual([
      expect.objectContaining({ code: 'enter_after_end', turn: last.turn + 1, node: 'q.intent', message: expect.stringContaining('2 events') }),
    ]);
  });

  it('reports a required node the completed run never entered as required_node_not_executed', async () => {
    const { trace } = await salesTrace(HAPPY);
    const issues = auditTrace(salesFlow, trace, { requiredNodes: ['a.crm_lookup', 'q.order_number', 'n.nowhere'] });
    expect(issues.map((i) => [i.code, i.message])).toEqual([
      ['required_node_not_executed', "completed without entering 'q.order_number'"],
      ['required_node_not_executed', "completed without entering 'n.nowhere' (not a node of the flow)"],
    ]);
  });

  it('yields every code from one trace that breaks every rule', async () => {
    const { trace } = await salesTrace(HAPPY);
    let bad = tamper(trace, (e) => e.type === 'node_exit' && e.node === 'q.court_size', (e) => ({ ...e, to: 'n.done' }));
    bad = tamper(bad, (e) => e.type === 'answer_set' && e.key === 'court_size', (e) => ({ ...e, key: 'nope' }));
    bad.push({ type: 'guard', turn: 99, node: 'n.done', edge: 'x', result: true });
    const found = new Set(codes(auditTrace(salesFlow, bad, { requiredNodes: ['n.escalate'] })));
    expect([...found].sort()).toEqual(([
      'answer_without_node', 'enter_after_end', 'illegal_transition', 'required_node_not_executed', 'required_not_answered',
    ] satisfies AuditCode[]));
  });
});
