import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ERROR_TABLE } from '../../server/transport/errors.ts';
import { DEMO_ORIGIN, startTestServer, type TestServer } from '../support/server.ts';
import { ACME_KEY, ACME_SALES_SCRIPT, api, chat, type ChatClient } from '../e2e/helpers.ts';
import { envNumber, recordTally } from '../reliability/tally.ts';

// Random and malformed input at the edges of a real server on 127.0.0.1:
// REST bodies, headers, ids and queries; socket events and payloads; raw
// websocket frames below socket.io (invalid UTF-8, broken packets); floods.
// Every request must be answered — an HTTP status with `{ error: { code } }`,
// or an ack `{ ok: false, error: { code } }` — never a 5xx, an `internal`
// code or silence, while a well-behaved visitor completes conversations
// alongside. FUZZ_INPUTS scales the random part (the reliability runner raises it).

const N = envNumber('FUZZ_INPUTS', 40);
const SEED = envNumber('FUZZ_SEED', Date.now() % 1_000_000);
const CODES = new Set(Object.keys(ERROR_TABLE));

let server: TestServer;
const clients: ChatClient[] = [];
const tally = { malformed_inputs: 0, malformed_crashes: 0, malformed_unanswered: 0 };
/** What went wrong, for the failure message. */
const problems: string[] = [];

beforeAll(async () => {
  // a per-socket limit that floods meet; per-IP limits stay high since every client here is 127.0.0.1
  server = await startTestServer({ rateLimits: { perSocket: { points: 40, seconds: 1 } } });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server?.dispose();
  recordTally('fuzz', tally);
});

/** Judges one REST answer: a status below 500 and, for errors, a known code. */
function judgeHttp(label: string, r: { status: number; body: any } | Error): void {
  tally.malformed_inputs++;
  if (r instanceof Error) {
    tally.malformed_unanswered++;
    problems.push(`${label}: no answer (${r.message})`);
    return;
  }
  if (r.status >= 500) {
    tally.malformed_crashes++;
    problems.push(`${label}: ${r.status} ${JSON.stringify(r.body)}`);
  } else if (r.status >= 400 && !CODES.has(r.body?.error?.code)) {
    tally.malformed_unanswered++;
    problems.push(`${label}: ${r.status} without an error code: ${JSON.stringify(r.body)?.slice(0, 200)}`);
  }
}

/** Judges one ack: `{ ok: true… }` or `{ ok: false, error: { code } }` with a known code other than internal. */
function judgeAck(label: string, ack: any): void {
  tally.malformed_inputs++;
  if (ack instanceof Error) {
    tally.malformed_unanswered++;
    problems.push(`${label}: no ack (${ack.message})`);
  } else if (ack?.ok === true) {
    // a random payload that happened to be valid
  } else if (ack?.ok !== false || !CODES.has(ack?.error?.code)) {
    tally.malformed_unanswered++;
    problems.push(`${label}: ack without an error code: ${JSON.stringify(ack)?.slice(0, 200)}`);
  } else if (ack.error.code === 'internal') {
    tally.malformed_crashes++;
    problems.push(`${label}: internal error ack`);
  }
}

/** A raw request; an Error when no answer came. */
async function raw(path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<{ status: number; body: any } | Error> {
  try {
    const res = await fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text.slice(0, 200);
    }
    return { status: res.status, body };
  } catch (e) {
    return e as Error;
  }
}

/** Visitors who behave: each plays the whole sales script; all must complete while the fuzz runs. */
function wellBehaved(stop: () => boolean): Promise<{ completed: number; failures: string[] }> {
  return (async () => {
    let completed = 0;
    const failures: string[] = [];
    do {
      const c = await chat(server.url);
      try {
        const start = await c.request('session:start', { flow: 'flow.sales' }, 10_000);
        if (!start.ok) failures.push(`start: ${JSON.stringify(start)}`);
        for (const [i, text] of ACME_SALES_SCRIPT.entries()) {
          const ack = await c.request('message', { text, clientId: `good-${completed}-${i}` }, 10_000);
          if (ack?.ok !== true) failures.push(`turn ${i}: ${JSON.stringify(ack)}`);
        }
        await c.until((x) => x.lastState()?.status === 'completed', 10_000);
        completed++;
      } catch (e) {
        failures.push((e as Error).message);
      } finally {
        c.close();
      }
    } while (!stop() && failures.length === 0);
    return { completed, failures };
  })();
}

/** Hostile shapes mixed into the random ones. */
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const HOSTILE_BODIES: Array<string | Buffer> = [
  '', 'null', '0', '"x"', '[]', 'true', '{', '{"flow":', '{"flow": "flow.sales",}', "{'flow': 1}",
  deepArray(5_000), deepObject(3_000),
  '{"__proto__": {"polluted": true}, "flow": "flow.sales"}',
  '{"constructor": {"prototype": {"polluted": true}}, "flow": "flow.sales"}',
  '{"flow": {"__proto__": null}}', '{"flow": ["flow.sales"]}', '{"flow": "\\u0000"}', '{"flow": "\\ud800"}',
  '{"text": "\\ud800\\udc00\\ud800", "clientId": "x"}', '{"text": 12, "clientId": []}', '{"text": null}',
  Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), // {"text":"<invalid UTF-8>"}
  Buffer.from([0xff, 0xfe, 0xfd]),
  JSON.stringify({ text: 'x'.repeat(1 << 20), clientId: 'big' }),
  JSON.stringify({ flow: 'flow.sales', context: Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i])) }),
];

describe('the edges under random and malformed input', () => {
  beforeEach(() => {
    problems.length = 0;
  });

  it('answer every malformed REST request with a status and an error code, and keep serving', async () => {
    let done = false;
    const visitors = wellBehaved(() => done);
    const s = (await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } })).body;
    const auth = { authorization: `Bearer ${s.token}` };
    const key = { 'x-questline-key': ACME_KEY };
    const targets: Array<{ path: string; headers: Record<string, string> }> = [
      { path: '/api/v1/tenants/acme/sessions', headers: key },
      { path: `/api/v1/sessions/${s.sessionId}/messages`, headers: auth },
      { path: '/api/v1/admin/sessions/x/decision', headers: {} },
    ];
    for (const [n, body] of HOSTILE_BODIES.entries()) {
      for (const t of targets) {
        for (const type of n % 4 === 0 ? ['application/json', 'text/plain', 'application/x-www-form-urlencoded'] : ['application/json']) {
          judgeHttp(`POST ${t.path} ${type} ${String(body).slice(0, 40)}`, await raw(t.path, { method: 'POST', headers: { ...t.headers, 'content-type': type, origin: DEMO_ORIGIN }, body }));
        }
      }
    }
    // random JSON bodies, random headers, random ids and queries
    const arb = fc.record({
      target: fc.constantFrom(...targets),
      body: fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.constantFrom('flow', 'text', 'clientId', 'context', '__proto__', 'constructor', 'sessionId', 'lastSeq'), fc.jsonValue({ maxDepth: 2 }))),
      method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
    });
    for (const c of fc.sample(arb, { numRuns: N, seed: SEED })) {
      judgeHttp(`${c.method} ${c.target.path} ${JSON.stringify(c.body).slice(0, 60)}`, await raw(c.target.path, { method: c.method, headers: { ...c.target.headers, 'content-type': 'application/json', origin: DEMO_ORIGIN }, body: JSON.stringify(c.body) }));
    }
    const idArb = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('..%2F..%2Fetc%2Fpasswd', '%00', '%ff%fe', 'x'.repeat(5_000), '__proto__', 'constructor', s.sessionId.toUpperCase()));
    const getArb = fc.record({
      id: idArb,
      query: fc.constantFrom('', '?after=-1', '?after=abc', '?after[]=1', '?after[__proto__]=1', '?after=1e308', '?format=xml', `?after=${'9'.repeat(400)}`),
      header: fc.constantFrom<Record<string, string>>({}, auth, { authorization: 'Bearer' }, { authorization: `Bearer ${'A'.repeat(4_000)}` }, { authorization: 'Basic abc' }, { 'x-questline-key': 'k'.repeat(8_000) }, { 'x-questline-admin': '\u00ff' }),
      route: fc.constantFrom('/api/v1/sessions/ID', '/api/v1/tenants/ID/flows', '/api/v1/tenants/acme/flows/ID/graph', '/api/v1/tenants/acme/flows/ID/schema', '/api/v1/admin/sessions/ID', '/api/v1/admin/tenants/ID/export'),
    });
    // malformed percent-encoding in the path: express fails to decode the parameter (was a 500)
    for (const path of ['/api/v1/sessions/%ff%fe', '/api/v1/tenants/%E0%A4%A/flows', '/api/v1/admin/sessions/%', '/api/v1/tenants/acme/flows/%c0%af/graph']) {
      judgeHttp(`GET ${path}`, await raw(path, { headers: { ...auth, origin: DEMO_ORIGIN } }));
    }
    for (const g of fc.sample(getArb, { numRuns: N, seed: SEED + 1 })) {
      const path = g.route.replace('ID', encodeURIComponent(g.id).replace(/%25(?=[0-9a-f]{2})/gi, '%')) + g.query;
      judgeHttp(`GET ${path.slice(0, 80)}`, await raw(path, { headers: { ...g.header, origin: DEMO_ORIGIN } }));
    }
    done = true;
    const good = await visitors;
    expect(good.failures).toEqual([]);
    expect(good.completed).toBeGreaterThan(0);
    expect((await api(server.url, '/healthz')).status).toBe(200);
    expect(problems, `replay with FUZZ_SEED=${SEED}`).toEqual([]);
  }, 120_000);

  it('ack every malformed socket event with an error code, and keep serving', async () => {
    let done = false;
    const visitors = wellBehaved(() => done);
    const events = ['session:start', 'message', 'session:back', 'session:restart', 'no:such:event', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'connect', 'disconnecting'];
    const payload = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ flow: fc.oneof(fc.constant('flow.sales'), fc.string(), fc.jsonValue({ maxDepth: 1 })), sessionId: fc.oneof(fc.string(), fc.constant('../../etc/passwd')), lastSeq: fc.oneof(fc.integer(), fc.double(), fc.string()), context: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: [] }),
      fc.record({ text: fc.oneof(fc.string({ maxLength: 50 }), fc.constant('\u0000\ud800'), fc.integer(), fc.constant('y'.repeat(3_000))), clientId: fc.oneof(fc.string({ maxLength: 300 }), fc.integer(), fc.constant({ __proto__: 1 })) }, { requiredKeys: [] }),
      fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}')),
      fc.constant(JSON.parse(deepArray(1_000))),
    );
    const cases = fc.sample(fc.record({ event: fc.constantFrom(...events), payload, fresh: fc.boolean() }), { numRuns: N * 2, seed: SEED + 2 });
    let c = await chat(server.url);
    clients.push(c);
    await c.request('session:start', { flow: 'flow.sales' });
    // an unknown event whose sender waits for an ack gets one (was: silence until the client timed out)
    for (const event of ['no:such:event', 'toString', '__proto__']) {
      judgeAck(event, await c.request(event, { anything: true }, 5_000).catch((e: Error) => e));
    }
    for (const [i, k] of cases.entries()) {
      if (!c.socket.connected) {
        c = await chat(server.url);
        clients.push(c);
      }
      if (k.fresh && i % 7 === 0) {
        c.close();
        c = await chat(server.url); // a socket with no session yet
        clients.push(c);
      }
      let ack: unknown;
      try {
        ack = k.event === 'connect' || k.event === 'disconnecting' ? undefined : await c.request(k.event, k.payload, 5_000);
      } catch (e) {
        ack = e;
      }
      if (k.event === 'connect' || k.event === 'disconnecting') continue; // reserved names: socket.io-client refuses to emit them
      judgeAck(`${k.event} ${JSON.stringify(k.payload)?.slice(0, 80)}`, ack);
    }
    // a flood from one socket: answered, by rate_limited beyond the per-socket limit
    const flood = await chat(server.url);
    clients.push(flood);
    await flood.request('session:start', { flow: 'flow.sales' });
    const acks = await Promise.all(Array.from({ length: 200 }, (_, i) => flood.request('message', { text: `flood ${i}`, clientId: `f${i}` }, 20_000).catch((e: Error) => e)));
    acks.forEach((a, i) => judgeAck(`flood ${i}`, a));
    expect(acks.filter((a: any) => a?.error?.code === 'rate_limited').length).toBeGreaterThan(0);
    done = true;
    const good = await visitors;
    expect(good.failures).toEqual([]);
    expect(good.completed).toBeGreaterThan(0);
    expect(problems, `replay with FUZZ_SEED=${SEED}`).toEqual([]);
  }, 120_000);

  it('survives raw websocket garbage below socket.io: invalid UTF-8, broken packets, oversize frames', async () => {
    let done = false;
    const visitors = wellBehaved(() => done);
    const wsUrl = `${server.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`;
    const frames: Array<{ data: string | Buffer; binary: boolean }> = [
      { data: Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]), binary: false }, // invalid UTF-8 in a text frame
      { data: Buffer.from([0x34, 0x32, 0xff, 0xfe]), binary: false },
      { data: '42/chat,["message",{"text":"hi","clientId":"x"', binary: false },
      { data: '42/chat,99["message"]', binary: false },
      { data: '42/chat,[', binary: false },
      { data: '9', binary: false },
      { data: '', binary: false },
      { data: '4'.repeat(40 * 1024), binary: false },
      { data: Buffer.alloc(1024, 0xff), binary: true },
      { data: '41/chat,', binary: false },
      { data: '40/chat,{"key":{"__proto__":{"x":1}}}', binary: false },
      { data: `40/chat,{"key":"${ACME_KEY}"}`, binary: false },
      { data: '42/chat,0["session:start",{"flow":"flow.sales","context":' + deepObject(500) + '}]', binary: false },
      { data: '42/chat,1["__proto__",{}]', binary: false },
      { data: '45-/chat,2["message",{"_placeholder":true,"num":99}]', binary: false },
    ];
    const random = fc.sample(fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('40', '42', '43', '2', '3', '6').chain((p) => fc.json({ maxDepth: 3 }).map((j) => `${p}/chat,${j}`))), { numRuns: N, seed: SEED + 3 });
    for (const r of random) frames.push({ data: r, binary: false });
    for (const f of frames) {
      tally.malformed_inputs++;
      const ws = new WebSocket(wsUrl, { headers: { origin: DEMO_ORIGIN } });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          ws.terminate();
          resolve();
        }, 2_000);
        ws.once('error', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.once('message', () => {
          // the engine.io open packet arrived: send the garbage, then give the server a moment to react
          ws.send(f.data, { binary: f.binary }, () => setTimeout(() => ws.close(), 30));
        });
      });
    }
    const health = await raw('/healthz', {});
    if (health instanceof Error || health.status !== 200) {
      tally.malformed_crashes++;
      problems.push('the server stopped answering /healthz after raw websocket garbage');
    }
    done = true;
    const good = await visitors;
    expect(good.failures).toEqual([]);
    expect(good.completed).toBeGreaterThan(0);
    expect(problems, `replay with FUZZ_SEED=${SEED}`).toEqual([]);
  }, 120_000);
});
