import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { DEFAULT_USAGE, startFakeAnthropic, tool, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { REPO_FLOWS, RELAXED_LIMITS, startTestServer } from '../support/server.ts';
import { chat, type ChatClient } from './helpers.ts';

// /metrics of a real server: validation failures counted from the engine's
// events of each committed turn, and the LLM calls, tokens, skips and
// fallbacks from each extraction's own report, against the fake Anthropic API.

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** The value of one sample of the exposition, or 0 when it is absent. */
async function sample(url: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2]!.split(',');
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[3]);
  }
  return 0;
}

describe('metrics', () => {
  it("counts validation failures from the engine's events, per node, once per turn (not again for a resent clientId)", async () => {
    const server = await startTestServer();
    cleanup.push(() => server.dispose());
    const c: ChatClient = await chat(server.url);
    cleanup.push(() => c.close());
    const { sessionId } = (await c.request('session:start', { flow: 'flow.sales' })) as { sessionId: string };
    const failures = (node: string) => sample(server.url, 'questline_validation_failures_total', { tenant: 'acme', flow: 'flow.sales', node });
    expect(await failures('q.court_size')).toBe(0);
    expect(await c.request('message', { text: 'Hi, I want LED lights for a basketball court', clientId: 'm1' })).toEqual({ ok: true });
    expect(await c.request('message', { text: '5 m2', clientId: 'm2' })).toEqual({ ok: true }); // below the minimum
    expect(await c.request('message', { text: '5 m2', clientId: 'm2' })).toEqual({ ok: true, duplicate: true });
    expect(await failures('q.court_size')).toBe(1);
    expect(await c.request('message', { text: '3 m2', clientId: 'm3' })).toEqual({ ok: true });
    expect(await failures('q.court_size')).toBe(2);
    expect(await c.request('message', { text: '420 m2', clientId: 'm4' })).toEqual({ ok: true });
    expect(await failures('q.court_size')).toBe(2);
    // the count is the engine's, not the transcript's: one validation_failed event per refused answer
    const refused = (await server.store.events(sessionId)).filter((e) => e.type === 'validation_failed' && e.node === 'q.court_size');
    expect(refused).toHaveLength(2);
  });

  describe('with Claude extraction', () => {
    let fake: FakeAnthropic;
    let server: RunningServer;

    async function start(): Promise<{ turn: (text: string, clientId: string) => Promise<void> }> {
      fake = await startFakeAnthropic();
      cleanup.push(() => fake.close());
      server = await startServer(
        loadConfig({ PORT: '0', STORE: 'memory', FLOWS_DIR: REPO_FLOWS, LOG_LEVEL: 'silent', ANTHROPIC_API_KEY: 'sk-test-key', ANTHROPIC_BASE_URL: fake.url }),
        { rateLimits: RELAXED_LIMITS },
      );
      cleanup.push(() => server.close());
      const started = await fetch(`${server.url}/api/v1/tenants/acme/sessions`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-questline-key': 'pk_acme_demo' }, body: JSON.stringify({ flow: 'flow.sales' }),
      });
      const { sessionId, token } = (await started.json()) as { sessionId: string; token: string };
      return {
        turn: async (text, clientId) => {
          const r = await fetch(`${server.url}/api/v1/sessions/${sessionId}/messages`, {
            method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ text, clientId }),
          });
          expect(r.status).toBe(200);
        },
      };
    }

    const model = 'claude-haiku-4-5';
    const tokens = (type: string) => sample(server.url, 'questline_llm_tokens_total', { tenant: 'acme', model, type });

    it('counts model calls and their input, output and cache-read tokens; an exact answer is a skip, not a call', async () => {
      const { turn } = await start();
      fake.script(tool('update_answers', { updates: { intention: 'buy_led', sport: 'tennis' } }, { input_tokens: 1200, output_tokens: 55, cache_read_input_tokens: 800 }));
      await turn("we're a tennis club and we'd like a quote for new LED lights", 'a');
      expect(fake.requests).toHaveLength(1);
      expect(await sample(server.url, 'questline_llm_calls_total', { tenant: 'acme', model, result: 'ok' })).toBe(1);
      expect(await tokens('input')).toBe(1200);
      expect(await tokens('output')).toBe(55);
      expect(await tokens('cache_read')).toBe(800);
      expect(await sample(server.url, 'questline_llm_call_duration_seconds_count', { tenant: 'acme', model })).toBe(1);

      await turn('420', 'b'); // an exact number: the offline rules settle it
      expect(fake.requests).toHaveLength(1);
      expect(await sample(server.url, 'questline_llm_calls_total', { tenant: 'acme', model, result: 'ok' })).toBe(1);
      const text = await (await fetch(`${server.url}/metrics`)).text();
      expect(text).toMatch(/questline_llm_skipped_total\{tenant="acme",rule="\w+"\} 1/);

      fake.script(tool('update_answers', { updates: { current_lighting: 'none' } }));
      // a reply the offline rules cannot settle (they now read "we have nothing there" themselves): the model is called
      await turn('long story, the previous club took every fitting with them when they moved out', 'c');
      expect(fake.requests).toHaveLength(2);
      expect(await sample(server.url, 'questline_llm_calls_total', { tenant: 'acme', model, result: 'ok' })).toBe(2);
      expect(await tokens('input')).toBe(1200 + DEFAULT_USAGE.input_tokens);
      expect(await tokens('output')).toBe(55 + DEFAULT_USAGE.output_tokens);
    });

    it('counts a call whose answer was malformed as failed, with its tokens, and the fallback by reason', async () => {
      const { turn } = await start();
      fake.script({ kind: 'tool', name: 'no_such_tool', input: {}, usage: { input_tokens: 1000, output_tokens: 30 } });
      await turn("we're a tennis club and we'd like a quote for new LED lights", 'a');
      expect(fake.requests).toHaveLength(1);
      expect(await sample(server.url, 'questline_llm_calls_total', { tenant: 'acme', model, result: 'failed' })).toBe(1);
      expect(await sample(server.url, 'questline_llm_calls_total', { tenant: 'acme', model, result: 'ok' })).toBe(0);
      expect(await tokens('input')).toBe(1000);
      expect(await tokens('output')).toBe(30);
      expect(await sample(server.url, 'questline_llm_fallbacks_total', { tenant: 'acme', reason: 'malformed' })).toBe(1);
    });
  });
});
