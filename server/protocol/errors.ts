/** Stable error codes of the service; the transports map them to HTTP statuses and socket acks in one table. */
export type ErrorCode =
  | 'invalid_payload'
  | 'too_large'
  | 'unknown_key'
  | 'origin_not_allowed'
  | 'unknown_tenant'
  | 'unknown_flow'
  | 'flow_unavailable'
  | 'unknown_session'
  | 'bad_token'
  | 'forbidden'
  | 'session_ended'
  | 'not_waiting'
  | 'busy'
  | 'conflict'
  | 'rate_limited'
  | 'admin_only'
  | 'internal';

/** An error as data: what went wrong, in words a client developer can act on. */
export interface ServiceError {
  code: ErrorCode;
  message: string;
}

/** A result of a service call. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

/** Builds a failed result. */
export const failure = (code: ErrorCode, message: string): { ok: false; error: ServiceError } => ({ ok: false, error: { code, message } });

/** Codes only the transports produce (a route that does not exist). */
export type WireErrorCode = ErrorCode | 'not_found';

/** An error as it goes over the wire: REST body `{ error }`, socket ack `{ ok: false, error }`. */
export interface WireError {
  code: WireErrorCode;
  message: string;
}
