// Session ids come from the caller and become file names and Redis keys, so
// every store checks them before building either.

/** Session ids every store accepts: safe as file names and Redis keys alike. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Throws (code `invalid_session_id`) unless `id` matches SESSION_ID_PATTERN. */
export function assertSessionId(id: unknown): asserts id is string {
  if (typeof id === 'string' && SESSION_ID_PATTERN.test(id)) return;
  const shown = typeof id === 'string' ? JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id) : typeof id;
  throw Object.assign(new Error(`invalid session id ${shown}: expected 8-64 characters of A-Z a-z 0-9 _ -`), {
    code: 'invalid_session_id',
  });
}
