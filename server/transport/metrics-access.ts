import type { Request } from 'express';
import { adminKeyMatches } from './admin-key.ts';

// /metrics names every tenant's flows and per-question counts: it is for the
// operator's scraper, not the public. With METRICS_TOKEN a scraper sends it as
// a bearer token; without it only this machine (loopback) may read.

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** Whether a request may read /metrics: the right bearer token, or (no token configured) a loopback client. */
export function metricsAllowed(req: Request, token: string | undefined): boolean {
  if (token) {
    const m = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    return adminKeyMatches(token, m?.[1]);
  }
  // req.ip: past trusted proxies, so a local reverse proxy does not make every visitor loopback when TRUST_PROXY is set
  return LOOPBACK.test(req.ip ?? '');
}
