// The admin REST API with the key in the X-Questline-Admin header (never in a URL).

import type { ErrorBody } from '../../server/protocol/index.ts';

/** A refused request: the server's `{ error: { code, message } }` and the HTTP status. */
export class ApiError extends Error {
  constructor(readonly code: string, message: string, readonly status: number) {
    super(message);
  }
}

export class AdminApi {
  constructor(private readonly key: string, private readonly base = '/api/v1/admin') {}

  private async send(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('X-Questline-Admin', this.key);
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, { ...init, headers, cache: 'no-store', credentials: 'omit' });
    } catch {
      throw new ApiError('network', 'the server cannot be reached', 0);
    }
    if (!res.ok) {
      // an error from a proxy in between may have no body, or another one
      const body = (await res.json().catch(() => null)) as Partial<ErrorBody> | null;
      throw new ApiError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${res.status}`, res.status);
    }
    return res;
  }

  async get<T>(path: string): Promise<T> {
    return (await (await this.send(path)).json()) as T;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const res = await this.send(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as T;
  }

  async delete<T>(path: string): Promise<T> {
    return (await (await this.send(path, { method: 'DELETE' })).json()) as T;
  }

  /** A response body as a Blob (exports), with the file name the server suggests. */
  async blob(path: string): Promise<{ blob: Blob; type: string }> {
    const res = await this.send(path);
    return { blob: await res.blob(), type: res.headers.get('content-type') ?? 'application/octet-stream' };
  }
}
