/**
 * Seeding a data directory with many stored sessions, fast: two template
 * sessions are made the real way (ConversationService over a LowdbStore in a
 * scratch directory: one mid-conversation after 5 messages, one completed),
 * then their files (one a session: transcript, events and record lines) are
 * copied under fresh random ids into the store's shard layout
 * (`sessions/<shard>/<id>.jsonl`), and
 * the tenant index gets one line per session — exactly what LowdbStore.create
 * and the appends would have left, without a turn per session. Each seeded
 * session gets a known token, so the load can resume stored sessions too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationService } from '../../server/conversation/service.ts';
import { DirectoryArchive } from '../../server/catalog/registry.ts';
import { TenantDirectory } from '../../server/catalog/tenants.ts';
import { sessionPaths, shardOf, tenantIndexPath } from '../../server/store/lowdb-paths.ts';
import type { IndexEntry } from '../../server/store/lowdb-read.ts';
import { lastRecord, LowdbStore } from '../../server/store/lowdb.ts';
import { DEMO_FLOW, REPO_FLOWS, SALES_SCRIPT, seededToken } from './common.ts';

/** The files of one stored session, with its id to replace. */
export interface SessionTemplate {
  id: string;
  tokenHash: string;
  /** Messages of SALES_SCRIPT already played (the next one is SALES_SCRIPT[played]). */
  played: number;
  status: string;
  tenant: string;
  flowId: string;
  /** The session's file. */
  file: string;
}

/** Makes the templates through the real service and store. */
export async function makeTemplates(): Promise<SessionTemplate[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'questline-bench-template-'));
  try {
    const store = await LowdbStore.open(scratch);
    const tenants = TenantDirectory.load(REPO_FLOWS, new DirectoryArchive(join(scratch, 'revisions')));
    const service = new ConversationService({ store, tenants });
    const ids: string[] = [];
    for (const turns of [5, SALES_SCRIPT.length]) {
      const started = await service.startSession({ tenant: 'acme', flow: DEMO_FLOW });
      if (!started.ok) throw new Error(`template: ${started.error.message}`);
      for (const [i, text] of SALES_SCRIPT.slice(0, turns).entries()) {
        const r = await service.message(started.value.sessionId, text, `t-${i}`);
        if (!r.ok) throw new Error(`template turn ${i}: ${r.error.message}`);
      }
      ids.push(started.value.sessionId);
    }
    await store.close();
    return ids.map((id) => {
      const p = sessionPaths(scratch, id);
      const file = readFileSync(p.file, 'utf8');
      // the current record: the last whole record line with the delta lines after it folded in
      const parsed = lastRecord(file)!;
      return { id, tokenHash: parsed.tokenHash, played: ids.indexOf(id) === 0 ? 5 : SALES_SCRIPT.length, status: parsed.status, tenant: parsed.tenant, flowId: parsed.flowId, file };
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A seeded session a returning visitor can resume: its id, and how many script messages it has played. */
export interface Resumable {
  id: string;
  played: number;
}

/**
 * Writes `count` sessions into `dataDir` (no server may hold it), alternating
 * the templates, each with the token `seededToken(id)`; returns the
 * milliseconds it took and the sessions still active (resumable).
 */
export function seedSessions(dataDir: string, count: number, templates: readonly SessionTemplate[]): { ms: number; active: Resumable[] } {
  const active: Resumable[] = [];
  const t0 = Date.now();
  const shards = new Set<string>();
  const index = new Map<string, string[]>();
  mkdirSync(join(dataDir, 'tenants'), { recursive: true });
  const createdAt = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const tpl = templates[i % templates.length]!;
    const id = randomBytes(16).toString('base64url');
    const shard = shardOf(id);
    if (!shards.has(shard)) {
      mkdirSync(join(dataDir, 'sessions', shard), { recursive: true });
      shards.add(shard);
    }
    const p = sessionPaths(dataDir, id);
    const tokenHash = createHash('sha256').update(seededToken(id)).digest('hex');
    writeFileSync(p.file, tpl.file.replaceAll(tpl.id, id).replaceAll(tpl.tokenHash, tokenHash));
    if (tpl.status === 'active') active.push({ id, played: tpl.played });
    const entry: IndexEntry = { id, flowId: tpl.flowId, createdAt };
    const lines = index.get(tpl.tenant) ?? [];
    lines.push(JSON.stringify(entry));
    index.set(tpl.tenant, lines);
  }
  for (const [tenant, lines] of index) appendFileSync(tenantIndexPath(dataDir, tenant), lines.join('\n') + '\n');
  return { ms: Date.now() - t0, active };
}
