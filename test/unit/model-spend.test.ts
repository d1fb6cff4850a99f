import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Tenant } from '../../server/catalog/tenant.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { LocalConversation } from '../../server/conversation/local-conversation.ts';
import { ConversationService } from '../../server/conversation/service.ts';
import { runTurn } from '../../server/conversation/turn-runner.ts';
import { sessionFromJson } from '../../server/engine/session.ts';
import { AnthropicExtractor, type AnthropicEvent, type AnthropicExtractorOptions } from '../../server/extract/anthropic/index.ts';
import { DailySpend } from '../../server/extract/budget.ts';
import type { Extractor } from '../../server/extract/extractor.ts';
import { compileFile } from '../../server/flow/document.ts';
import type { CompiledFlow } from '../../server/flow/compiled-flow.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { tool } from '../support/fake-anthropic.ts';
import { useFakeAnthropic } from '../support/fake-anthropic-hooks.ts';

// Bounded model spend: no call for a session that cannot take an answer,
// every request counted (retries too), budgets per session (kept across a
// restart), per tenant per day and per process per day; bounded sessions.

const fakeServer = useFakeAnthropic();

const TEAM_FLOW = {
  version: 'v1',
  id: 'flow.team',
  nodes: [
    { id: 'q.team', type: 'question', key: 'team_size', prompt: 'How many people are in your team?', answer: { type: 'integer', min: 1, max: 100000 } },
    { id: 'q.city', type: 'question', key: 'city', prompt: 'Which city are you based in?' },
    { id: 'n.done', type: 'terminal', say: 'Thanks!' },
  ],
};
/** A message the offline rules cannot settle: it needs the model. */
const FREE = 'hmm, we are quite a big group really';

const dir = mkdtempSync(join(tmpdir(), 'questline-spend-'));
mkdirSync(join(dir, 'global'));
mkdirSync(join(dir, 'tenants', 'lyon'), { recursive: true });
writeFileSync(join(dir, 'global', 'team.flow.json'), JSON.stringify(TEAM_FLOW));
writeFileSync(join(dir, 'tenants', 'lyon', 'tenant.json'), JSON.stringify({ id: 'lyon', name: 'Lyon', keys: ['pk_lyon_demo'], origins: [], flows: ['flow.team'] }));

function flow(): CompiledFlow {
  const r = compileFile(join(dir, 'global', 'team.flow.json'));
  if (r.kind !== 'flow' || !r.flow) throw new Error('team flow does not compile');
  return r.flow;
}

function claude(opts: Partial<AnthropicExtractorOptions> = {}, events: AnthropicEvent[] = []): AnthropicExtractor {
  return new AnthropicExtractor({ apiKey: 'sk-test-fake', baseURL: fakeServer().url, timeoutMs: 2_000, maxRetries: 0, onEvent: (e) => events.push(e), ...opts });
}

const conversation = (extractor: Extractor) => new LocalConversation(flow(), { extractor });

function service(extractor: Extractor, maxTranscriptEntries?: number) {
  const store = new MemoryStore();
  const svc = new ConversationService({ store, tenants: TenantDirectory.load(dir), extractorFor: () => extractor, ...(maxTranscriptEntries ? { maxTranscriptEntries } : {}) });
  return { store, svc };
}

async function started(svc: ConversationService): Promise<string> {
  const s = await svc.startSession({ tenant: 'lyon', flow: 'flow.team' });
  if (!s.ok) throw new Error(s.error.message);
  return s.value.sessionId;
}

describe('no model call for a session that cannot take an answer', () => {
  it('a message to an ended session is refused with session_ended, not stored, and calls no model; "restart" still works', async () => {
    const { store, svc } = service(claude());
    const id = await started(svc);
    // cancel asks first; the second cancel word confirms
    await svc.message(id, 'cancel', 'c-1');
    const cancelled = await svc.message(id, 'cancel', 'c-2');
    expect(cancelled.ok && cancelled.value.state.status).toBe('abandoned');
    const before = (await store.load(id))!;
    for (let i = 0; i < 5; i++) {
      const r = await svc.message(id, `${FREE} ${i}`, `c-x${i}`);
      expect(r.ok ? 'ok' : r.error.code).toBe('session_ended');
    }
    expect(fakeServer().requests).toHaveLength(0);
    const after = (await store.load(id))!;
    expect(after.seq).toBe(before.seq);
    expect(await store.transcript(id)).toHaveLength(before.seq);
    const again = await svc.message(id, 'restart', 'c-r');
    expect(again.ok && again.value.state.status).toBe('active');
  });

  it('a session waiting for an operator gets its fixed reply without the extractor being asked', async () => {
    const f = flow();
    const first = await runTurn(f, undefined, { kind: 'start', init: { id: 's', now: '2026-01-15T10:00:00Z' } }, {});
    let asked = 0;
    const counting: Extractor = { name: 'counting', extract: async () => ((asked += 1), { extractor: 'counting', updates: [], unknown: [] }) };
    const waiting = { ...first.session, status: 'waiting' as const };
    const r = await runTurn(f, waiting, { kind: 'text', text: FREE, now: '2026-01-15T10:01:00Z' }, { extractor: counting });
    expect(asked).toBe(0);
    expect(r.messages.map((m) => m.text).join(' ')).toMatch(/reviewing/);
    await runTurn(f, first.session, { kind: 'text', text: FREE, now: '2026-01-15T10:01:00Z' }, { extractor: counting });
    expect(asked).toBe(1); // the same message on an active session is extracted
  });
});

describe('budgets', () => {
  it('a session budget survives "restart": the usage is not reset', async () => {
    const conv = conversation(claude({ budget: { calls: 1 } }));
    await conv.start();
    fakeServer().script(tool('update_answers', { updates: { team_size: 40 } }));
    await conv.send(FREE);
    await conv.send('restart');
    expect(conv.session.llm).toMatchObject({ calls: 1 });
    const spent = await conv.send(FREE);
    expect(fakeServer().requests).toHaveLength(1);
    expect(spent.events).toContainEqual(expect.objectContaining({ type: 'llm_fallback', reason: 'budget' }));
  });

  it('a session token budget stops the next call once reached', async () => {
    const conv = conversation(claude({ budget: { tokens: 500 } }));
    await conv.start();
    fakeServer().script(tool('update_answers', { updates: { team_size: 40 } })); // 940 tokens
    await conv.send(FREE);
    await conv.send('we are in the centre of the old town, near the river');
    expect(fakeServer().requests).toHaveLength(1);
    expect(conv.session.llm).toMatchObject({ calls: 1, fallbacks: 1 });
  });

  it('a tenant daily cap spans its sessions, and reports its scope once', async () => {
    const events: AnthropicEvent[] = [];
    const x = claude({ daily: { calls: 1 }, tenant: 'lyon' }, events);
    fakeServer().script(tool('update_answers', { updates: { team_size: 40 } }));
    for (let i = 0; i < 3; i++) {
      const conv = conversation(x);
      await conv.start();
      await conv.send(FREE);
    }
    expect(fakeServer().requests).toHaveLength(1);
    const exhausted = events.filter((e) => e.type === 'llm_budget_exhausted');
    expect(exhausted).toHaveLength(2);
    expect(exhausted.map((e) => e.type === 'llm_budget_exhausted' && [e.scope, e.first])).toEqual([['tenant', true], ['tenant', false]]);
  });

  it('a global daily cap spans every tenant sharing the ledger, and the day rolls over', async () => {
    let day = '2026-01-15';
    const ledger = new DailySpend(() => day);
    const a = claude({ global: { calls: 1 }, tenant: 'a', ledger });
    const b = claude({ global: { calls: 1 }, tenant: 'b', ledger });
    fakeServer().script(tool('update_answers', { updates: { team_size: 40 } }), tool('update_answers', { updates: { team_size: 41 } }));
    for (const x of [a, b]) {
      const conv = conversation(x);
      await conv.start();
      await conv.send(FREE);
    }
    expect(fakeServer().requests).toHaveLength(1);
    expect(ledger.get()).toEqual({ calls: 1, tokens: 940 });
    day = '2026-01-16';
    const conv = conversation(b);
    await conv.start();
    await conv.send(FREE);
    expect(fakeServer().requests).toHaveLength(2);
  });

  it('every request is counted, retries included, and no retry is sent that the budget has no room for', async () => {
    const roomy = conversation(claude({ maxRetries: 1, budget: { calls: 5 } }));
    await roomy.start();
    fakeServer().script({ kind: 'error', status: 429 }, { kind: 'error', status: 429 });
    await roomy.send(FREE);
    expect(fakeServer().requests).toHaveLength(2);
    expect(roomy.session.llm).toMatchObject({ calls: 2, fallbacks: 1 });

    const tight = conversation(claude({ maxRetries: 1, budget: { calls: 1 } }));
    await tight.start();
    fakeServer().script({ kind: 'error', status: 429 }); // a retry would find the fake's unscripted 500 and show up in its log
    await tight.send(FREE);
    expect(fakeServer().requests).toHaveLength(3); // one request, no retry
    expect(tight.session.llm).toMatchObject({ calls: 1 });
    await tight.send(FREE); // the budget is spent: no request at all
    expect(fakeServer().requests).toHaveLength(3);
  });

  it('the tenant file takes per-session and daily caps of calls and tokens', () => {
    const base = { id: 'lyon', name: 'Lyon', keys: ['pk_lyon_demo'], origins: [], flows: ['flow.team'] };
    const ok = Tenant().safeParse({ ...base, llm: { budget: { calls: 40, tokens: 60000 }, daily: { calls: 5000, tokens: 4000000 } } });
    expect(ok.success).toBe(true);
    expect(Tenant().safeParse({ ...base, llm: { budget: { calls: 0 } } }).success).toBe(false);
    expect(Tenant().safeParse({ ...base, llm: { daily: { dollars: 5 } } }).success).toBe(false);
  });
});

describe('bounded sessions', () => {
  it('past the transcript cap a visitor message is refused with session_full and not stored', async () => {
    const { store, svc } = service(claude(), 2);
    const id = await started(svc); // 1 bot entry
    const first = await svc.message(id, '12', 'c-1'); // user + bot: 3 entries, past the cap of 2
    expect(first.ok && first.value.state.status).toBe('active');
    const seq = (await store.load(id))!.seq;
    const refused = await svc.message(id, 'one more thing', 'c-3');
    expect(refused.ok ? 'ok' : refused.error.code).toBe('session_full');
    expect((await store.load(id))!.seq).toBe(seq);
    expect(sessionFromJson((await store.load(id))!.session).llm?.calls ?? 0).toBe(0);
  });
});
