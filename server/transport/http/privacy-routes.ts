import { Router, type NextFunction, type Request, type Response } from 'express';
import type { ConversationService } from '../../conversation/service.ts';
import type { Logger } from '../../observability/logger.ts';
import { SessionId } from '../../protocol/index.ts';
import type { RateLimits } from '../rate-limits.ts';
import { clientIp, isAdmin, param } from './auth.ts';
import { HttpError } from '../errors.ts';

/** What the privacy routes need. */
export interface PrivacyDeps {
  service: ConversationService;
  limits: RateLimits;
  logger: Logger;
  adminKey: string | undefined;
}

/** Refuses a request without the admin key (same rules and failure limit as the other admin routes). */
function adminOnly(deps: PrivacyDeps) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    if (!deps.adminKey) throw new HttpError('admin_only', 'admin endpoints are off: start the server with ADMIN_KEY');
    const ip = clientIp(req);
    const blocked = await deps.limits.adminBlocked(ip);
    if (!blocked.ok) throw new HttpError('rate_limited', 'too many wrong admin keys from this address; wait a minute', Math.ceil(blocked.retryAfterMs / 1000));
    if (!isAdmin(deps.adminKey, req)) {
      await deps.limits.adminFailed(ip);
      throw new HttpError('admin_only', 'send the admin key in X-Questline-Admin');
    }
    next();
  };
}

/**
 * `DELETE /api/v1/admin/sessions/:id`: erases a session, its transcript and
 * its trace (a person's request to be forgotten). 204 when erased, 404
 * `unknown_session` when there was nothing to erase.
 */
export function privacyRoutes(deps: PrivacyDeps): Router {
  const r = Router();
  r.delete('/sessions/:id', adminOnly(deps), async (req: Request, res: Response) => {
    res.locals.routeBase = req.baseUrl;
    const id = param(req, 'id');
    if (!SessionId.safeParse(id).success) throw new HttpError('unknown_session', 'no such session');
    const existed = await deps.service.erase(id);
    if (!existed) throw new HttpError('unknown_session', 'no such session');
    deps.logger.info({ sessionId: id }, 'session erased');
    res.status(204).end();
  });
  return r;
}
