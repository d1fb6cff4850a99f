import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { assertSessionId } from './session-id.ts';

export { assertSessionId, SESSION_ID_PATTERN } from './session-id.ts';

// Where LowdbStore keeps things under DATA_DIR. Session ids come from the
// caller and become file names, so they are checked before any path is built.

/** The files of one session. */
export interface SessionPaths {
  dir: string;
  /**
   * The session's one file, JSON Lines, appended to: `{"t":[entries]}`
   * (transcript), `{"e":{seq,events}}` (a turn's events) and `{"r":record}`
   * (a save; the last complete one is current). Compacted when it grows.
   */
  file: string;
  /** Compaction's temp file: the whole compacted file, renamed to `file` (read only if `file` is missing). */
  tmp: string;
  /** The three files of the earlier layout (record, transcript, events; until 2026-11); migrated into `file` when the session is next used. */
  legacy: { record: string; transcript: string; events: string };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The shard of an id: 2 hex characters of its hash, so 256 directories fill
 * evenly whatever prefix the id generator uses.
 */
export const shardOf = (id: string): string => sha256(id).slice(0, 2);

/** The files of session `id` (checked) under `dataDir`. */
export function sessionPaths(dataDir: string, id: string): SessionPaths {
  assertSessionId(id);
  const dir = join(dataDir, 'sessions', shardOf(id));
  return {
    dir,
    file: join(dir, `${id}.jsonl`),
    tmp: join(dir, `.${id}.jsonl.tmp`),
    legacy: { record: join(dir, `${id}.json`), transcript: join(dir, `${id}.transcript.jsonl`), events: join(dir, `${id}.events.jsonl`) },
  };
}

/**
 * The index file of a tenant. Tenant ids are not checked here, so the name is
 * a readable slug plus a hash of the exact id: any string maps to one safe file.
 */
export function tenantIndexPath(dataDir: string, tenant: string): string {
  const slug = tenant.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || '_';
  return join(dataDir, 'tenants', `${slug}-${sha256(tenant).slice(0, 12)}.jsonl`);
}
