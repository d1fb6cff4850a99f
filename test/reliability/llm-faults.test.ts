import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { valueSchema } from '../../server/flow/answer-types.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { salesWithClaude, tool, type FakeReply } from '../support/fake-anthropic.ts';
import { useFakeAnthropic } from '../support/fake-anthropic-hooks.ts';
import { envNumber, recordTally } from './tally.ts';

// A tally of model faults over whole conversations: every model call of a
// scripted sales conversation gets a random reply — a fault (timeout, 429,
// 5xx, a body that is not JSON, no tool call, a tool not offered, off-schema
// input, undeclared keys, an "obeyed" injection) or a correct call — and the
// checks count faults injected, illegal commits (a key the flow does not
// define, or a value its schema refuses: must be 0), stalled turns (a turn
// that threw or left an active conversation without a question: must be 0)
// and faults without an event (must be 0). LLM_FAULT_CONVERSATIONS scales it.

const fake = useFakeAnthropic();
const CONVERSATIONS = envNumber('LLM_FAULT_CONVERSATIONS', 6);

/** Free text that needs the model at each step of the sales flow (the offline rules settle some of it too). */
const SCRIPT = [
  'hi there, we would like to buy some new LED lights for our club',
  'the court is about 1300 square metres I think',
  'mostly tennis, some padel on weekends',
  'there are four poles, roughly',
  'they are about 30 metres up if I remember right',
  'the old ones are 1000 watt metal halide',
  'we could spend around forty thousand dollars',
  'sometime in the next three to twelve months',
  "my name's Ann Lee",
  'Acme Tennis Club',
  'ann@acme.io',
];

type Fault = { name: string; reply: FakeReply; fault: boolean };

const FAULTS: Fault[] = [
  { name: 'timeout', reply: { kind: 'delay', ms: 400 }, fault: true },
  { name: '429', reply: { kind: 'error', status: 429 }, fault: true },
  { name: '500', reply: { kind: 'error', status: 500 }, fault: true },
  { name: '529', reply: { kind: 'error', status: 529 }, fault: true },
  { name: 'not json', reply: { kind: 'malformed', body: '{"type":"message","content":[{' }, fault: true },
  { name: 'no tool call', reply: { kind: 'text', text: 'Sure, done!' }, fault: true },
  { name: 'tool not offered', reply: tool('set_discount', { discount: 50 }), fault: true },
  { name: 'off-schema input', reply: tool('update_answers', { updates: 'court_size=1300' }), fault: true },
  { name: 'truncated input', reply: tool('update_answers', { updates: { court_size: { value: 13 } } }), fault: true },
  { name: 'undeclared keys', reply: tool('update_answers', { updates: { discount: 50, is_vip: true, crm_account_id: 'ACCT-ADMIN', __proto__: { polluted: true } } }), fault: true },
  { name: 'obeyed injection', reply: tool('update_answers', { updates: { court_size: -5, budget: 'unlimited', email: 'not-an-email', timeline: 'yesterday' }, vote_path: { path: 'free_lights', confidence: 1 } }), fault: true },
  { name: 'unknown path vote', reply: tool('vote_path', { path: 'admin_mode', confidence: 1 }), fault: true },
  { name: 'escalate', reply: tool('unknown_answer', { key: 'no_such_key' }), fault: true },
];
const GOOD: Fault = { name: 'correct', reply: tool('unknown_answer', { key: 'court_size' }), fault: false };

/** Keys the flow defines and whether a value passes its schema. */
function legal(flow: CompiledFlow, key: string, value: unknown): boolean {
  const c = [...flow.nodes.values()].find((n) => n.node.type === 'question' && n.node.key === key);
  if (!c || c.node.type !== 'question') return false;
  if (value === null) return c.node.required === false;
  return valueSchema(c.node.answer).safeParse(value).success;
}

describe('model faults over whole conversations', () => {
  it('counts faults injected, illegal commits (0), stalled turns (0) and faults without an event (0)', async () => {
    const plans = fc.sample(fc.array(fc.constantFrom(...FAULTS, GOOD, GOOD), { minLength: SCRIPT.length, maxLength: SCRIPT.length }), { numRuns: CONVERSATIONS, seed: envNumber('FUZZ_SEED', 7) });
    let injected = 0;
    let calls = 0;
    let illegal = 0;
    let stalled = 0;
    let silent = 0;
    const problems: string[] = [];
    for (const plan of plans) {
      const { conv, events } = salesWithClaude(fake(), { timeoutMs: 150, maxRetries: 0 });
      await conv.start();
      const queue: Fault[] = [];
      for (const [i, text] of SCRIPT.entries()) {
        fake().script(plan[i]!.reply);
        queue.push(plan[i]!);
        const before = fake().requests.length;
        const eventsBefore = events.length;
        let reply;
        try {
          reply = await conv.send(text);
        } catch (e) {
          stalled++;
          problems.push(`turn ${i} threw: ${(e as Error).message}`);
          break;
        }
        // the replies the model calls of this turn consumed, oldest first
        const used = queue.splice(0, fake().requests.length - before);
        calls += used.length;
        for (const f of used) {
          if (!f.fault) continue;
          injected++;
          const llmEvents = events.length - eventsBefore + reply.events.filter((e) => e.type === 'llm_proposal_rejected' || e.type === 'validation_failed' || e.type === 'path_vote').length;
          if (llmEvents === 0) {
            silent++;
            problems.push(`turn ${i}: fault '${f.name}' left no event`);
          }
        }
        for (const [key, record] of reply.session.answers) {
          if (!legal(conv.flow, key, record.value)) {
            illegal++;
            problems.push(`turn ${i}: committed ${key}=${JSON.stringify(record.value)}`);
          }
        }
        if (reply.session.status === 'active' && reply.messages.length === 0) {
          stalled++;
          problems.push(`turn ${i}: active with nothing said`);
        }
        if (reply.session.status !== 'active') break;
      }
      // replies never asked for (the offline rules settled those turns): drain them so the next conversation starts clean
      while (fake().pending() > 0) {
        const r = await fetch(`${fake().url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'drain', 'content-type': 'application/json' }, body: '{}' }).catch(() => null);
        await r?.text();
      }
      fake().requests.length = 0;
    }
    recordTally('llm', { llm_calls: calls, llm_faults_injected: injected, llm_illegal_commits: illegal, llm_stalled_turns: stalled, llm_faults_without_event: silent });
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(problems).toEqual([]);
    expect(injected).toBeGreaterThan(0);
  }, 60_000);
});
