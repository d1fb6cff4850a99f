// Which failures mean "the storage is unavailable right now" — a full disk,
// a quota, a file system remounted read-only, an unreachable or refusing
// Redis — as opposed to a bug. A turn that fails on one of these wrote
// nothing that was acknowledged (stores write all or nothing), so the
// transports answer the retryable `storage_unavailable` (503 with
// Retry-After) instead of `internal`, and the same request succeeds once
// the storage is back, without a restart (docs/operations.md#storage-faults).

/** File system errors of a full or read-only disk (errno codes). */
const DISK_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

/** Connection-level errors of a client (Redis) that cannot reach its server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/** Messages of ioredis and of a Redis server that cannot take writes now. */
const REDIS_MESSAGES = [
  /max retries per request/i, // ioredis: the connection is down and the command gave up
  /connection is closed/i,
  /stream isn't writeable/i,
  /command timed out/i,
  /^(OOM|MISCONF|READONLY|LOADING|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN)\b/, // the server's own refusals
];

/** What kind of storage fault `err` is, or null when it is something else (a bug: `internal`). */
export function storageFault(err: unknown): 'disk' | 'unreachable' | null {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && DISK_CODES.has(code)) return 'disk';
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'unreachable';
    if (name === 'MaxRetriesPerRequestError') return 'unreachable';
    if (typeof message === 'string' && REDIS_MESSAGES.some((re) => re.test(message))) return 'unreachable';
  }
  return null;
}

/** The seconds a client is told to wait before retrying a request refused for a storage fault. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;
