import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_FLOWS } from '../support/server.ts';

// What the reliability parts about crashes and storage faults share: a copy
// of the repository's flows whose tenant `acme` posts to a local webhook
// receiver, the receiver (counting every POST by session and delivery id,
// and able to be down, slow or failing), and REST visitors that resend the
// same clientId until the server acknowledges — across kills, restarts and
// 503s, as the widget does.

/** Limits far above what the runs send: they test crashes and faults, not limits. */
export const OPEN_LIMITS = 'perIp=1000000/1,perTenant=1000000/1,tenantFairShare=1000000/1,startsPerIp=1000000/60,readsPerIp=1000000/60,readsPerSession=1000000/60,perSocket=1000/1';

/** A flows folder whose tenant `acme` delivers to `webhookUrl`. */
export function flowsWithWebhook(webhookUrl: string, secret = 'reliability-secret'): string {
  const dir = mkdtempSync(join(tmpdir(), 'questline-rel-flows-'));
  cpSync(REPO_FLOWS, dir, { recursive: true });
  const tenantFile = join(dir, 'tenants', 'acme', 'tenant.json');
  writeFileSync(tenantFile, JSON.stringify({ ...JSON.parse(readFileSync(tenantFile, 'utf8')), webhook: { url: webhookUrl, secret } }));
  return dir;
}

/** How the receiver answers right now. */
export type ReceiverMode = { kind: 'ok' } | { kind: 'down' } | { kind: 'status'; status: number } | { kind: 'slow'; ms: number };

/** A webhook receiver on 127.0.0.1. */
export interface Receiver {
  url: string;
  /** Delivery ids received per session (every POST, repeats included), only those answered 2xx. */
  bySession: Map<string, string[]>;
  /** Every POST that reached it, whatever it answered. */
  posts: number;
  mode: ReceiverMode;
  close(): Promise<void>;
}

/** Starts a receiver; `mode.kind === 'down'` resets every connection (as a receiver that is not there). */
export async function startReceiver(): Promise<Receiver> {
  const r: Receiver = { url: '', bySession: new Map(), posts: 0, mode: { kind: 'ok' }, close: async () => {} };
  const server: Server = createServer((req, res) => {
    if (r.mode.kind === 'down') {
      req.socket.destroy();
      return;
    }
    r.posts++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const mode = r.mode;
      const answer = () => {
        if (mode.kind === 'status') return res.writeHead(mode.status).end('failing');
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sessionId: string; deliveryId: string };
          r.bySession.set(body.sessionId, [...(r.bySession.get(body.sessionId) ?? []), body.deliveryId]);
        } catch {
          // a malformed delivery is counted nowhere: the check fails by absence
        }
        res.writeHead(200).end('ok');
      };
      if (mode.kind === 'slow') setTimeout(answer, mode.ms);
      else answer();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => new Promise<void>((ok) => {
    server.closeAllConnections();
    server.close(() => ok());
  });
  return r;
}

/** Where the server is now (it moves to a new port after each restart); `url` null while it is down. */
export interface Target {
  url: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What one POST got: the JSON ack (2xx), a refusal (status and code), or nothing (the server is gone). */
export type Reply = { ok: true; body: any } | { ok: false; status: number; code?: string; retryAfter?: number } | { ok: false; status: 0 }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One POST with a JSON body to the current server. */
export async function post(target: Target, path: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const url = target.url;
  if (!url) return { ok: false, status: 0 };
  try {
    const res = await fetch(`${url}/api/v1${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.ok) return { ok: true, body: json };
    return { ok: false, status: res.status, ...(json?.error?.code ? { code: json.error.code } : {}), ...(res.headers.get('retry-after') ? { retryAfter: Number(res.headers.get('retry-after')) } : {}) };
  } catch {
    return { ok: false, status: 0 };
  }
}

/** Counts of what the visitors met on their way. */
export interface Refusals {
  storage_unavailable: number;
  internal: number;
  other: Record<string, number>;
}
export const newRefusals = (): Refusals => ({ storage_unavailable: 0, internal: 0, other: {} });

/**
 * Sends until acknowledged: the same request again after a lost connection,
 * a 503 or a 429 (waiting a little, or the Retry-After), as a widget does.
 * Resolves with the ack, or null when `stop()` says to give up.
 */
export async function untilAcked(
  target: Target, path: string, body: unknown, headers: Record<string, string>, refusals: Refusals, stop: () => boolean = () => false,
): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  for (;;) {
    const r = await post(target, path, body, headers);
    if (r.ok) return r.body;
    if (r.status !== 0) {
      const code = 'code' in r && r.code ? r.code : `http_${r.status}`;
      if (code === 'storage_unavailable') refusals.storage_unavailable++;
      else if (code === 'internal') refusals.internal++;
      else refusals.other[code] = (refusals.other[code] ?? 0) + 1;
      if (r.status < 500 && r.status !== 429 && code !== 'conflict') throw new Error(`${path}: refused ${r.status} ${code}`);
    }
    if (stop()) return null;
    await sleep(r.status === 0 ? 100 : Math.min(1_000, (('retryAfter' in r && r.retryAfter) || 0.2) * 1000 / 5));
  }
}
