import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { REPO_FLOWS, RELAXED_LIMITS } from '../support/server.ts';
import { chat, NORTHSIDE_KEY, type ChatClient } from '../e2e/helpers.ts';
import { envNumber, recordTally } from './tally.ts';

// Model spend through the real server, counted at the fake Anthropic server
// (every request it receives is a paid call): no request for a message to an
// ended session (`model_calls_after_end`, must be 0), and no session, tenant
// or the process spending past its cap, a "restart" included
// (`budget_overruns`, must be 0). SPEND_SESSIONS scales it.

const SESSIONS = envNumber('SPEND_SESSIONS', 4);
const SESSION_CALLS = 3;
const TENANT_DAILY = SESSIONS * SESSION_CALLS - 2; // reached before the last session's own cap
const GLOBAL_DAILY = TENANT_DAILY + 4;

/** Free text no offline rule settles exactly: each one needs the model. */
const FREE = [
  'well it really depends on a few things we are still discussing internally',
  'honestly we have not decided yet, there are several options on the table',
  'our committee meets next month and will weigh in on all of this then',
  'it is complicated, the old installation was done by a previous owner',
];

let server: RunningServer;
let fake: FakeAnthropic;
let flowsDir: string;

beforeAll(async () => {
  fake = await startFakeAnthropic(); // nothing scripted: every call is answered 500 (no retry) and the turn falls back offline
  flowsDir = mkdtempSync(join(tmpdir(), 'questline-spend-'));
  cpSync(REPO_FLOWS, flowsDir, { recursive: true });
  const file = join(flowsDir, 'tenants', 'acme', 'tenant.json');
  const acme = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...acme, llm: { budget: { calls: SESSION_CALLS }, daily: { calls: TENANT_DAILY } } }));
  server = await startServer(
    loadConfig({
      PORT: '0', HOST: '127.0.0.1', STORE: 'memory', FLOWS_DIR: flowsDir, LOG_LEVEL: 'silent',
      ANTHROPIC_API_KEY: 'sk-test-fake', ANTHROPIC_BASE_URL: fake.url, LLM_DAILY_CALLS: String(GLOBAL_DAILY),
    }),
    { rateLimits: RELAXED_LIMITS },
  );
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(flowsDir, { recursive: true, force: true });
});

/** Sends a message; the ack's error code, or 'ok'. */
async function send(c: ChatClient, text: string, clientId: string): Promise<string> {
  const ack = await c.request('message', { text, clientId }, 10_000);
  return ack.ok ? 'ok' : ack.error.code;
}

describe('model spend through the server', () => {
  it('makes no model call for an ended session (model_calls_after_end = 0)', async () => {
    let after = 0;
    let refused = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const c = await chat(server.url, { key: NORTHSIDE_KEY });
      try {
        expect((await c.request('session:start', { flow: 'flow.patient_intake' })).ok).toBe(true);
        // cancel asks first; a second cancel word confirms
        expect(await send(c, 'cancel', `end-${s}`)).toBe('ok');
        expect(await send(c, 'cancel', `end2-${s}`)).toBe('ok');
        await c.until((x) => x.lastState()?.status === 'abandoned');
        const before = fake.requests.length;
        for (const [i, text] of FREE.entries()) if ((await send(c, text, `after-${s}-${i}`)) === 'session_ended') refused += 1;
        after += fake.requests.length - before;
      } finally {
        c.close();
      }
    }
    recordTally('spend', { model_calls_after_end: after });
    expect(after).toBe(0);
    expect(refused).toBe(SESSIONS * FREE.length);
  });

  it('keeps every session, the tenant and the process within their caps (budget_overruns = 0)', async () => {
    let overruns = 0;
    const acmeStart = fake.requests.length;
    for (let s = 0; s < SESSIONS; s++) {
      const c = await chat(server.url);
      try {
        expect((await c.request('session:start', { flow: 'flow.sales' })).ok).toBe(true);
        const before = fake.requests.length;
        // more free text than the session's cap, with a "restart" in the middle that must not reset the usage
        for (const [i, text] of [...FREE, 'restart', ...FREE].entries()) await send(c, text, `acme-${s}-${i}`);
        overruns += Math.max(0, fake.requests.length - before - SESSION_CALLS);
      } finally {
        c.close();
      }
    }
    const acme = fake.requests.length - acmeStart;
    overruns += Math.max(0, acme - TENANT_DAILY);
    expect(acme).toBe(TENANT_DAILY); // the tenant cap was reached, not passed
    // another tenant without caps of its own runs into the process's daily cap
    for (let round = 0; round < 3; round++) {
      const c = await chat(server.url, { key: NORTHSIDE_KEY });
      try {
        expect((await c.request('session:start', { flow: 'flow.patient_intake' })).ok).toBe(true);
        for (const [i, text] of FREE.entries()) await send(c, text, `ns-${round}-${i}`);
      } finally {
        c.close();
      }
    }
    overruns += Math.max(0, fake.requests.length - GLOBAL_DAILY);
    recordTally('spend', { budget_overruns: overruns, budget_calls: fake.requests.length });
    expect(overruns).toBe(0);
    expect(fake.requests.length).toBe(GLOBAL_DAILY);
    const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/questline_llm_budget_exhausted_total\{scope="tenant"\} [1-9]/);
    expect(metrics).toMatch(/questline_llm_budget_exhausted_total\{scope="global"\} [1-9]/);
    expect(metrics).toMatch(/questline_llm_budget_exhausted_total\{scope="session"\} [1-9]/);
  });
});
