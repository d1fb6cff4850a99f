import { z } from 'zod';

/** Stable error codes of the service; the transports map them to HTTP statuses and socket acks in one table. */
export const ErrorCode = z.enum([
  'invalid_payload',
  'too_large',
  'unknown_key',
  'origin_not_allowed',
  'unknown_tenant',
  'unknown_flow',
  'flow_unavailable',
  'unknown_session',
  'bad_token',
  'forbidden',
  'session_ended',
  'session_full',
  'not_waiting',
  'wrong_role',
  'busy',
  'conflict',
  'rate_limited',
  'admin_only',
  'storage_unavailable',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** An error as data: what went wrong, in words a client developer can act on. */
export const ServiceError = z.object({ code: ErrorCode, message: z.string() });
export type ServiceError = z.infer<typeof ServiceError>;

/** A result of a service call. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

/** Builds a failed result. */
export const failure = (code: ErrorCode, message: string): { ok: false; error: ServiceError } => ({ ok: false, error: { code, message } });

/** Codes only the transports produce (a route that does not exist; a feature whose optional package is not installed; the admin API's field errors, flows with errors and stale versions), besides the service's. */
export const WireErrorCode = z.enum([...ErrorCode.options, 'not_found', 'not_installed', 'invalid_request', 'invalid_flow', 'stale_version']);
export type WireErrorCode = z.infer<typeof WireErrorCode>;

/** An error as it goes over the wire: REST body `{ error }`, socket ack `{ ok: false, error }`. */
export const WireError = z.object({ code: WireErrorCode, message: z.string(), field: z.string().optional() });
export type WireError = z.infer<typeof WireError>;

/** A REST error response's body. */
export const ErrorBody = z.object({ error: WireError });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A failed socket request's ack. */
export const ErrorAck = z.object({ ok: z.literal(false), error: WireError });
export type ErrorAck = z.infer<typeof ErrorAck>;
