// One webhook POST: no redirects (a redirect could turn the POST into a GET or
// send the answers elsewhere), a hard timeout, the response body discarded.

/** Why a webhook URL cannot be used, or null when it can (only http and https). */
export function checkWebhookUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'the webhook URL does not parse';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `webhook URLs must be http or https, not ${u.protocol.replace(/:$/, '')}`;
  return null;
}

/** The outcome of one POST. */
export type PostResult =
  | { ok: true; httpStatus: number }
  | { ok: false; error: string; httpStatus?: number; retryAfterMs?: number };

/** POSTs `body`; 2xx within `timeoutMs` is success, everything else a failure with a loggable reason. */
export async function postWebhook(
  fetchImpl: typeof fetch, url: string, body: string, headers: Record<string, string>, timeoutMs: number, now: number,
): Promise<PostResult> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetchImpl(url, { method: 'POST', headers, body, redirect: 'manual', signal: abort.signal });
    // read to the end so the connection can be reused; the content is not ours to log
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { ok: true, httpStatus: res.status };
    const retryAfterMs = retryAfter(res.headers.get('retry-after'), now);
    return { ok: false, error: `HTTP ${res.status}`, httpStatus: res.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  } catch (e) {
    if (abort.signal.aborted) return { ok: false, error: `no response within ${timeoutMs} ms` };
    return { ok: false, error: networkError(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** A short reason for a failed fetch: the system error code when there is one. */
function networkError(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return `network error ${cause.code}`;
  if (cause && typeof cause.message === 'string') return `network error: ${cause.message}`;
  return `network error: ${e instanceof Error ? e.message : String(e)}`;
}

/** `Retry-After` in milliseconds from `now` (seconds or an HTTP date), if present and sane. */
export function retryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
