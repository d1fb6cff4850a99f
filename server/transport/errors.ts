import type { ServiceError, WireError, WireErrorCode } from '../protocol/errors.ts';
import { storageFault, STORAGE_RETRY_AFTER_SECONDS } from '../store/storage-fault.ts';

export type { WireError, WireErrorCode } from '../protocol/errors.ts';

/**
 * The one table from error code to HTTP status. Socket acks carry the same
 * `{ code, message }` (see `socketError`), so a client handles both alike;
 * `retryable` says whether sending the same request again later may succeed.
 */
export const ERROR_TABLE: Readonly<Record<WireErrorCode, { status: number; retryable: boolean }>> = {
  invalid_payload: { status: 400, retryable: false },
  unknown_key: { status: 401, retryable: false },
  bad_token: { status: 401, retryable: false },
  origin_not_allowed: { status: 403, retryable: false },
  forbidden: { status: 403, retryable: false },
  admin_only: { status: 403, retryable: false },
  wrong_role: { status: 403, retryable: false },
  unknown_session: { status: 404, retryable: false },
  unknown_flow: { status: 404, retryable: false },
  unknown_tenant: { status: 404, retryable: false },
  not_found: { status: 404, retryable: false },
  session_ended: { status: 409, retryable: false },
  session_full: { status: 409, retryable: false },
  not_waiting: { status: 409, retryable: false },
  conflict: { status: 409, retryable: true },
  too_large: { status: 413, retryable: false },
  busy: { status: 429, retryable: true },
  rate_limited: { status: 429, retryable: true },
  internal: { status: 500, retryable: true },
  storage_unavailable: { status: 503, retryable: true },
  flow_unavailable: { status: 503, retryable: true },
  not_installed: { status: 501, retryable: false },
  invalid_request: { status: 400, retryable: false },
  invalid_flow: { status: 422, retryable: false },
  stale_version: { status: 409, retryable: false },
};

/** The HTTP status of an error code (500 for a code the table does not know). */
export function httpStatus(code: string): number {
  return (ERROR_TABLE as Record<string, { status: number } | undefined>)[code]?.status ?? 500;
}

/**
 * The wire error of a failure thrown by the storage (a full disk, an
 * unreachable Redis): retryable `storage_unavailable`, with the seconds to
 * wait; null for anything else (a bug, answered `internal`).
 */
export function storageError(err: unknown): (WireError & { retryAfterSeconds: number }) | null {
  const fault = storageFault(err);
  if (!fault) return null;
  return {
    code: 'storage_unavailable', retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS,
    message: `the server cannot save right now (${fault === 'disk' ? 'its disk is full or read-only' : 'its store is unreachable'}); nothing was saved, send the same request again in a few seconds`,
  };
}

/** The body of an error response. */
export function httpErrorBody(error: WireError | ServiceError): { error: WireError } {
  return { error: { code: error.code, message: error.message, ...('field' in error && error.field !== undefined ? { field: error.field } : {}) } };
}

/** The ack of a failed socket request. */
export function socketError(error: WireError | ServiceError): { ok: false; error: WireError } {
  return { ok: false, error: { code: error.code, message: error.message } };
}

/** An error a route throws to answer with a code (caught by the app's error handler). */
export class HttpError extends Error {
  /** For the log, never the response: what exactly was wrong (zod's wording of a malformed payload). */
  detail?: string;
  /** The request field at fault (`invalid_request`), named in the response. */
  field?: string;

  constructor(readonly code: WireErrorCode, message: string, readonly retryAfterSeconds?: number) {
    super(message);
  }
}

/** Throws the error of a failed service result, returns the value of a successful one. */
export function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: ServiceError }): T {
  if (!result.ok) throw new HttpError(result.error.code, result.error.message);
  return result.value;
}
